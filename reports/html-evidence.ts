import { parseJson, type Exchange } from '../checks/evidence';
import { html, type Html } from '../html/template';
import { maskPersonalData } from '../redaction/personal-data';
import type { Certification } from './certification';
import { curlOf } from './reproduce';
import { plural } from './verdict-counts';

/**
 * The evidence in certification.html: the exchanges of each test that found a failure or a warning, masked, with a
 * command that reproduces each, and the embedded app's screens; all folded, and unfolded in print.
 */

export interface TestEvidence {
  title: string;
  exchanges: readonly Exchange[];
  screenshots: readonly { name: string; png: Buffer }[];
}

export const anchor = (title: string) => `test-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
const maxBody = 8_000;
/** A JSON body with personal data masked (but `keep`), compact or pretty; anything else as received. */
function masked(raw: string, keep: ReadonlySet<string>, indent?: number): string {
  const json = parseJson(raw);
  return json.ok ? JSON.stringify(maskPersonalData(json.value, keep), null, indent) : raw;
}

function bodyText(raw: string, keep: ReadonlySet<string>): string {
  const body = masked(raw, keep, 2);
  return body.length > maxBody
    ? `${body.slice(0, maxBody)}\n… (${body.length - maxBody} more characters; the Playwright report's evidence attachment has them all)`
    : body;
}
const headersText = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

function exchangeBlock(exchange: Exchange, index: number, keep: ReadonlySet<string>): Html {
  const { request, response, failure } = exchange;
  return html`<div class="exchange"><h4>${index + 1}. ${request.method} <code>${request.url}</code> <span class="muted">${Math.round(exchange.durationMs)} ms</span></h4>
<pre>${headersText(request.headers)}${request.body ? `\n\n${bodyText(request.body, keep)}` : ''}</pre>
${response ? html`<pre>HTTP ${response.status}\n${headersText(response.headers)}\n\n${bodyText(response.body, keep)}</pre>` : ''}
${failure ? html`<p class="o-failed">${failure.kind}: ${failure.message}</p>` : ''}
<details open><summary>Reproduce</summary><pre class="curl">${curlOf(request.body === undefined ? request : { ...request, body: masked(request.body, keep) })}</pre></details></div>`;
}

/** The fields a test's failures name, shown whole in its evidence; paths without array indices. */
const failingFields = (cert: Certification, test: string) =>
  new Set(cert.findings.filter((f) => f.test === test && f.outcome === 'failed').map((f) => f.field.replace(/\[\d*\]/g, '')));

/** The outcomes whose rule rows link to the evidence of the tests that found them (reports/html-rules.ts). */
const evidencedOutcomes: ReadonlySet<string> = new Set(['failed', 'warning', 'waived']);

/** The tests whose exchanges the report shows: each that found a failure, a warning or a waived failure, or did not complete. */
export function evidenceShown(cert: Certification, tests: readonly TestEvidence[]): ReadonlySet<string> {
  const found = new Set(cert.findings.filter((f) => evidencedOutcomes.has(f.outcome)).map((f) => f.test));
  for (const t of cert.tests) if (!t.complete) found.add(t.title);
  return new Set(tests.filter((t) => found.has(t.title) && t.exchanges.length > 0).map((t) => t.title));
}

/** Each test's exchanges folded under its title, the anchor its rules link to: the report stays a few screens long. */
export function evidence(cert: Certification, tests: readonly TestEvidence[], shown: ReadonlySet<string>): Html {
  const folded = tests.filter((t) => shown.has(t.title));
  if (folded.length === 0) return html`<p>No failures or warnings, so no evidence to show. Playwright's report keeps every exchange of the run, redacted.</p>`;
  return html`<p class="muted">Secrets, tokens and codes are replaced by <code>[redacted]</code>, bank account numbers and tax ids by their last 4 digits. Personal data is masked (names to initials, e-mail to its domain, phone to its last 4 digits, date of birth to its year), except in the fields a failure names. In a reproduce command, fill in each <code>&lt;PLACEHOLDER&gt;</code> (a fresh code, your client secret…).</p>
${folded.map((t) => {
  const keep = failingFields(cert, t.title);
  return html`<details class="evidence" id="${anchor(t.title)}"><summary><strong>${t.title}</strong> <span class="muted">${plural(t.exchanges.length, 'exchange')}</span></summary>${t.exchanges.map((exchange, index) => exchangeBlock(exchange, index, keep))}</details>`;
})}`;
}

export function screenshots(tests: readonly TestEvidence[]): Html {
  const shots = tests.flatMap((t) => t.screenshots.map((s) => ({ ...s, test: t.title })));
  if (shots.length === 0) return html`<p class="muted">No browser test ran.</p>`;
  // A click opens a screen at full size (it becomes the page's target), and "close" shrinks it again.
  return html`<details id="screens"><summary>${plural(shots.length, 'screen')}, as the browser tests saw them; click one to see it at full size</summary>${shots.map((s, i) => html`<figure id="screen-${i + 1}"><a href="#screen-${i + 1}"><img alt="${s.name}" src="data:image/png;base64,${s.png.toString('base64')}"></a><figcaption>${s.name}: ${s.test} <a href="#screenshots">close</a></figcaption></figure>`)}</details>`;
}

import { z } from 'zod';
import { platformVerdicts, verdicts } from '../checks/finding';
import { html, styleSheet, type Html } from '../html/template';
import type { Certification } from './certification';
import { baseStyle } from '../html/style';

/**
 * `<outputDir>/index.html` and `index.json`: every partner of a run on one page, with its verdict, what
 * changed since its previous run, how long it has held its verdict, and its last runs from the history.
 */
const verdict = z.enum(verdicts);
const count = z.number().int().nonnegative();

export const overviewSchema = z
  .object({
    generatedAt: z.iso.datetime(),
    partners: z.array(
      z.object({
        partner: z.string(),
        verdict,
        summary: z.string(),
        platform: z
          .object({ verdict: z.enum(platformVerdicts), failed: count, summary: z.string() })
          .nullable()
          .describe("the platform's conformance, beside the partner's certification: never the partner's to fix"),
        finishedAt: z.iso.datetime().describe("this run's end"),
        since: z.iso.datetime().describe('the end of the earliest run, in the history, of the unbroken series of runs with this verdict'),
        failed: count.describe('rules failed'),
        warnings: count.describe('rules warned'),
        waived: count.describe('rules waived'),
        waiversUsed: count,
        report: z.string().describe('certification.html, relative to index.html'),
        previous: z.object({ finishedAt: z.string(), verdict: z.string() }).nullable(),
        fixed: z.array(z.string()).describe('rules that failed in the previous run and pass now'),
        regressed: z.array(z.string()).describe('rules that were judged and did not fail in the previous run, and fail now'),
        newFailures: z.array(z.string()).describe('rules that fail now and were not judged in the previous run'),
        history: z.array(z.object({ finishedAt: z.string(), verdict, failed: count })).describe('the last runs, oldest first, this one last'),
      }),
    ),
  })
  .describe('The partners of one partner-certify run.');

export type Overview = z.output<typeof overviewSchema>;

export const overviewJsonSchema = () => ({
  $id: 'https://partner-certify.invalid/schemas/fleet-overview.schema.json',
  ...z.toJSONSchema(overviewSchema, { target: 'draft-2020-12' }),
});
export const historyShown = 10;

export function overviewOf(runs: readonly { certification: Certification; report: string; history: readonly Certification[] }[], generatedAt: Date): Overview {
  const partners = runs.map(({ certification: cert, report, history }) => {
    const earlier = history.filter((entry) => entry.run.finishedAt < cert.run.finishedAt);
    const series = [...earlier, cert];
    let sinceIndex = series.length - 1;
    while (sinceIndex > 0 && series[sinceIndex - 1]!.verdict === cert.verdict) sinceIndex--;
    return {
      partner: cert.run.partner,
      verdict: cert.verdict,
      summary: cert.summary,
      platform: cert.platform ? { verdict: cert.platform.verdict, failed: cert.platform.counts.failed, summary: cert.platform.summary } : null,
      finishedAt: cert.run.finishedAt,
      since: series[sinceIndex]!.run.finishedAt,
      failed: cert.counts.failed,
      warnings: cert.counts.warning,
      waived: cert.counts.waived,
      waiversUsed: cert.waivers.filter((w) => w.status === 'used').length,
      report,
      previous: cert.comparison?.previous ?? null,
      fixed: cert.comparison?.fixed ?? [],
      regressed: cert.comparison?.regressed ?? [],
      newFailures: cert.comparison?.new ?? [],
      history: series.slice(-historyShown).map((entry) => ({ finishedAt: entry.run.finishedAt, verdict: entry.verdict, failed: entry.counts.failed })),
    };
  });
  return { generatedAt: generatedAt.toISOString(), partners: partners.sort((a, b) => a.partner.localeCompare(b.partner)) };
}

const style = `${baseStyle}
body{max-width:80rem}table{margin:1rem 0}th,td{padding:.4rem .5rem}
.verdict{font-weight:700;white-space:nowrap}.v-CERTIFIED{color:var(--pass)}.v-CERTIFIED-waived{color:var(--waive)}.v-NOT-CERTIFIED{color:var(--fail)}.v-PARTIAL{color:var(--muted)}.v-INCOMPLETE{color:var(--warn)}
.run{display:inline-block;width:.9rem;height:.9rem;border-radius:2px;margin-right:2px;vertical-align:middle}.run.v-CERTIFIED{background:var(--pass)}.run.v-NOT-CERTIFIED{background:var(--fail)}.run.v-PARTIAL{background:var(--muted)}.run.v-INCOMPLETE{background:var(--warn)}
td.platform[data-verdict="DOES NOT CONFORM"]{color:var(--fail)}td.platform[data-verdict="INCOMPLETE"]{color:var(--warn)}td.platform{white-space:nowrap;font-size:.9rem}
tr.regressed td{background:#fce8e6}ul.regressed,span.regressed{color:var(--fail)}ul.fixed{color:var(--pass)}.waived{color:var(--waive)}ul{margin:0;padding-left:1rem}
`;

const cls = (v: string) => `v-${v.replace(/ /g, '-')}`;
const day = (iso: string) => iso.slice(0, 16).replace('T', ' ');
const ids = (list: readonly string[], kind: string, label = '') =>
  list.length === 0 ? '' : html`<ul class="${kind}">${list.map((id) => html`<li><code>${id}</code>${label}</li>`)}</ul>`;

function row(p: Overview['partners'][number]): Html {
  const regressed = p.regressed.length + p.newFailures.length > 0;
  return html`<tr class="partner${regressed ? ' regressed' : ''}" data-partner="${p.partner}" data-verdict="${p.verdict}">
<td><a href="${p.report}">${p.partner}</a></td><td><span class="verdict ${cls(p.verdict)}${p.verdict === 'CERTIFIED' && p.waived > 0 ? ' v-CERTIFIED-waived' : ''}">${p.verdict === 'CERTIFIED' && p.waived > 0 ? `CERTIFIED with ${p.waiversUsed} ${p.waiversUsed === 1 ? 'waiver' : 'waivers'}` : p.verdict}</span><div class="muted">since ${day(p.since)}</div></td>
<td class="platform" data-verdict="${p.platform?.verdict ?? ''}" title="${p.platform?.summary ?? ''}">${p.platform ? `${p.platform.verdict}${p.platform.failed > 0 ? ` (${p.platform.failed} failed)` : ''}` : ''}</td>
<td class="n${p.failed > 0 ? ' v-NOT-CERTIFIED' : ''}">${p.failed}</td><td class="n">${p.warnings}</td><td class="n waived">${p.waived ? `${p.waived} (${p.waiversUsed} ${p.waiversUsed === 1 ? 'waiver' : 'waivers'})` : ''}</td><td>${day(p.finishedAt)}</td>
<td class="changes">${p.previous ? html`<div class="muted">since ${day(p.previous.finishedAt)} (${p.previous.verdict})</div>${ids(p.regressed, 'regressed', ' regressed')}${ids(p.newFailures, 'regressed', ' new failure')}${ids(p.fixed, 'fixed', ' fixed')}${regressed || p.fixed.length > 0 ? '' : p.previous.verdict !== p.verdict ? html`<span>${p.previous.verdict} → ${p.verdict}</span>` : html`<span class="muted">no change</span>`}` : html`<span class="muted">first run</span>`}</td>
<td class="history">${p.history.map((h) => html`<span class="run ${cls(h.verdict)}" title="${day(h.finishedAt)}: ${h.verdict}${h.failed ? `, ${h.failed} failed` : ''}"></span>`)}</td></tr>`;
}

const partners = (n: number) => `${n} partner${n === 1 ? '' : 's'}`;
/** A count in its colour when there is something to count; a zero is no news. */
const tally = (n: number, what: string, colour: string) =>
  n > 0 ? html`<span class="${colour}">${n} ${what}</span>` : html`<span class="muted">${n} ${what}</span>`;

export function overviewHtml(overview: Overview): string {
  const by = (v: string) => overview.partners.filter((p) => p.verdict === v).length;
  const regressed = overview.partners.filter((p) => p.regressed.length + p.newFailures.length > 0).length;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Partner certification: ${partners(overview.partners.length)}</title>${styleSheet(style)}</head><body>
<h1>Partner certification</h1>
<p id="totals">${partners(overview.partners.length)}, run ${day(overview.generatedAt)} UTC: ${tally(by('CERTIFIED'), 'certified', 'v-CERTIFIED')}, ${tally(by('NOT CERTIFIED'), 'not certified', 'v-NOT-CERTIFIED')}${by('PARTIAL') ? `, ${by('PARTIAL')} partial` : ''}${by('INCOMPLETE') ? html`, ${tally(by('INCOMPLETE'), 'incomplete', 'v-INCOMPLETE')}` : ''}; ${tally(regressed, 'regressed', 'regressed')} since their previous run.</p>
<table id="partners"><tr><th>Partner</th><th>Verdict</th><th>Platform</th><th class="n">Failed</th><th class="n">Warnings</th><th class="n">Waived</th><th>Run (UTC)</th><th>Since the previous run</th><th>Last ${historyShown} runs</th></tr>
${overview.partners.map(row)}</table>
<p class="muted">Each partner's report is its certification.html; index.json holds this page as data. Runs are kept in the history folder.</p>
</body></html>`.text;
}

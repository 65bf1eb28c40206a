import { html, styleSheet, type Html } from '../html/template';
import type { Certification } from './certification';
import { evidence, evidenceShown, screenshots, type TestEvidence } from './html-evidence';
import { banner, comparison, fixFirst, platformLine, stackLine, warningsLine } from './html-first-screen';
import { areaSummary, platformConformance, rulesByArea } from './html-rules';
import { baseStyle } from '../html/style';
import { plural } from './verdict-counts';

/**
 * certification.html: one self-contained file (inline CSS, images as data URLs, a CSP that forbids every
 * fetch) that opens offline and prints to PDF. Every value goes through the escaping `html` template.
 */

const style = `${baseStyle}
h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}h3{font-size:1.05rem;margin:1.25rem 0 .4rem}
pre{background:#f8f9fa;border:1px solid var(--line);padding:.5rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.banner{padding:1rem 1.25rem;border-radius:6px;color:#fff;margin:1rem 0}.banner strong{font-size:1.6rem;display:block;letter-spacing:.02em}
.banner.certified{background:var(--pass)}.banner.certified-waived{background:var(--waive)}.banner.not-certified{background:var(--fail)}.banner.partial{background:var(--muted)}.banner.incomplete{background:var(--warn)}
.banner ul{margin:.5rem 0 0;padding-left:1.25rem}
.platform-verdict strong{color:var(--pass)}.platform-verdict[data-verdict="DOES NOT CONFORM"] strong{color:var(--fail)}.platform-verdict[data-verdict="INCOMPLETE"] strong{color:var(--warn)}.platform-verdict[data-verdict="NOT CHECKED"] strong{color:var(--muted)}
.outcome{font-weight:600;white-space:nowrap}.o-failed{color:var(--fail)}.o-warning{color:var(--warn)}.o-passed{color:var(--pass)}.o-waived{color:var(--waive)}.o-info,.o-skipped,.o-not-checked{color:var(--muted)}
tr.failed td{background:#fce8e6}tr.warning td{background:#fef7e0}tr.waived td{background:#f1ecfa}.detail{margin:.25rem 0}
figure{display:inline-block;margin:0 1rem 1rem 0;vertical-align:top;max-width:16rem}figure img{max-width:100%;border:1px solid var(--line);cursor:zoom-in}figcaption{font-size:12px;color:var(--muted)}
figure:target{display:block;max-width:none}figure:target img{max-width:none;cursor:zoom-out}
#fix-first{border:2px solid var(--fail);border-radius:6px;padding:0 1rem .5rem;margin:1rem 0}#fix-first h2{border:0;margin:.5rem 0 0}#fix-first ol{margin:.25rem 0}#fix-first li{margin:.4rem 0}#fix-first .detail{margin:0}#fix-first>details{margin:0 0 .25rem 1.5rem}#summary>h2{margin-top:1.25rem}
#warnings{margin:.5rem 0}summary{cursor:pointer}details.passed>summary,details.not-judged>summary{color:var(--muted);margin:.25rem 0}
details.evidence{border:1px solid var(--line);border-radius:4px;padding:.3rem .5rem;margin:.4rem 0}
@media print{body{max-width:none;padding:0}details::details-content{content-visibility:visible}.banner{-webkit-print-color-adjust:exact;print-color-adjust:exact}section,figure,tr{break-inside:avoid}pre{max-height:none}}
`;

function runTable({ run, signing }: Certification): Html {
  const rows: [string, string][] = [
    ...Object.entries(run.targets),
    ['harness', `partner-certify ${run.harness.version}${run.harness.commit ? ` (${run.harness.commit})` : ''}`],
    ['run', `${run.startedAt} → ${run.finishedAt} (${run.status})`],
    ['versions', `Node ${run.node}, Playwright ${run.playwright}, ${run.chromium ?? 'no browser used'}`],
    [
      'signed',
      signing
        ? `by ${signing.signer ?? 'an unnamed signer'}, Ed25519 key SHA-256 ${signing.keyThumbprint}: certification.json.jws; check it with npm run verify`
        : 'no (no signing key was configured)',
    ],
  ];
  return html`<table class="run">${rows.map(([name, value]) => html`<tr><th>${name}</th><td><code>${value}</code></td></tr>`)}</table>`;
}

const waiverStatus: Record<Certification['waivers'][number]['status'], string> = {
  used: 'used',
  expired: 'expired: no longer applies',
  stale: 'stale: matched nothing this run; remove it',
  unjudged: 'its rule was not judged this run',
};

function waivers(cert: Certification): Html | undefined {
  if (cert.waivers.length === 0) return undefined;
  return html`<section id="waivers"><h2>Waivers</h2><p class="muted">Deviations the platform accepted from this partner, each until its date (partners/${cert.run.partner}.waivers.json).</p>
<table><tr><th>#</th><th>Rule</th><th>Reason</th><th>Approved by</th><th>Expires</th><th>This run</th><th class="n">Findings</th></tr>
${cert.waivers.map((w) => html`<tr class="waiver" data-waiver="${w.waiver}" data-status="${w.status}"><td>${w.waiver}</td><td><code>${w.rule}</code>${w.field ? html` <span class="muted">field ${w.field}</span>` : ''}${w.message ? html` <span class="muted">message “${w.message}”</span>` : ''}</td><td>${w.reason}</td><td>${w.approvedBy}</td><td>${w.expires}</td><td>${waiverStatus[w.status]}</td><td class="n">${w.findings}</td></tr>`)}</table></section>`;
}

function partialRun(cert: Certification): Html | undefined {
  const partial = cert.partial;
  if (!partial) return undefined;
  return html`<section id="partial"><h2>A partial run</h2><p>This run (${partial.reason}) ran ${partial.ran.length} of the partner's tests, so it cannot certify: run every test for a certification.</p>
<h3>Tests that ran</h3><ul>${partial.ran.map((title) => html`<li>${title}</li>`)}</ul>
${partial.leftOut.length > 0 ? html`<h3>Tests left out</h3><ul id="left-out">${partial.leftOut.map((title) => html`<li>${title}</li>`)}</ul>` : ''}
${partial.failedBeforeNotRun.length > 0 ? html`<h3>Failed last time, not run this time</h3><ul>${partial.failedBeforeNotRun.map((title) => html`<li>${title}</li>`)}</ul>` : ''}</section>`;
}

function incompleteTests(cert: Certification): Html | undefined {
  const tests = cert.tests.filter((t) => !t.complete && t.status !== 'not-run');
  if (tests.length === 0) return undefined;
  return html`<section id="incomplete"><h2>Tests that did not complete</h2><p>These tests stopped before their rules could be judged, so the partner cannot be certified until they run to the end.</p>
${tests.map((t) => html`<h3>${t.title} <span class="outcome o-failed">${t.status}</span></h3>${t.errors.map((e) => html`<pre>${e}</pre>`)}`)}</section>`;
}

/** Tests Playwright ran more than once (--retries): the earlier attempts count as much as the last. */
function retriedTests(cert: Certification): Html | undefined {
  const tests = cert.tests.filter((t) => t.earlierAttempts.length > 0);
  if (tests.length === 0) return undefined;
  return html`<section id="retried"><h2>Tests run more than once</h2><p>Every attempt counts: a rule that failed in any attempt is failed, whatever a later attempt found.</p>
${tests.map((t) => html`<h3>${t.title}: ${t.attempts} attempts, the last ${t.status}</h3>${t.earlierAttempts.map((attempt, i) => html`<p>Attempt ${i + 1}: <span class="outcome o-${attempt.status === 'passed' ? 'passed' : 'failed'}">${attempt.status}</span></p>${attempt.errors.map((e) => html`<pre>${e}</pre>`)}`)}`)}</section>`;
}

function typing(cert: Certification): Html {
  if (cert.typing.length === 0) return html`<p>Nothing: every Yes*, no** and no* field the platform needs was sent.</p>`;
  return html`<table id="typing"><tr><th>Field</th><th>Required (spec)</th><th>When the user is asked</th></tr>
${cert.typing.map((row) => html`<tr><td><code>${row.field}</code></td><td>${row.marker}</td><td>${row.when}</td></tr>`)}</table>`;
}

function latency(cert: Certification): Html {
  if (cert.latency.length === 0) return html`<p class="muted">No call reached the partner's token exchange, account information or funding sources.</p>`;
  const c = cert.latencyConditions;
  const conditions = c
    ? html`<p class="muted" id="latency-conditions">The platform's calls to your endpoints, timed from this harness: up to ${c.mostAtOnce} requests in flight at once, on a machine of ${c.cores} cores whose load average was ${c.loadAverage} when the run ended. A certification sends many requests together, and a busy machine adds its own delay: these are upper bounds, not what one user waits for.</p>`
    : '';
  return html`${conditions}<table id="latency"><tr><th>Endpoint</th><th class="n">Requests</th><th class="n">p50 ms</th><th class="n">p95 ms</th><th class="n">max ms</th></tr>
${cert.latency.map((l) => html`<tr><td><code>${l.endpoint}</code></td><td class="n">${l.requests}</td><td class="n">${l.p50Ms}</td><td class="n">${l.p95Ms}</td><td class="n">${l.maxMs}</td></tr>`)}</table>`;
}

function skipped(cert: Certification): Html | undefined {
  const tests = cert.tests.filter((t) => t.status === 'skipped' || t.status === 'not-run');
  if (tests.length === 0) return undefined;
  return html`<section id="skipped"><h2>Not run</h2><details><summary>${plural(tests.length, 'test')} not run, and why</summary><table><tr><th>Test</th><th>Why</th></tr>${tests.map((t) => html`<tr><td>${t.title}</td><td>${t.skipReason ?? t.status}</td></tr>`)}</table></details></section>`;
}

/** One part of the report; a part that cannot be built says so, and the rest of the report is still written. */
function part(name: string, build: () => Html | undefined): Html | undefined {
  try {
    return build();
  } catch (error) {
    return html`<section class="broken"><h2>${name}</h2><p>This part of the report could not be built: ${error instanceof Error ? error.message : String(error)}. The rest of the report, and certification.json, are complete; please report this harness bug.</p></section>`;
  }
}

export function certificationHtml(cert: Certification, tests: readonly TestEvidence[]): string {
  // The tests whose exchanges are shown: a rule links to its evidence only there, so every link lands.
  const evidenced = evidenceShown(cert, tests);
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${cert.verdict}: ${cert.run.partner} partner certification</title>${styleSheet(style)}</head><body>
<h1>Partner certification: ${cert.run.partner}</h1>${banner(cert)}
${part('The platform', () => platformLine(cert))}
${part('Warnings', () => warningsLine(cert))}
${part('Your OAuth server', () => stackLine(cert))}
${part('What to fix first', () => fixFirst(cert))}
<section id="summary"><h2>Summary by area</h2>${part('Summary by area', () => areaSummary(cert))}</section>
${part('Partial run', () => partialRun(cert))}
${part('Comparison', () => comparison(cert))}
${part('Waivers', () => waivers(cert))}
<section id="run"><h2>The run</h2>${part('The run', () => runTable(cert))}</section>
${part('Tests that did not finish', () => incompleteTests(cert))}
${part('Tests run more than once', () => retriedTests(cert))}
<section id="rules"><h2>Every rule of yours, by endpoint, failures first</h2>${part('Rules', () => rulesByArea(cert, 'partner', evidenced))}</section>
${part("The platform's conformance", () => platformConformance(cert, evidenced))}
<section id="typing-section"><h2>What your users will be asked to type</h2>${part('Typing', () => typing(cert))}</section>
<section id="latency-section"><h2>Latency per endpoint</h2>${part('Latency', () => latency(cert))}</section>
<section id="evidence"><h2>Evidence for each failure and warning</h2>${part('Evidence', () => evidence(cert, tests, evidenced))}</section>
<section id="screenshots"><h2>Embedded app screens</h2>${part('Screens', () => screenshots(tests))}</section>
${part('Not run', () => skipped(cert))}
</body></html>`.text;
}

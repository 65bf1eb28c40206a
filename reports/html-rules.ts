import { clauses } from '../checks/clauses';
import type { Owner } from '../checks/finding';
import { html, type Html } from '../html/template';
import { bySeverity, type Certification, type RuleOutcome } from './certification';
import { anchor } from './html-evidence';
import { failureGroups, moreLikeIt } from './failure-groups';
import { stackFixLine } from './html-first-screen';

/** The rule tables of certification.html: the areas' counts, and every rule by area, the partner's and the platform's. */

const outcomeLabel: Record<RuleOutcome, string> = {
  failed: '✗ failed',
  waived: '≈ waived',
  warning: '! warning',
  info: 'i note',
  passed: '✓ passed',
  skipped: '– skipped',
  'not-checked': '· not checked',
};
const outcomeCell = (outcome: RuleOutcome) => html`<span class="outcome o-${outcome}">${outcomeLabel[outcome]}</span>`;
type Rule = Certification['rules'][number];
/** The level an outcome is reported at: a note is INFO and a warning SHOULD, whatever level the rule fails at. */
const levelShown = (rule: Rule) => (rule.outcome === 'info' ? 'INFO' : rule.outcome === 'warning' ? 'SHOULD' : rule.level);
const notJudged = (rule: Rule) => rule.outcome === 'skipped' || rule.outcome === 'not-checked';

/** The areas that hold rules of `owner`, with the counts of those rules only. */
function areasOf(cert: Certification, owner: Owner) {
  const count = (rules: Certification['rules'], outcome: RuleOutcome) => rules.filter((rule) => rule.outcome === outcome).length;
  return cert.areas.flatMap((a) => {
    const rules = cert.rules.filter((rule) => rule.area === a.area && rule.owner === owner);
    if (rules.length === 0) return [];
    return [
      {
        area: a.area,
        title: a.title,
        failed: count(rules, 'failed'),
        waived: count(rules, 'waived'),
        warning: count(rules, 'warning'),
        passed: count(rules, 'passed'),
        info: count(rules, 'info'),
        skipped: count(rules, 'skipped'),
        notChecked: count(rules, 'not-checked'),
      },
    ];
  });
}

export function areaSummary(cert: Certification): Html {
  return html`<table id="areas"><tr><th>Area</th><th class="n">Failed</th><th class="n">Waived</th><th class="n">Warnings</th><th class="n">Passed</th><th class="n">Notes</th><th class="n">Not applicable</th><th class="n">Not checked</th></tr>
${areasOf(cert, 'partner').map((a) => html`<tr><td><a href="#area-${a.area}">${a.title}</a></td><td class="n o-failed">${a.failed || ''}</td><td class="n o-waived">${a.waived || ''}</td><td class="n o-warning">${a.warning || ''}</td><td class="n">${a.passed}</td><td class="n">${a.info || ''}</td><td class="n">${a.skipped || ''}</td><td class="n">${a.notChecked || ''}</td></tr>`)}</table>`;
}

/** Where a rule's findings came from: a link to the test's evidence where the report shows it, else the test's title. */
const foundBy = (test: string, evidenced: ReadonlySet<string>) =>
  evidenced.has(test)
    ? html`<div class="detail muted">Evidence: <a href="#${anchor(test)}">${test}</a></div>`
    : html`<div class="detail muted">Found by: ${test}</div>`;

function ruleRows(cert: Certification, rules: readonly Rule[], owner: Owner, evidenced: ReadonlySet<string>): Html {
  const elsewhere = owner === 'platform' ? cert.platform?.judgedBy : null;
  return html`${rules.map((rule) => {
    const findings = cert.findings.filter((f) => f.rule === rule.id && f.outcome === rule.outcome);
    const detailed = rule.outcome === 'failed' || rule.outcome === 'warning' || rule.outcome === 'waived';
    // A note says what it noted, a rule that was not judged why; a passed rule, what it requires.
    const shown = detailed || rule.outcome === 'info' || rule.outcome === 'skipped' || rule.outcome === 'not-checked' ? findings : [];
    return html`<tr class="rule ${rule.outcome}" id="rule-${rule.id}" data-rule="${rule.id}" data-outcome="${rule.outcome}"><td>${outcomeCell(rule.outcome)}</td><td><code>${rule.id}</code>
${rule.blockedBy ? html`<div class="detail muted" data-blocked-by="${rule.blockedBy}">blocked by <a href="#rule-${rule.blockedBy}"><code>${rule.blockedBy}</code></a></div>` : ''}
${failureGroups(shown)
  .slice(0, 5)
  .map((group) => html`<div class="detail">${detailed ? html`<strong>${group.message}</strong>` : group.message}${moreLikeIt(group)}</div>`)}
${rule.outcome === 'passed' ? html`<div class="detail muted">${rule.requirement}</div>` : ''}
${detailed && elsewhere ? html`<div class="detail muted">Judged in ${elsewhere}'s tests, once for every partner on this platform: its report has the details.</div>` : ''}
${[...new Map(findings.flatMap((f) => (f.waiver ? [[f.waiver.waiver, f.waiver] as const] : []))).values()].map((w) => html`<div class="detail o-waived" data-waiver="${w.waiver}">${w.expired ? 'No longer waived: waiver' : 'Waived by waiver'} #${w.waiver} (${w.reason}; approved by ${w.approvedBy}, ${w.expired ? 'expired' : 'until'} ${w.expires})</div>`)}
${
  detailed
    ? html`<div class="detail">${owner === 'platform' ? 'What the platform must do:' : 'Fix:'} ${rule.requirement || 'see the message'}</div>${rule.stackFix ? stackFixLine(rule.stackFix) : ''}<div class="detail muted">Impact: ${findings[0]?.impact ?? ''}</div>
<div class="detail muted">${rule.clause}: ${clauses[rule.clause as keyof typeof clauses] ?? ''}</div>
${[...new Set(findings.map((f) => f.test))].map((test) => foundBy(test, evidenced))}`
    : ''
}</td>
<td data-level="${levelShown(rule)}">${levelShown(rule)}</td><td>${rule.clause}</td></tr>`;
  })}`;
}

/** "6 not judged (4 not applicable, 2 not checked)", or "4 not applicable" when they are of one kind. */
function notJudgedSummary(rules: readonly Rule[]): string {
  const [skipped, notChecked] = [rules.filter((r) => r.outcome === 'skipped').length, rules.filter((r) => r.outcome === 'not-checked').length];
  const parts = [skipped > 0 && `${skipped} not applicable`, notChecked > 0 && `${notChecked} not checked`].filter(Boolean);
  return parts.length === 1 ? String(parts[0]) : `${rules.length} not judged (${parts.join(', ')})`;
}

export function rulesByArea(cert: Certification, owner: Owner, evidenced: ReadonlySet<string>): Html {
  const areas = areasOf(cert, owner).sort((a, b) => Number(b.failed > 0) - Number(a.failed > 0) || Number(b.warning > 0) - Number(a.warning > 0));
  const prefix = owner === 'platform' ? 'platform-area' : 'area';
  const head = html`<tr><th>Outcome</th><th>Rule</th><th>Level</th><th>Clause</th></tr>`;
  const table = (rules: readonly Rule[]) => html`<table>${head}${ruleRows(cert, rules, owner, evidenced)}</table>`;
  // What needs reading first; then, folded, the passed rules, each with what it requires, and the rules not judged, with why.
  return html`${areas.map((a) => {
    const rules = cert.rules.filter((rule) => rule.area === a.area && rule.owner === owner).sort(bySeverity);
    const judged = rules.filter((rule) => rule.outcome !== 'passed' && !notJudged(rule));
    const passed = rules.filter((rule) => rule.outcome === 'passed');
    const unjudged = rules.filter(notJudged);
    return html`<section class="area" id="${prefix}-${a.area}"><h3>${a.title}</h3>
${judged.length > 0 ? table(judged) : ''}
${passed.length > 0 ? html`<details class="passed"><summary>${passed.length} passed</summary>${table(passed)}</details>` : ''}
${unjudged.length > 0 ? html`<details class="not-judged"><summary>${notJudgedSummary(unjudged)}</summary>${table(unjudged)}</details>` : ''}</section>`;
  })}`;
}

/**
 * The platform's own rules, for the platform team: never a fix for the partner. Against the bundled
 * emulator, the harness's self-check.
 */
export function platformConformance(cert: Certification, evidenced: ReadonlySet<string>): Html | undefined {
  const platform = cert.platform;
  if (!platform) return undefined;
  const intro = platform.emulator
    ? "The platform here is the bundled emulator: these are the harness's own checks of itself, and none is the partner's to fix."
    : "These rules judge the platform (the mock link, the embedded app's screens and messages, the data API), not the partner: they are reported to the platform team, never as something for the partner to fix, and they do not count in the partner's certification.";
  return html`<section id="platform"><h2>The platform's conformance</h2><p class="platform-verdict" data-verdict="${platform.verdict}"><strong>${platform.verdict}</strong>: ${platform.summary.replace(/^[A-Z ]+: /, '')}</p><p class="muted">${intro}</p>
${platform.verdict === 'NOT CHECKED' ? '' : rulesByArea(cert, 'platform', evidenced)}</section>`;
}

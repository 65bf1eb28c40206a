import { html, type Html } from '../html/template';
import type { Certification } from './certification';
import { failureGroups, moreLikeIt } from './failure-groups';
import { plural } from './verdict-counts';

/**
 * The first screen of certification.html is the answer: the verdict, the platform's beside it, the warnings in
 * one line, what to fix first; and, further down, what changed since the previous run, in one line when nothing did.
 */

/** The root causes shown on the first screen, which must also hold the counts under them; the others are folded. */
const causesShown = 3;
/** The warnings named in their one line; the others are counted. */
const warningsNamed = 8;

/** The banner's colour: a certificate that rests on waivers has its own, so it is never read as a clean one. */
export const verdictKind = (cert: Pick<Certification, 'verdict' | 'counts'>) =>
  cert.verdict === 'CERTIFIED' && cert.counts.waived > 0 ? 'certified-waived' : cert.verdict.toLowerCase().replace(' ', '-');

export function banner(cert: Certification): Html {
  const split = cert.summary.indexOf(': ');
  const [headline, rest] = split < 0 ? [cert.summary, ''] : [cert.summary.slice(0, split), cert.summary.slice(split + 2)];
  return html`<div class="banner ${verdictKind(cert)}" id="verdict" data-verdict="${cert.verdict}">
<strong>${headline}</strong>${rest}${cert.incomplete.length > 0 ? html`<ul id="incomplete-reasons">${cert.incomplete.map((reason) => html`<li>${reason}</li>`)}</ul>` : ''}</div>`;
}

/** The second verdict, under the first: the platform's, which is never the partner's to fix. */
export function platformLine(cert: Certification): Html | undefined {
  const platform = cert.platform;
  if (!platform) return undefined;
  return html`<p class="platform-verdict" data-verdict="${platform.verdict}">The platform: <strong>${platform.verdict}</strong>, ${platform.summary.replace(/^[A-Z ]+: /, '')}. ${platform.verdict === 'DOES NOT CONFORM' ? 'Not yours to fix: ' : ''}<a href="#platform">its checks</a>.</p>`;
}

const ruleLink = (id: string) => html`<a href="#rule-${id}"><code>${id}</code></a>`;

/** The partner's warnings in one line, each rule linked to its row: a green report says what it could still improve. */
export function warningsLine(cert: Certification): Html | undefined {
  const warned = cert.rules.filter((rule) => rule.owner === 'partner' && rule.outcome === 'warning').map((rule) => rule.id);
  if (warned.length === 0) return undefined;
  const more = warned.length - warningsNamed;
  return html`<p id="warnings"><strong class="o-warning">${plural(warned.length, 'warning')}</strong>, none of which fails a certification: ${warned
    .slice(0, warningsNamed)
    .map((id, i) => html`${i > 0 ? ', ' : ''}${ruleLink(id)}`)}${more > 0 ? html` and <a href="#rules">${more} more</a>` : ''}.</p>`;
}

function cause(cert: Certification, rule: Certification['rules'][number]): Html {
  const groups = failureGroups(cert.findings.filter((f) => f.rule === rule.id && f.outcome === 'failed'));
  const [first, ...others] = groups;
  const blocked = cert.rules.filter((other) => other.blockedBy === rule.id);
  return html`<li data-rule="${rule.id}">${ruleLink(rule.id)}${first ? html`: <strong>${first.message}</strong>${moreLikeIt(first)}` : ''}
${others.slice(0, 2).map((group) => html`<div class="detail"><strong>${group.message}</strong>${moreLikeIt(group)}</div>`)}${others.length > 2 ? html`<div class="detail muted">and ${others.length - 2} other kinds of problem</div>` : ''}
<div class="detail muted">The rule: ${rule.requirement}</div>
${rule.stackFix ? stackFixLine(rule.stackFix) : ''}
${blocked.length > 0 ? html`<details><summary>${plural(blocked.length, 'rule')} could not be judged until this is fixed</summary><ul>${blocked.map((b) => html`<li><code>${b.id}</code></li>`)}</ul></details>` : ''}</li>`;
}

/** The fix on the partner's own OAuth library, in its terms, linked to its documentation. */
export const stackFixLine = (fix: { library: string; fix: string; docs: string }): Html =>
  html`<div class="detail stack-fix">On ${fix.library}: ${fix.fix} (<a href="${fix.docs}">its documentation</a>)</div>`;

/** Which OAuth server answered, and what named it; or why none was named. */
export function stackLine(cert: Certification): Html | undefined {
  const stack = cert.stack;
  if (!stack) return undefined;
  if ('notRecognised' in stack) return html`<p id="stack" class="muted">Your OAuth server: not recognised: ${stack.notRecognised}.</p>`;
  return html`<p id="stack">Your OAuth server: <strong>${stack.library}</strong> (marks observed on ${stack.observedOn.join(', ')}), named by its answers: ${stack.evidence.join('; ')}. <a href="${stack.docs}">Its documentation</a>.</p>`;
}

/**
 * What to do: each failed rule of the partner's that nothing else explains (a root cause), with its fix; the
 * rules it kept from being judged are listed under it, not beside it.
 */
export function fixFirst(cert: Certification): Html | undefined {
  const causes = cert.rules.filter((rule) => rule.owner === 'partner' && rule.outcome === 'failed');
  if (causes.length === 0) return undefined;
  const rest = causes.slice(causesShown);
  return html`<section id="fix-first"><h2>What to fix first</h2><ol>${causes.slice(0, causesShown).map((rule) => cause(cert, rule))}</ol>
${rest.length > 0 ? html`<details class="more-causes"><summary>${plural(rest.length, 'more root cause')}</summary><ol start="${causesShown + 1}">${rest.map((rule) => cause(cert, rule))}</ol></details>` : ''}</section>`;
}

const unchangedWords: Record<'fixed' | 'regressed' | 'new', string> = { fixed: 'nothing fixed', regressed: 'nothing regressed', new: 'no new failure' };
const changeTitles: Record<'fixed' | 'regressed' | 'new', string> = { fixed: 'Fixed', regressed: 'Regressed', new: 'New failures' };

/** What changed since the previous run: one line when nothing did, else only the lists that hold something. */
export function comparison(cert: Certification): Html | undefined {
  const c = cert.comparison;
  if (!c) return undefined;
  const since = `the previous run (finished ${c.previous.finishedAt}, ${c.previous.verdict})`;
  const kinds = (['fixed', 'regressed', 'new'] as const).filter((kind) => c[kind].length > 0);
  if (kinds.length === 0) return html`<p id="comparison" class="unchanged">Unchanged since ${since}: no rule fixed, regressed or newly failed.</p>`;
  const none = (['fixed', 'regressed', 'new'] as const).filter((kind) => c[kind].length === 0).map((kind) => unchangedWords[kind]);
  return html`<section id="comparison"><h2>Since the previous run</h2><p class="muted">Compared with ${since}${none.length > 0 ? `; ${none.join(', ')}` : ''}.</p>
${kinds.map((kind) => html`<h3>${changeTitles[kind]} (${c[kind].length})</h3><ul>${c[kind].map((id) => html`<li><code>${id}</code></li>`)}</ul>`)}</section>`;
}

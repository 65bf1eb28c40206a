import { html, styleSheet, type Html } from '../html/template';
import { baseStyle } from '../html/style';
import { outcomeKeys, type OutcomeKey } from './summary-schema';
import type { Alternative, PopulationReport, RuleFix } from './report-schema';
import { number, percent, plural, signed, widthOf } from './report-words';
import { comparisonHtml, comparisonLines } from './report-compare';
import { fixPlanHtml, fixPlanLines, sharedIdsHtml, sharedIdsWords } from './report-plan';

/**
 * population.html: one self-contained file (inline CSS, no script, a CSP that forbids every fetch) that shows a
 * partner how its users fare at sign-on, and its summary on the console. Every value of the page goes through
 * the escaping `html` template.
 */

const style = `${baseStyle}
h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
:root{--signs-in:#1e8e3e;--asked-before-payment:#a8dab5;--typed-at-sign-on:#f9ab00;--error-screen:#d93025}
.lede{font-size:1.15rem;margin:.25rem 0 1rem}.lede strong{font-size:1.6rem}
.stack{display:flex;height:3rem;border-radius:6px;overflow:hidden;margin:1rem 0 .75rem;background:var(--line)}
.stack span{min-width:0;overflow:hidden;white-space:nowrap;display:flex;align-items:center;justify-content:center;font-weight:600;font-size:13px}
.o-signs-in{background:var(--signs-in);color:#fff}.o-asked-before-payment{background:var(--asked-before-payment);color:#0d3b1c}
.o-typed-at-sign-on{background:var(--typed-at-sign-on);color:#3b2800}.o-error-screen{background:var(--error-screen);color:#fff}
.legend{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:.75rem;margin:0 0 1rem}
.legend div{border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem}.legend b{display:block;font-size:1.5rem;font-variant-numeric:tabular-nums}
.swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.35rem;vertical-align:-1px}
.callout{border:2px solid var(--warn);background:#fef7e0;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}.callout h2{border:0;margin:.5rem 0}
ol.fixes{padding-left:1.25rem}ol.fixes>li{margin:0 0 1rem;padding:.5rem .75rem;border-left:4px solid var(--warn);background:#fafafa}ol.fixes>li.failed{border-color:var(--fail)}
.fix-head{font-size:1.05rem}.fix-head b{font-size:1.3rem}.chip{display:inline-block;border:1px solid var(--line);border-radius:1rem;padding:0 .5rem;margin:.1rem .25rem .1rem 0;background:#fff}
.meter{height:.4rem;background:var(--line);border-radius:3px;margin:.3rem 0 .5rem;max-width:32rem}.meter span{display:block;height:100%;background:var(--fail);border-radius:3px}li.warned .meter span{background:var(--warn)}
.hist{display:grid;grid-template-columns:max-content 1fr max-content;gap:.3rem .75rem;align-items:center;max-width:48rem}
.hist .bar{height:1.1rem;background:#f1f3f4;border-radius:3px}.hist .bar span{display:block;height:100%;background:var(--typed-at-sign-on);border-radius:3px}
.alt{border:1px solid var(--line);border-radius:6px;padding:.25rem .75rem;margin:.75rem 0}.alt.many{border:2px solid var(--warn)}.worse{color:var(--fail)}.better{color:var(--pass)}
footer{margin-top:2rem;border-top:1px solid var(--line);padding-top:.5rem}
@media print{body{max-width:none;padding:0}.stack,.legend,.meter,.hist{-webkit-print-color-adjust:exact;print-color-adjust:exact}section,li{break-inside:avoid}}
`;

const fixesShown = 10;

const outcomeLabels: Record<OutcomeKey, string> = {
  'signs-in': 'Sign in, nothing asked',
  'asked-before-payment': 'Sign in, asked for no** fields before the first payment',
  'typed-at-sign-on': 'Type Yes* fields at sign-on',
  'error-screen': 'See the error screen',
};

const settingMeaning: Record<Alternative['setting'], (value: boolean | string) => string> = {
  collectMissingAccountInfo: (value) => (value ? 'a missing Yes* field is typed at sign-on' : 'a missing Yes* field shows the error screen'),
  invalidRequired: (value) => (value === 'typed-again' ? 'an invalid Yes* value is typed again at sign-on' : 'an invalid Yes* value shows the error screen'),
  invalidOptional: (value) =>
    value === 'dropped' ? 'an invalid no**, no* or optional value is dropped' : 'an invalid no**, no* or optional value refuses sign-on',
};

function outcomeBar({ outcomes }: PopulationReport): Html {
  const total = outcomeKeys.reduce((sum, key) => sum + outcomes[key].count, 0);
  const shown = outcomeKeys.filter((key) => outcomes[key].count > 0);
  return html`<div class="stack" role="img" aria-label="${shown.map((key) => `${outcomeLabels[key]}: ${percent(outcomes[key].share)}`).join('; ')}">${shown.map(
    (key) =>
      html`<span class="o-${key}" style="flex:${outcomes[key].count} 1 0" title="${outcomeLabels[key]}: ${number(outcomes[key].count)}">${outcomes[key].count / total >= 0.06 ? percent(outcomes[key].share) : ''}</span>`,
  )}</div>`;
}

function legend({ outcomes }: PopulationReport): Html {
  return html`<div class="legend">${outcomeKeys.map(
    (key) =>
      html`<div data-outcome="${key}"><span class="swatch o-${key}"></span>${outcomeLabels[key]}<b>${number(outcomes[key].count)}</b><span class="muted">${percent(outcomes[key].share)} of users</span></div>`,
  )}</div>`;
}

function errorReasons(report: PopulationReport): Html | undefined {
  if (report.errorReasons.length === 0) return undefined;
  return html`<table id="error-reasons"><tr><th>Why users see the error screen</th><th class="n">Users</th><th class="n">Share</th></tr>
${report.errorReasons.map((r) => html`<tr><td>${r.reason}</td><td class="n">${number(r.count)}</td><td class="n">${percent(r.share)}</td></tr>`)}</table>`;
}

const changes = (alternative: Alternative) =>
  outcomeKeys
    .filter((key) => alternative.outcomes[key].change !== 0)
    .map(
      (key) =>
        html`<span class="chip ${alternative.outcomes[key].change > 0 === (key === 'error-screen' || key === 'typed-at-sign-on') ? 'worse' : 'better'}">${outcomeLabels[key]} ${signed(alternative.outcomes[key].change)}</span>`,
    );

/** Settings that would move many users, under the chart: a partner should not have to scroll to learn of them. */
function settingsMatter(report: PopulationReport): Html | undefined {
  const many = report.alternatives.filter((alternative) => alternative.changesMany);
  if (many.length === 0) return undefined;
  return html`<div class="callout" id="settings-matter"><h2>The settings change many outcomes</h2><ul>${many.map(
    (a) => html`<li>If <code>${a.setting}</code> were <code>${String(a.value)}</code> (${settingMeaning[a.setting](a.value)}): ${changes(a)}</li>`,
  )}</ul></div>`;
}

function fix(rule: RuleFix): Html {
  const rare = rule.rareShapes > 0 ? html` <span class="muted">and ${plural(rule.rareShapes, 'user')} with rarer shapes, not shown</span>` : '';
  const other = rule.otherShapes > 0 ? html` <span class="muted">and ${plural(rule.otherShapes, 'user')} with other shapes</span>` : '';
  return html`<li class="${rule.failed > 0 ? 'failed' : 'warned'}" data-rule="${rule.rule}"><div class="fix-head"><code>${rule.rule}</code>: <b>${number(rule.users)}</b> users (${percent(rule.share)})
<span class="muted">${number(rule.failed)} failed, ${number(rule.warned)} warned${rule.alone > 0 ? `; fixed alone, it lets ${plural(rule.alone, 'user')} in` : ''}</span></div><div class="meter"><span style="${widthOf(rule.share, 1)}"></span></div>
${rule.codes.length > 0 ? html`<div>Problems: ${rule.codes.map((c) => html`<span class="chip"><code>${c.code}</code> ${number(c.count)}</span>`)}</div>` : ''}
${rule.advice.length > 0 ? html`<ul class="advice">${rule.advice.map((a) => html`<li><strong>${a.text}</strong> <span class="muted">(${a.code}, given to ${plural(a.count, 'user')})</span></li>`)}${rule.otherAdvice > 0 ? html`<li class="muted">and ${plural(rule.otherAdvice, 'user')} given other advice, each given to too few users to show</li>` : ''}</ul>` : ''}
${rule.shapes.length > 0 || rule.rareShapes > 0 ? html`<div class="shapes">Example shapes: ${rule.shapes.map((s) => html`<span class="chip"><code>${s.shape}</code> × ${number(s.count)}</span>`)}${other}${rare}</div>` : ''}</li>`;
}

function fixFirst(report: PopulationReport): Html {
  if (report.fixFirst.length === 0) return html`<p>Nothing: no rule failed or warned for any user.</p>`;
  const more = report.fixFirst.length - fixesShown;
  return html`<ol class="fixes">${report.fixFirst.slice(0, fixesShown).map(fix)}</ol>${more > 0 ? html`<p class="muted">and ${plural(more, 'rule')} more, in population.json</p>` : ''}`;
}

function typedFields({ typedFields }: PopulationReport): Html {
  if (typedFields.length === 0) return html`<p>Nobody types anything at sign-on.</p>`;
  const most = Math.max(...typedFields.map((row) => row.count));
  return html`<div class="hist" id="typed-fields">${typedFields.map(
    (row) =>
      html`<span>${plural(row.fields, 'field')}</span><span class="bar"><span style="${widthOf(row.count, most)}"></span></span><span class="n">${number(row.count)} users (${percent(row.share)})</span>`,
  )}</div>`;
}

function alternative(report: PopulationReport, a: Alternative): Html {
  return html`<div class="alt${a.changesMany ? ' many' : ''}" data-setting="${a.setting}"><h3>If <code>${a.setting}</code> were <code>${String(a.value)}</code>${a.changesMany ? html` <strong class="chip">changes many users</strong>` : ''}</h3>
<p class="muted">${settingMeaning[a.setting](a.value)}</p><table><tr><th>Outcome</th><th class="n">Now</th><th class="n">Then</th><th class="n">Change</th></tr>
${outcomeKeys.map((key) => html`<tr><td><span class="swatch o-${key}"></span>${outcomeLabels[key]}</td><td class="n">${number(report.outcomes[key].count)}</td><td class="n">${number(a.outcomes[key].count)} (${percent(a.outcomes[key].share)})</td><td class="n">${signed(a.outcomes[key].change)}</td></tr>`)}</table></div>`;
}

function beforePayment({ beforePayment: before }: PopulationReport): Html {
  if (before.users.count === 0) return html`<p>Nobody is asked for a field before their first payment.</p>`;
  return html`<p><b>${number(before.users.count)}</b> users (${percent(before.users.share)}) get in and are asked for no** fields before their first payment.</p>
<table id="before-payment"><tr><th>Field</th><th class="n">Users</th><th class="n">Share</th></tr>${before.fields.map((f) => html`<tr><td><code>${f.field}</code></td><td class="n">${number(f.count)}</td><td class="n">${percent(f.share)}</td></tr>`)}</table>`;
}

function unreadable({ input }: PopulationReport): Html {
  const problems =
    input.problems.length + input.notes.length > 0
      ? html`<ul id="input-problems">${[...input.problems, ...input.notes].map((p) => html`<li>${p}</li>`)}</ul>`
      : '';
  if (input.unreadable.length === 0) return html`${problems}<p>Every record was read.</p>`;
  return html`${problems}<table id="unreadable"><tr><th>Problem</th><th class="n">Records</th><th>Lines</th></tr>
${input.unreadable.map((u) => html`<tr><td>${u.problem}</td><td class="n">${number(u.count)}</td><td>${u.lines.join(', ')}${u.count > u.lines.length ? ' …' : ''}</td></tr>`)}</table>`;
}

function settingOrigin(report: PopulationReport, name: keyof PopulationReport['settings']): string {
  // Spec §7.2: a setting of the platform's, which it is configured with for the partner.
  if (name === 'collectMissingAccountInfo') return "the platform's configuration for the partner (spec §7.2): ask the integration team";
  if (name === 'date') return 'the run date: ages are judged on it';
  return report.notEmulatorDefaults.includes(name) ? "not the emulator's default" : "the emulator's default";
}

function settings(report: PopulationReport): Html {
  const names = Object.keys(report.settings) as (keyof PopulationReport['settings'])[];
  return html`<table id="settings"><tr><th>Setting</th><th>Value</th><th>Default?</th></tr>
${names.map((name) => html`<tr><td><code>${name}</code></td><td><code>${String(report.settings[name])}</code></td><td>${settingOrigin(report, name)}</td></tr>`)}</table>`;
}
const fundingLabels: Record<keyof NonNullable<PopulationReport['funding']>['outcomes'], string> = {
  'all-usable': 'can pay from every source listed',
  'some-unusable': 'can pay from some sources: others are refused',
  'none-usable': 'can pay from none of the sources listed',
  'no-sources': 'list no source',
};

function funding({ funding: answers }: PopulationReport): Html | undefined {
  if (!answers) return undefined;
  const rows = Object.entries(answers.outcomes).map(
    ([key, { count, share }]) =>
      html`<tr><td>${fundingLabels[key as keyof typeof fundingLabels]}</td><td class="n">${number(count)}</td><td class="n">${percent(share)}</td></tr>`,
  );
  const more = answers.fixFirst.length - fixesShown;
  return html`<section id="funding"><h2>Can your users pay? Their funding sources</h2>
<p>${plural(answers.input.payloads, 'answer')} judged; ${number(answers.unusableSources)} of ${plural(answers.sources, 'source')} are refused and never added (spec §2.4).</p>
<table><thead><tr><th>Users who</th><th class="n">Users</th><th class="n">Share</th></tr></thead><tbody>${rows}</tbody></table>
${answers.fixFirst.length > 0 ? html`<ol class="fixes">${answers.fixFirst.slice(0, fixesShown).map(fix)}</ol>` : ''}${more > 0 ? html`<p class="muted">and ${plural(more, 'rule')} more, in population.json</p>` : ''}</section>`;
}

export function populationHtml(report: PopulationReport): string {
  const { outcomes, input } = report;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>How will your users fare? partner-certify population</title>${styleSheet(style)}</head><body>
<h1>How will your users fare?</h1>
<p class="lede"><strong>${percent(outcomes['signs-in'].share)}</strong> of ${plural(input.payloads, 'user')} sign in with nothing asked; <strong>${percent(outcomes['error-screen'].share)}</strong> see the error screen.</p>
${report.records === undefined ? '' : html`<p class="callout" id="records">Which users: <code>${report.records}</code>, a row a record with its outcome and the rules that decided it. It holds your users' ids: it is for you alone, never to be shared with this report.</p>`}
<section id="outcomes">${outcomeBar(report)}${legend(report)}${errorReasons(report)}</section>
${settingsMatter(report)}
${comparisonHtml(report)}
${sharedIdsHtml(report)}
${fixPlanHtml(report)}
<section id="fix-first"><h2>Fix these first</h2>${fixFirst(report)}</section>
<section id="typed"><h2>How many fields users type at sign-on</h2>${typedFields(report)}</section>
<section id="alternatives"><h2>If the settings were the other way</h2>${report.alternatives.map((a) => alternative(report, a))}</section>
<section id="before-payment-section"><h2>Asked before the first payment</h2>${beforePayment(report)}</section>
${funding(report)}
<section id="input"><h2>Unreadable records</h2>${unreadable(report)}</section>
<section id="settings-section"><h2>The settings used</h2>${settings(report)}</section>
<footer class="muted" id="privacy">Examples are shapes, never values: letters become A/a, digits #; a shape is shown only when at least ${report.k} people share it, counted by user.id (a record without one counts as a person of its own), never by records.</footer>
</body></html>`.text;
}

/** Where the records file is, and that it is not to be shared (a shard says it too). */
export const recordsLine = (file: string) => `Records: ${file} (each record's outcome and deciding rules, with your users' ids: for you alone, never to share)`;

/** What `partner-certify population` prints when it is done: plain lines, so a CI log or a pipe reads them as is. */

const fixesPrinted = 3;

const outcomeLines = ({ outcomes }: PopulationReport) => {
  const width = Math.max(...outcomeKeys.map((key) => outcomeLabels[key].length));
  const countWidth = Math.max(...outcomeKeys.map((key) => number(outcomes[key].count).length));
  return outcomeKeys.map(
    (key) => `  ${outcomeLabels[key].padEnd(width)}  ${number(outcomes[key].count).padStart(countWidth)}  ${percent(outcomes[key].share).padStart(6)}`,
  );
};

const fixLine = (fix: RuleFix, i: number) => {
  const advice = fix.advice[0] ? `: ${fix.advice[0].text}` : '';
  return `  ${i + 1}. ${fix.rule}, ${number(fix.users)} users (${percent(fix.share)}; ${number(fix.failed)} failed, ${number(fix.warned)} warned)${advice}`;
};

const alternativeLines = (report: PopulationReport) =>
  report.alternatives
    .filter((a) => a.changesMany)
    .map((a) => {
      const error = a.outcomes['error-screen'].change;
      return `If ${a.setting} were ${String(a.value)} (this run: ${String(report.settings[a.setting])}), ${settingMeaning[a.setting](a.value)}: ${error === 0 ? 'the same users see the error screen' : `${number(Math.abs(error))} ${error < 0 ? 'fewer' : 'more'} users see the error screen`} (see the report).`;
    });

/** The answers a SHOULD rule warned about (an 8-digit routing number): they can pay, and will likely see the payment returned. */
function fundingWarnings(funding: NonNullable<PopulationReport['funding']>): string {
  const warned = funding.fixFirst.filter((fix) => fix.warned > 0).sort((a, b) => b.warned - a.warned);
  if (warned.length === 0) return '';
  return `; ${number(warned[0]!.warned)} answers warned by ${warned[0]!.rule}${warned.length > 1 ? ` (and ${plural(warned.length - 1, 'rule')} more)` : ''}: see the report`;
}

const inputLines = ({ input }: PopulationReport) => {
  const unreadable = input.unreadable.reduce((sum, u) => sum + u.count, 0);
  return [
    ...(unreadable > 0 ? [`Unreadable records: ${number(unreadable)} (their first lines are in the report).`] : []),
    ...input.problems.map((problem) => `Input cut short: ${problem}`),
    ...input.notes.map((note) => `Not read: ${note}`),
  ];
};

export function populationConsole(report: PopulationReport, files: { html: string; json: string }): string {
  const fixes = report.fixFirst.slice(0, fixesPrinted);
  return [
    `How will your users fare? ${number(report.input.payloads)} account-information payloads judged.`,
    ...outcomeLines(report),
    ...(fixes.length > 0 ? ['Fix these first:', ...fixes.map(fixLine)] : ['Fix these first: nothing, no rule failed or warned.']),
    ...(report.comparison ? comparisonLines(report.comparison) : []),
    ...fixPlanLines(report),
    ...[sharedIdsWords(report)].filter((line) => line !== undefined).map((line) => `${line}.`),
    ...alternativeLines(report),
    ...inputLines(report),
    ...(report.funding
      ? [
          `Funding sources: ${number(report.funding.outcomes['all-usable'].count)} of ${plural(report.funding.input.payloads, 'answer')} can pay from every source; ${number(report.funding.unusableSources)} sources are refused${fundingWarnings(report.funding)}.`,
        ]
      : []),
    `Report: ${files.html}`,
    `JSON:   ${files.json}`,
    ...(report.records === undefined ? [] : [recordsLine(report.records)]),
  ].join('\n');
}

import { html, type Html } from '../html/template';
import type { PopulationComparison } from './compare';
import type { PopulationReport } from './report-schema';
import { number, signed } from './report-words';

/** This export against the last (population/compare.ts), in the page and on the console. */

const outcomeWords: Record<PopulationComparison['outcomes'][number]['outcome'], string> = {
  'signs-in': 'sign in, nothing asked',
  'asked-before-payment': 'asked before the first payment',
  'typed-at-sign-on': 'type fields at sign-on',
  'error-screen': 'see the error screen',
};
const points = (share: number) => `${share > 0 ? '+' : share < 0 ? '−' : '±'}${Math.abs(share * 100).toFixed(1)} points`;

/** Settings that differ between the two reports: what moved is partly theirs. */
const settingsWords = ({ settingsChanged }: PopulationComparison) =>
  `judged with other settings (${settingsChanged.map((row) => `${row.setting} ${row.before}, now ${row.after}`).join('; ')}): part of what moved is the settings', not the export's`;

export function comparisonLines(comparison: PopulationComparison): string[] {
  return [
    `Since the report of ${comparison.before.date} (${number(comparison.before.payloads)} payloads):`,
    ...comparison.outcomes.map(
      (row) => `  ${outcomeWords[row.outcome]}: ${number(row.before)} → ${number(row.after)} (${signed(row.change)}, ${points(row.shareChange)})`,
    ),
    ...(comparison.rules.length === 0
      ? ['  no rule moved']
      : comparison.rules.slice(0, 5).map((row) => `  ${row.rule}: ${number(row.before)} → ${number(row.after)} users (${signed(row.change)})`)),
    ...(comparison.rules.length > 5 ? [`  and ${comparison.rules.length - 5} rules more (the report)`] : []),
    ...(comparison.settingsChanged.length > 0 ? [`  ${settingsWords(comparison)}`] : []),
  ];
}

export function comparisonHtml({ comparison }: PopulationReport): Html | string {
  if (!comparison) return '';
  return html`<section id="comparison"><h2>Since the report of ${comparison.before.date}</h2>
${comparison.settingsChanged.length > 0 ? html`<p>${settingsWords(comparison)}</p>` : ''}
<table><tr><th>Outcome</th><th class="n">Then</th><th class="n">Now</th><th class="n">Change</th></tr>${comparison.outcomes.map(
    (row) =>
      html`<tr><td>${outcomeWords[row.outcome]}</td><td class="n">${number(row.before)}</td><td class="n">${number(row.after)}</td><td class="n">${signed(row.change)} (${points(row.shareChange)})</td></tr>`,
  )}</table>
${comparison.rules.length > 0 ? html`<table id="rules-moved"><tr><th>Rule</th><th class="n">Users then</th><th class="n">Now</th><th class="n">Change</th></tr>${comparison.rules.map((row) => html`<tr><td><code>${row.rule}</code></td><td class="n">${number(row.before)}</td><td class="n">${number(row.after)}</td><td class="n">${signed(row.change)}</td></tr>`)}</table>` : html`<p>No rule moved.</p>`}</section>`;
}

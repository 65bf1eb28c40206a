import { html, type Html } from '../html/template';
import type { PopulationReport } from './report-schema';
import { number, percent, plural } from './report-words';

/** What each fix gains (population/fix-gains.ts), in the page and on the console: the plan, and who it leaves out. */

const leftOutWords = ({ fixPlan }: PopulationReport) =>
  [
    fixPlan.severalRules > 0
      ? `${plural(fixPlan.severalRules, 'user')} at the error screen need two or more fixes, counted at the step that completes them`
      : '',
    fixPlan.leftOut > 0 ? `${plural(fixPlan.leftOut, 'user')} still need rules past these steps` : '',
    fixPlan.uncounted > 0 ? `${plural(fixPlan.uncounted, 'user')} had a set of rules past the bound kept, so each figure may be short by as many` : '',
  ].filter(Boolean);

/** account-info/user.id/unique: records that share an id, and what the platform does with them. */
export function sharedIdsWords({ sharedIds }: PopulationReport): string | undefined {
  const across = sharedIds.estimatedRepeats - sharedIds.repeats > sharedIds.margin;
  // Counted from an estimate (shards merged, or past 4,000,000 ids) that finds nothing beyond its error: not ruled out.
  if (sharedIds.repeats === 0 && !across && !sharedIds.exact)
    return `account-info/user.id/unique not checked exactly: no record shares its user.id with another of its shard, and the estimate of ids shared across shards (about ${plural(sharedIds.estimatedRepeats, 'record')}, ±${number(sharedIds.margin)}) is within its error, so repeats across shards are not ruled out; judge the export in one run to count them exactly`;
  if (sharedIds.repeats === 0 && !across) return undefined;
  const how = sharedIds.exact
    ? `${plural(sharedIds.repeats, 'record')} share their user.id with an earlier record (${plural(sharedIds.sharedIds, 'id')} shared)`
    : across
      ? `about ${plural(sharedIds.estimatedRepeats, 'record')} share their user.id with another record (estimated across shards, ±${number(sharedIds.margin)})`
      : `at least ${plural(sharedIds.repeats, 'record')} share their user.id with another record of the same shard (across shards, no more than the estimate's error)`;
  return `account-info/user.id/unique failed: ${how}. The platform keys each account by user.id (spec §2.3: it must identify one user), so these sign into the account of the record before them, whatever their outcome above; send an id unique to each user, or drop the repeated records from the export if they are the same person`;
}

export function sharedIdsHtml(report: PopulationReport): Html | string {
  const words = sharedIdsWords(report);
  return words ? html`<p class="callout" id="shared-ids">${words}.</p>` : '';
}

export function fixPlanHtml(report: PopulationReport): Html | string {
  const { steps } = report.fixPlan;
  if (steps.length === 0) return '';
  let total = 0;
  return html`<section id="fix-plan"><h2>What each fix gains</h2><p>Users at the error screen get in once every rule that sent them there is fixed. In this order, each fix lets in the most users not yet in:</p>
<ol class="plan">${steps.map((step) => {
    total += step.users;
    return html`<li data-rule="${step.rule}"><code>${step.rule}</code>: <b>+${number(step.users)}</b> users in (${percent(step.share)}) <span class="muted">${number(total)} in all</span></li>`;
  })}</ol>${leftOutWords(report).map((line) => html`<p class="muted">${line}.</p>`)}</section>`;
}

export function fixPlanLines(report: PopulationReport): string[] {
  const { steps } = report.fixPlan;
  if (steps.length === 0) return [];
  return [
    `What each fix gains, in order: ${steps
      .slice(0, 5)
      .map((step, i) => `${i + 1}. ${step.rule} (+${number(step.users)} users in)`)
      .join(', ')}${steps.length > 5 ? ', … (the report)' : ''}.`,
    ...leftOutWords(report).map((line) => `  ${line}.`),
  ];
}

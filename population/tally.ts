import { accountInfoFieldRules } from '../checks/account-info';
import { fundingSourceRules } from '../checks/funding-sources';
import type { Issue } from '../checks/finding';
import { shown, type Located, type Payload } from '../checks/payload';
import { jsonType } from '../checks/evidence';
import { remembered } from '../checks/remembered';
import type { RuleProblem } from './judge';
import { userOutcome, type OutcomeSettings } from './outcome';
import { shapeOf } from './shape';
import {
  alternativeSettings,
  fundingKeys,
  otherWay,
  outcomeKeys,
  type AlternativeSetting,
  type FundingSummary,
  type OutcomeCounts,
  type PopulationSummary,
  type RuleTally,
  type Settings,
} from './summary-schema';

/** A population's counts as its users are judged: every count a sum, so parts add up (population/merge.ts). */

export const noOutcomes = (): OutcomeCounts => Object.fromEntries(outcomeKeys.map((key) => [key, 0])) as OutcomeCounts;

export function emptySummary(settings: Settings): PopulationSummary {
  return {
    version: 1,
    settings,
    parts: 1,
    input: emptyInput(),
    outcomes: noOutcomes(),
    errorReasons: {},
    typedFields: {},
    beforePayment: {},
    alternatives: Object.fromEntries(alternativeSettings.map((setting) => [setting, noOutcomes()])) as PopulationSummary['alternatives'],
    rules: {},
  };
}

/** Line numbers kept per problem of an unreadable record: the report names the first ones, and counts them all. */
export const linesKept = 20;
/** Shapes and advice texts kept per rule: past these, a new one is counted under `…`, so memory is bounded whatever the input. */
const shapesKept = 2000;
const adviceKept = 32;

export const bump = (counts: Record<string, number>, key: string, by = 1) => void (counts[key] = (counts[key] ?? 0) + by);

export function addUnreadable(input: PopulationSummary['input'], problem: string, line: number): void {
  bump(input.unreadable, problem);
  const lines = (input.unreadableLines[problem] ??= []);
  if (lines.length < linesKept) lines.push(line);
}

export const emptyInput = (): PopulationSummary['input'] => ({ payloads: 0, unreadable: {}, unreadableLines: {}, problems: [] });
export const emptyFunding = (): FundingSummary => ({
  input: emptyInput(),
  outcomes: Object.fromEntries(fundingKeys.map((key) => [key, 0])) as FundingSummary['outcomes'],
  sources: 0,
  unusableSources: 0,
  rules: {},
});

/**
 * Adds one user's funding-sources answer: the sources a failed rule names by index cannot be added (spec §2.4); a
 * list that is missing, not a list, or fails as a whole, none.
 */
export function addFundingAnswer(funding: FundingSummary, payload: Payload, problems: readonly RuleProblem[]): void {
  funding.input.payloads++;
  const listed = Array.isArray(payload.fundingSources) ? payload.fundingSources.length : 0;
  const unusable = new Set<number>();
  let wholeList = !Array.isArray(payload.fundingSources);
  for (const { issues } of problems) {
    for (const { issue, outcome } of issues) {
      if (outcome !== 'failed') continue;
      const index = /^fundingSources\[(\d+)\]/.exec(issue.field ?? '');
      if (index) unusable.add(Number(index[1]));
      else wholeList = true;
    }
  }
  const refused = wholeList ? listed : unusable.size;
  funding.sources += listed;
  funding.unusableSources += refused;
  const outcome =
    wholeList && listed === 0 ? 'none-usable' : listed === 0 ? 'no-sources' : refused === 0 ? 'all-usable' : refused < listed ? 'some-unusable' : 'none-usable';
  funding.outcomes[outcome]++;
  for (const problem of problems) tallyRule(funding.rules, problem);
}

/**
 * Whose values never become shapes, not even a count of one: ids, e-mail addresses, bank routing numbers and the last 4
 * digits of an account, and the fields messages show by their last 4 (tax ids, bank account numbers).
 */
const privatePaths = /(^|\.)(id|email|bankRoutingNumber|accountNumberLast4Digits)$/;
const isPrivate = (problem: RuleProblem) => problem.rule.subject.sensitive === true || privatePaths.test(problem.rule.subject.path);

/** The settings with each one the other way: made once per summary, not per user. */
const variantsMade = new WeakMap<Settings, [AlternativeSetting, OutcomeSettings][]>();
function variantsOf(settings: Settings): [AlternativeSetting, OutcomeSettings][] {
  let variants = variantsMade.get(settings);
  if (!variants)
    variantsMade.set(settings, (variants = alternativeSettings.map((setting) => [setting, { ...settings, [setting]: otherWay(setting, settings) }])));
  return variants;
}

/** Adds one user's payload, judged, to the summary. */
export function addUser(summary: PopulationSummary, problems: readonly RuleProblem[]): void {
  const settings = summary.settings;
  summary.input.payloads++;
  if (problems.length === 0) {
    // Nothing found: the user signs in, whatever the settings (most users, so said at once).
    summary.outcomes['signs-in']++;
    for (const [setting] of variantsOf(settings)) summary.alternatives[setting]['signs-in']++;
    return;
  }
  const user = userOutcome(problems, settings);
  summary.outcomes[user.outcome]++;
  if (user.reason) bump(summary.errorReasons, user.reason);
  if (user.typed > 0) bump(summary.typedFields, String(user.typed));
  if (user.beforePayment.length > 0) bump(summary.beforePayment, 'users');
  for (const path of user.beforePayment) bump(summary.beforePayment, path);
  for (const [setting, variant] of variantsOf(settings)) summary.alternatives[setting][userOutcome(problems, variant).outcome]++;
  for (const problem of problems) tallyRule(summary.rules, problem);
}

function tallyRule(rules: PopulationSummary['rules'], problem: RuleProblem): void {
  const failed = problem.issues.some(({ outcome }) => outcome === 'failed');
  if (!failed && !problem.issues.some(({ outcome }) => outcome === 'warning')) return;
  const tally: RuleTally = (rules[problem.rule.id] ??= { failed: 0, warned: 0, codes: {}, shapes: {}, advice: {} });
  if (failed) tally.failed++;
  else tally.warned++;
  const codes = new Set<string>();
  const shapes = new Set<string>();
  for (const { issue } of problem.issues) {
    if (!codes.has(issue.code)) {
      codes.add(issue.code);
      const advice = (tally.advice[issue.code] ??= {});
      const text = adviceOf(problem, issue);
      if (text in advice || Object.keys(advice).length < adviceKept) bump(advice, text);
    }
    if (issue.field !== undefined && !isPrivate(problem)) {
      const value = valueAt(problem, issue.field);
      if (value !== undefined) shapes.add(typeof value === 'string' ? shapeOf(value) : `(${jsonType(value)})`);
    }
  }
  for (const code of codes) bump(tally.codes, code);
  for (const shape of shapes) bump(tally.shapes, shape in tally.shapes || Object.keys(tally.shapes).length < shapesKept ? shape : '…');
}

const valueAt = ({ where }: RuleProblem, field: string): unknown =>
  'found' in where ? where.found.find((located: Located) => located.field === field)?.value : undefined;

/**
 * The certification's message as advice that holds none of the user's values, so that users given the same advice
 * count together: the value it quotes (`"user.lastName" is "O'Brien"; …`, checks/payload.ts shown) becomes `…`, any
 * other quoted text longer than 3 characters its shape (a business type no one expected), every digit outside the
 * harness's names `#` (an age, a count of digits, the run's date). What stays of a value is a character a rule refuses.
 */
export function adviceOf(problem: RuleProblem, issue: Issue): string {
  const value = issue.field === undefined ? undefined : valueAt(problem, issue.field);
  const message = value === undefined ? issue.message : issue.message.split(shown(problem.rule.subject, value)).join('…');
  // A message that quoted no value (a field missing) is the same for every user it is given to: made into advice once.
  return remembered(advised, 10_000, message, () =>
    // Quoted texts and the rest in turn (quotes pair up from the left, as the messages write them).
    message.replace(/"((?:[^"\\]|\\.)*)"|[^"]+/g, (part, quoted: string | undefined) => {
      if (quoted === undefined) return part.replace(/\d/g, '#');
      if (harnessNames.has(quoted) || quoted === issue.field) return part;
      return `"${quoted.length <= 3 ? quoted.replace(/\d/g, '#') : shapeOf(quoted)}"`;
    }),
  );
}
const advised = new Map<string, string>();

/** The names messages quote that are the harness's: field paths, the profile's setting, and the values the rules' schemas name (enums). */
const stringsIn = (node: unknown): string[] =>
  typeof node === 'string' ? [node] : node && typeof node === 'object' ? Object.values(node).flatMap(stringsIn) : [];
const harnessNames = new Set([
  ...[...accountInfoFieldRules, ...fundingSourceRules].flatMap((rule) => [rule.field, ...stringsIn(rule.schema?.fragment)]),
  'collectMissingAccountInfo',
]);

import { accountInfoFieldRules } from '../checks/account-info';
import { fundingSourceRules } from '../checks/funding-sources';
import type { Finding } from '../checks/finding';
import type { Payload, PayloadRule } from '../checks/payload';
import { valueAt } from '../checks/paths';
import { jsonType } from '../checks/evidence';
import { decideSignOn, type SignOnDecision, type SignOnSettings } from '../checks/sign-on-decision';
import { shapeOf } from './shape';
import { addCauses } from './fix-gains';
import { keep, noneKept } from './kept';
import { mixed, noSharedIds } from './shared-ids';
import {
  alternativeSettings,
  fundingKeys,
  otherWay,
  outcomeKeys,
  type AlternativeSetting,
  type FundingSummary,
  type OutcomeCounts,
  type OutcomeKey,
  type PopulationSummary,
  type RuleTally,
  type Settings,
} from './summary-schema';

/**
 * A population's counts as its users are judged: every count a sum, so parts add up (population/merge.ts). Each user
 * comes with what the certification's field rules found on their payload (evaluateAll's problems only, in the order of
 * the rules), and meets the platform's decision at sign-on (checks/sign-on-decision.ts) under the run's settings.
 */

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
    causes: {},
    causesUncounted: 0,
    sharedIds: noSharedIds(),
    seen: { bytes: 0, lines: 0, digest: '' },
  };
}

/** Line numbers kept per problem of an unreadable record: the report names the first ones, and counts them all. */
export const linesKept = 20;
/** Shapes kept per rule, advice texts per problem code (population/kept.ts): memory is bounded whatever the input. */
export const shapesKept = 2000;
export const adviceKept = 2000;

export const bump = (counts: Record<string, number>, key: string, by = 1) => void (counts[key] = (counts[key] ?? 0) + by);

export function addUnreadable(input: PopulationSummary['input'], problem: string, line: number): void {
  bump(input.unreadable, problem);
  const lines = (input.unreadableLines[problem] ??= []);
  if (lines.length < linesKept) lines.push(line);
}

export const emptyInput = (): PopulationSummary['input'] => ({ payloads: 0, unreadable: {}, unreadableLines: {}, problems: [], notes: [] });
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
export function addFundingAnswer(funding: FundingSummary, payload: Payload, problems: readonly Finding[], person: number): void {
  funding.input.payloads++;
  const listed = Array.isArray(payload.fundingSources) ? payload.fundingSources.length : 0;
  const unusable = new Set<number>();
  let wholeList = !Array.isArray(payload.fundingSources);
  for (const { outcome, field } of problems) {
    if (outcome !== 'failed') continue;
    const index = /^fundingSources\[(\d+)\]/.exec(field);
    if (index) unusable.add(Number(index[1]));
    else wholeList = true;
  }
  const refused = wholeList ? listed : unusable.size;
  funding.sources += listed;
  funding.unusableSources += refused;
  const outcome =
    wholeList && listed === 0 ? 'none-usable' : listed === 0 ? 'no-sources' : refused === 0 ? 'all-usable' : refused < listed ? 'some-unusable' : 'none-usable';
  funding.outcomes[outcome]++;
  tallyRules(funding.rules, payload, problems, person);
}

/**
 * Whose values never become shapes, not even a count of one: ids, e-mail addresses, bank routing numbers and the last 4
 * digits of an account, and the fields messages show by their last 4 (tax ids, bank account numbers).
 */
const privatePaths = /(^|\.)(id|email|bankRoutingNumber|accountNumberLast4Digits)$/;
const isPrivate = (rule: PayloadRule) => rule.subject.sensitive === true || privatePaths.test(rule.subject.path);

/** The settings with each one the other way: made once per summary, not per user. */
const variantsMade = new WeakMap<Settings, [AlternativeSetting, SignOnSettings][]>();
function variantsOf(settings: Settings): [AlternativeSetting, SignOnSettings][] {
  let variants = variantsMade.get(settings);
  if (!variants)
    variantsMade.set(settings, (variants = alternativeSettings.map((setting) => [setting, { ...settings, [setting]: otherWay(setting, settings) }])));
  return variants;
}

/** The rules of the findings that sent a user to the error screen, each once (a rule's findings come one after another). */
function causesKey(problems: readonly Finding[]): string {
  let key = problems[0]?.rule ?? '';
  for (let i = 1; i < problems.length; i++) if (problems[i]!.rule !== problems[i - 1]!.rule) key += ` ${problems[i]!.rule}`;
  return key;
}

/**
 * Who a record is, for k: the same user.id (or, in a funding answer, userId) is the same person however often it is
 * exported; a record without one is a person of its own, by its line. A 52-bit hash, which JSON carries exactly:
 * only ever compared, within a sealed summary.
 */
export function personOf(payload: Payload, line: number): number {
  const user = payload.user;
  const id = typeof user === 'object' && user !== null ? (user as Record<string, unknown>).id : payload.userId;
  // An id that is no string (a number, an object) is still the same person wherever it is repeated: by its JSON text.
  const text = typeof id === 'string' ? id : id === undefined || id === null ? '' : (JSON.stringify(id) ?? '');
  const key = text !== '' ? `${typeof id === 'string' ? 'u' : 'j'}${text}` : `r${line}`;
  let [a, b] = [0x811c9dc5, 0x9747b28c];
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (mixed(a) >>> 0) * 0x100000 + ((mixed(b) >>> 0) & 0xfffff);
}

/** The outcome a user meets: the decision's screen, and for one who gets in whether a no** field is asked for. */
export const outcomeOf = (decision: SignOnDecision): OutcomeKey =>
  decision.screen === 'error'
    ? 'error-screen'
    : decision.screen === 'collect'
      ? 'typed-at-sign-on'
      : decision.beforePayment.length > 0
        ? 'asked-before-payment'
        : 'signs-in';

/**
 * Adds one user's account information, judged (evaluateAll's problems only, under the summary's collectMissingAccountInfo);
 * `person` is who they are (personOf), so that k counts people, not records.
 */
export function addUser(summary: PopulationSummary, payload: Payload, problems: readonly Finding[], person: number): OutcomeKey {
  const settings = summary.settings;
  summary.input.payloads++;
  const decision = decideSignOn(problems, settings);
  const outcome = outcomeOf(decision);
  summary.outcomes[outcome]++;
  if (decision.screen === 'error') {
    bump(summary.errorReasons, decision.reason);
    addCauses(summary, causesKey(decision.problems));
  } else {
    if (decision.screen === 'collect') bump(summary.typedFields, String(decision.fields.length));
    if (decision.beforePayment.length > 0) bump(summary.beforePayment, 'users');
    for (const path of decision.beforePayment) bump(summary.beforePayment, path);
  }
  for (const [setting, variant] of variantsOf(settings)) summary.alternatives[setting][outcomeOf(decideSignOn(problems, variant))]++;
  tallyRules(summary.rules, payload, problems, person);
  return outcome;
}

const fieldRules = new Map([...accountInfoFieldRules, ...fundingSourceRules].map((rule) => [rule.id, rule]));

const counted = (finding: Finding) => finding.outcome === 'failed' || finding.outcome === 'warning';

/** Each rule that failed or warned counted once per user (its findings come one after another); notes are not counted. */
function tallyRules(rules: PopulationSummary['rules'], payload: Payload, problems: readonly Finding[], person: number): void {
  for (let start = 0, end = 0; start < problems.length; start = end) {
    let anyCounted = false;
    while (end < problems.length && problems[end]!.rule === problems[start]!.rule) anyCounted = counted(problems[end++]!) || anyCounted;
    const rule = anyCounted ? fieldRules.get(problems[start]!.rule) : undefined;
    if (rule) tallyRule(rules, rule, payload, problems.slice(start, end), person);
  }
}

function tallyRule(rules: PopulationSummary['rules'], rule: PayloadRule, payload: Payload, findings: readonly Finding[], person: number): void {
  const failed = findings.some(({ outcome }) => outcome === 'failed');
  const tally: RuleTally = (rules[rule.id] ??= { failed: 0, warned: 0, codes: {}, shapes: noneKept(), advice: {} });
  if (failed) tally.failed++;
  else tally.warned++;
  const codes = new Set<string>();
  const shapes = new Set<string>();
  for (const finding of findings) {
    if (!counted(finding)) continue;
    const code = finding.code ?? 'unnamed';
    if (!codes.has(code)) {
      codes.add(code);
      keep((tally.advice[code] ??= noneKept()), adviceOf(finding), adviceKept, person);
    }
    if (!isPrivate(rule)) {
      const value = valueAtFault(rule, finding, payload);
      if (value !== undefined) shapes.add(typeof value === 'string' ? shapeOf(value) : `(${jsonType(value)})`);
    }
  }
  for (const code of codes) bump(tally.codes, code);
  for (const shape of shapes) keep(tally.shapes, shape, shapesKept, person);
}

/** The value a rule found at fault: none for a presence rule (the value is missing), else the one at the finding's field (`fundingSources[1].nickName`). */
const valueAtFault = (rule: PayloadRule, { field }: Finding, payload: Payload): unknown =>
  rule.judges === 'presence' ? undefined : valueAt(payload, field.includes('[') ? field.replace(/\[(\d+)\]/g, '.$1') : field);

/**
 * The advice a finding gives, holding none of the user's values, so that users given the same advice count together:
 * the rule's own words as it wrote them (checks/told.ts), its numbers and lists whole (`a 10-digit US number`, `at
 * least 5`), and what came from the user's value as its shape, letters and digits of every script included (`not
 * "é"` → `not "ä"`, an age → `##`); the value the message quotes is left out (`"user.lastName" is …; …`). A finding
 * without told words is a rule that crashed: said by that alone.
 */
export function adviceOf(finding: Finding): string {
  const parts = finding.advice;
  if (parts === undefined) return 'the rule could not judge this value; please report this harness bug';
  let advice = '';
  for (const part of parts) advice += typeof part === 'string' ? part : shapeOf(part.said);
  return advice;
}

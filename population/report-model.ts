import { distinctEstimate, relativeError } from './shared-ids';
import type { Kept } from './kept';
import { fixGains } from './fix-gains';
import {
  alternativeSettings,
  emulatorSettings,
  otherWay,
  type AlternativeSetting,
  fundingKeys,
  outcomeKeys,
  type FundingSummary,
  type OutcomeCounts,
  type PopulationSummary,
  type RuleTally,
  type Settings,
} from './summary-schema';
import { emulatorChoices, maxCodes, maxLines, maxShapes, type Alternative, type PopulationReport, type RuleFix } from './report-schema';

function sharedIdsOf(ids: PopulationSummary['sharedIds']): PopulationReport['sharedIds'] {
  const distinct = distinctEstimate(ids);
  return {
    records: ids.records,
    repeats: ids.repeats,
    sharedIds: ids.sharedIds,
    exact: ids.exact,
    estimatedRepeats: ids.exact ? ids.repeats : Math.max(ids.repeats, ids.records - distinct),
    margin: ids.exact ? 0 : Math.ceil(3 * relativeError * distinct),
  };
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Non-zero counts, most first, ties by key: the same order on every run. */
/**
 * Keys by count, most first. With `people` (a kept table's), a count is never below the people its key is known to
 * stand for: a kept count may be short by up to `off` (population/kept.ts), while each of those people was counted.
 */
const ranked = (counts: Record<string, number>, people?: Kept['people']) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => ({ key, count: Math.max(n, people?.[key]?.length ?? 0) }))
    .sort((a, b) => b.count - a.count || byKey(a.key, b.key));

const sum = (items: readonly { count: number }[]) => items.reduce((total, item) => total + item.count, 0);

export const shareOf = (n: number, payloads: number) => (payloads > 0 ? Math.min(1, Math.round((n / payloads) * 10_000) / 10_000) : 0);

export const notEmulatorDefaults = (settings: Settings) => emulatorChoices.filter((key) => settings[key] !== emulatorSettings[key]);

function inputOf({ payloads, unreadable, unreadableLines, problems, notes }: PopulationSummary['input']): PopulationReport['input'] {
  return {
    payloads,
    unreadable: ranked(unreadable).map(({ key, count }) => ({
      problem: key,
      count,
      lines: [...(unreadableLines[key] ?? [])].sort((a, b) => a - b).slice(0, maxLines),
    })),
    problems,
    notes,
  };
}

const outcomesOf = (outcomes: OutcomeCounts, payloads: number) =>
  Object.fromEntries(outcomeKeys.map((key) => [key, { count: outcomes[key], share: shareOf(outcomes[key], payloads) }])) as PopulationReport['outcomes'];

function typedFieldsOf(typed: Record<string, number>, payloads: number): PopulationReport['typedFields'] {
  return ranked(typed)
    .map(({ key, count }) => ({ fields: Number(key), count, share: shareOf(count, payloads) }))
    .sort((a, b) => a.fields - b.fields);
}

function beforePaymentOf({ users = 0, ...fields }: Record<string, number>, payloads: number): PopulationReport['beforePayment'] {
  return {
    users: { count: users, share: shareOf(users, payloads) },
    fields: ranked(fields).map(({ key, count }) => ({ field: key, count, share: shareOf(count, payloads) })),
  };
}

export const movesMany = (change: number, payloads: number) => change !== 0 && (Math.abs(change) >= payloads / 100 || Math.abs(change) >= 100);

function alternativeOf(setting: AlternativeSetting, summary: PopulationSummary): Alternative {
  const payloads = summary.input.payloads;
  const then = summary.alternatives[setting];
  const changes = outcomeKeys.map((key) => then[key] - summary.outcomes[key]);
  return {
    setting,
    value: otherWay(setting, summary.settings),
    outcomes: Object.fromEntries(
      outcomeKeys.map((key, i) => [key, { count: then[key], share: shareOf(then[key], payloads), change: changes[i]! }]),
    ) as Alternative['outcomes'],
    changesMany: changes.some((change) => movesMany(change, payloads)),
  };
}

/**
 * Per problem code, the advice given to the most users (ties by text), when at least k users were given it: an
 * advice quotes the shape of the value at fault, and a rare shape is never shown.
 */
function mostGivenAdvice(advice: RuleTally['advice'], k: number): RuleFix['advice'] {
  return Object.entries(advice)
    .flatMap(([code, texts]) => {
      // At least k people were given it (population/kept.ts): a user exported twice is one.
      const top = ranked(texts.counts, texts.people).filter((text) => peopleOf(texts, text.key) >= k)[0];
      return top ? [{ code, text: top.key, count: top.count }] : [];
    })
    .sort((a, b) => b.count - a.count || byKey(a.code, b.code));
}

/** The people a key stands for, counted by their ids (population/tally.ts personOf): k counts these, never records. */
const peopleOf = (kept: Kept, key: string) => kept.people[key]?.length ?? 0;

function fixOf(rule: string, tally: RuleTally, payloads: number, k: number, alone: number): RuleFix {
  const shapes = ranked(tally.shapes.counts, tally.shapes.people);
  const common = shapes.filter((shape) => peopleOf(tally.shapes, shape.key) >= k);
  const named = common.slice(0, maxShapes);
  const users = tally.failed + tally.warned;
  const advice = mostGivenAdvice(tally.advice, k);
  return {
    rule,
    failed: tally.failed,
    warned: tally.warned,
    users,
    share: shareOf(users, payloads),
    alone,
    codes: ranked(tally.codes)
      .slice(0, maxCodes)
      .map(({ key, count }) => ({ code: key, count })),
    advice,
    otherAdvice: Math.max(0, users - advice.reduce((total, one) => total + one.count, 0)),
    shapes: named.map(({ key, count }) => ({ shape: key, count })),
    // The users the kept counts no longer hold had shapes too few users share to be kept: rare ones.
    rareShapes: sum(shapes.filter((shape) => peopleOf(tally.shapes, shape.key) < k)) + tally.shapes.lost,
    shapesOff: tally.shapes.off,
    otherShapes: sum(common.slice(maxShapes)),
  };
}

const byUsersAffected = (a: RuleFix, b: RuleFix) => b.failed - a.failed || b.warned - a.warned || byKey(a.rule, b.rule);

function fixFirstOf(rules: PopulationSummary['rules'], payloads: number, k: number, alone: Readonly<Record<string, number>> = {}): RuleFix[] {
  return Object.entries(rules)
    .filter(([, tally]) => tally.failed + tally.warned > 0)
    .map(([rule, tally]) => fixOf(rule, tally, payloads, k, alone[rule] ?? 0))
    .sort(byUsersAffected);
}

export function populationReport(summary: PopulationSummary, { k, records }: { k: number; records?: string | undefined }): PopulationReport {
  // k below 1 would name every shape, a single user's included.
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a whole number of users, at least 1: ${k}`);
  const payloads = summary.input.payloads;
  const gains = fixGains(summary.causes, summary.causesUncounted);
  return {
    ...(records === undefined ? {} : { records }),
    version: 1,
    settings: summary.settings,
    notEmulatorDefaults: notEmulatorDefaults(summary.settings),
    k,
    input: inputOf(summary.input),
    outcomes: outcomesOf(summary.outcomes, payloads),
    errorReasons: ranked(summary.errorReasons).map(({ key, count }) => ({ reason: key, count, share: shareOf(count, payloads) })),
    typedFields: typedFieldsOf(summary.typedFields, payloads),
    beforePayment: beforePaymentOf(summary.beforePayment, payloads),
    alternatives: alternativeSettings.map((setting) => alternativeOf(setting, summary)),
    fixFirst: fixFirstOf(summary.rules, payloads, k, gains.alone),
    sharedIds: sharedIdsOf(summary.sharedIds),
    fixPlan: {
      steps: gains.plan.map(({ rule, users }) => ({ rule, users, share: shareOf(users, payloads) })),
      severalRules: gains.severalRules,
      leftOut: gains.leftOut,
      uncounted: gains.uncounted,
    },
    ...(summary.funding ? { funding: fundingOf(summary.funding, k) } : {}),
  };
}

function fundingOf(funding: FundingSummary, k: number): NonNullable<PopulationReport['funding']> {
  const answers = funding.input.payloads;
  return {
    input: inputOf(funding.input),
    outcomes: Object.fromEntries(
      fundingKeys.map((key) => [key, { count: funding.outcomes[key], share: shareOf(funding.outcomes[key], answers) }]),
    ) as NonNullable<PopulationReport['funding']>['outcomes'],
    sources: funding.sources,
    unusableSources: funding.unusableSources,
    fixFirst: fixFirstOf(funding.rules, answers, k),
  };
}

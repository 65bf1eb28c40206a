import type { Kept } from './kept';
import { z } from 'zod';
import { fixGains } from './fix-gains';
import {
  alternativeSettings,
  emulatorSettings,
  otherWay,
  type AlternativeSetting,
  fundingKeys,
  outcomeKeys,
  settingsSchema,
  type FundingKey,
  type FundingSummary,
  type OutcomeCounts,
  type OutcomeKey,
  type PopulationSummary,
  type RuleTally,
  type Settings,
} from './summary-schema';

/**
 * population.json, and what population.html and the console render: a summary's counts as shares of the payloads
 * judged, ranked. A shape shared by fewer than k users stops here: it is counted in `rareShapes`, never named.
 */

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1).describe('of the payloads judged, rounded to 4 decimals');
const counted = z.object({ count, share });
const byOutcome = <T extends z.ZodType>(value: T) => z.object(Object.fromEntries(outcomeKeys.map((key) => [key, value])) as Record<OutcomeKey, T>);
const emulatorChoices = Object.keys(emulatorSettings) as (keyof typeof emulatorSettings)[];

export const maxLines = 20;
export const maxShapes = 10;
export const maxCodes = 5;

const fixSchema = z.object({
  rule: z.string(),
  failed: count,
  warned: count,
  users: count.describe('failed and warned'),
  share,
  alone: count.describe('users at the error screen who get in if this rule alone is fixed (population/fix-gains.ts)'),
  codes: z
    .array(z.object({ code: z.string(), count }))
    .max(maxCodes)
    .describe('the most frequent problem codes, users each'),
  advice: z.array(z.object({ code: z.string(), text: z.string(), count })).describe('per code, the advice given to the most users, and to how many'),
  otherAdvice: count.describe('users given none of the advice shown: advice fewer than k users were given, about a rarer shape'),
  shapes: z
    .array(z.object({ shape: z.string(), count }))
    .max(maxShapes)
    .describe('shapes of the value at fault shared by at least k users, most users first'),
  rareShapes: count.describe('users whose shape is shared by fewer than k users, or too few to be kept: their shapes are not named'),
  shapesOff: count.describe('the most a shape count may be short by: a shape more users than this share is always kept (population/kept.ts)'),
  otherShapes: count.describe(`users whose shape is shared by at least k users but is not among the ${maxShapes} named`),
});

const inputSchema = z.object({
  payloads: count,
  unreadable: z.array(z.object({ problem: z.string(), count, lines: z.array(z.number().int().positive()).max(maxLines) })),
  problems: z.array(z.string()),
  notes: z.array(z.string()).describe('what was not read, without cutting the input short: CSV columns that name no spec path'),
});

export const populationReportSchema = z
  .object({
    version: z.literal(1),
    settings: settingsSchema,
    notEmulatorDefaults: z.array(z.enum(emulatorChoices)).describe("the settings that are not the bundled emulator's choice"),
    k: z.number().int().positive().describe('the fewest users a shape must be shared by to be named'),
    input: inputSchema,
    outcomes: byOutcome(counted),
    errorReasons: z.array(counted.extend({ reason: z.string() })),
    typedFields: z.array(counted.extend({ fields: count })).describe('users who type at sign-on, by how many fields, fewest first'),
    beforePayment: z.object({ users: counted, fields: z.array(counted.extend({ field: z.string() })) }),
    alternatives: z.array(
      z.object({
        setting: z.enum(alternativeSettings),
        value: z.union([z.boolean(), z.string()]).describe('the other way'),
        outcomes: byOutcome(counted.extend({ change: z.number().int().describe('users more (or fewer) than under the settings used') })),
        changesMany: z.boolean().describe('an outcome moves by at least 1% of the payloads or 100 users'),
      }),
    ),
    fixFirst: z.array(fixSchema).describe('rules by users failed, then warned, then id'),
    fixPlan: z
      .object({
        steps: z
          .array(z.object({ rule: z.string(), users: count, share }))
          .describe('fix this first, then this: each step the rule that lets in the most users not yet in'),
        severalRules: count.describe('users at the error screen for two or more rules: no one fix lets them in'),
        leftOut: count.describe('users at the error screen the steps do not let in'),
        uncounted: count.describe('users whose set of rules was past the bound kept: each figure may be short by this many'),
      })
      .describe('what each fix gains, exact over every user at the error screen'),
    records: z.string().optional().describe("where the run wrote the partner's own records file (--records-out): its users' ids, for the partner alone"),
    funding: z
      .object({
        input: inputSchema,
        outcomes: z.object(Object.fromEntries(fundingKeys.map((key) => [key, counted])) as Record<FundingKey, typeof counted>),
        sources: count,
        unusableSources: count,
        fixFirst: z.array(fixSchema),
      })
      .optional()
      .describe("the users' funding-sources answers, when given: what each user can pay from"),
  })
  .superRefine((report, context) => {
    for (const fix of [...report.fixFirst, ...(report.funding?.fixFirst ?? [])])
      for (const { shape, count } of fix.shapes)
        if (count < report.k)
          context.addIssue({ code: 'custom', message: `a shape of ${fix.rule} is shared by fewer than k users`, path: ['fixFirst'], input: shape });
  })
  .describe('How the users of one population check fare at sign-on.');

export type PopulationReport = z.infer<typeof populationReportSchema>;
export type RuleFix = PopulationReport['fixFirst'][number];
export type Alternative = PopulationReport['alternatives'][number];

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Non-zero counts, most first, ties by key: the same order on every run. */
const ranked = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => ({ key, count: n }))
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
      const top = ranked(texts.counts).filter((text) => peopleOf(texts, text.key) >= k)[0];
      return top ? [{ code, text: top.key, count: top.count }] : [];
    })
    .sort((a, b) => b.count - a.count || byKey(a.code, b.code));
}

/** The people a key stands for, counted by their ids (population/tally.ts personOf): k counts these, never records. */
const peopleOf = (kept: Kept, key: string) => kept.people[key]?.length ?? 0;

function fixOf(rule: string, tally: RuleTally, payloads: number, k: number, alone: number): RuleFix {
  const shapes = ranked(tally.shapes.counts);
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

export const populationJsonSchema = () => ({
  $id: 'https://partner-certify.invalid/schemas/population.schema.json',
  ...z.toJSONSchema(populationReportSchema, { target: 'draft-2020-12' }),
});

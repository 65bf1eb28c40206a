import { z } from 'zod';
import { accountInfoFieldRules } from '../checks/account-info';
import { fundingSourceRules } from '../checks/funding-sources';
import { alternativeSettings, emulatorSettings, fundingKeys, outcomeKeys, settingsSchema, type FundingKey, type OutcomeKey } from './summary-schema';

/**
 * population.json, and what population.html and the console render: a summary's counts as shares of the payloads
 * judged, ranked. A shape shared by fewer than k users stops here: it is counted in `rareShapes`, never named.
 */

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1).describe('of the payloads judged, rounded to 4 decimals');
const counted = z.object({ count, share });
const byOutcome = <T extends z.ZodType>(value: T) => z.object(Object.fromEntries(outcomeKeys.map((key) => [key, value])) as Record<OutcomeKey, T>);
export const emulatorChoices = Object.keys(emulatorSettings) as (keyof typeof emulatorSettings)[];

export const maxLines = 20;
export const maxShapes = 10;
export const maxCodes = 5;

// A rule id is one of the rules the population check judges: a report given to compare may be anyone's, and its
// rule ids are printed as they are.
const judged: ReadonlySet<string> = new Set([...accountInfoFieldRules, ...fundingSourceRules].map((rule) => rule.id));
const ruleId = z.string().refine((id) => judged.has(id), 'not a rule the population check judges');
const fixSchema = z.object({
  rule: ruleId,
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
          .array(z.object({ rule: ruleId, users: count, share }))
          .describe('fix this first, then this: each step the rule that lets in the most users not yet in'),
        severalRules: count.describe('users at the error screen for two or more rules: no one fix lets them in'),
        leftOut: count.describe('users at the error screen the steps do not let in'),
        uncounted: count.describe('users whose set of rules was past the bound kept: each figure may be short by this many'),
      })
      .describe('what each fix gains, exact over every user at the error screen'),
    sharedIds: z
      .object({
        records: count.describe('records with a user.id'),
        repeats: count.describe(
          'records whose user.id an earlier record has: the platform signs them into that account; when not exact, those found within one shard, a floor',
        ),
        sharedIds: count.describe('ids more than one record has (within one shard, when not exact)'),
        exact: z.boolean().describe('counted exactly; else across shards (or past 4,000,000 ids) estimated from a HyperLogLog'),
        estimatedRepeats: count.describe('when not exact: the records less the distinct ids estimated, never below repeats'),
        margin: count.describe('when not exact: three standard errors of that estimate; a difference within it is no evidence'),
      })
      .describe('account-info/user.id/unique (spec §2.3): user.id must identify one user'),
    comparison: z
      .object({
        before: z.object({ payloads: count, date: z.string() }),
        outcomes: z.array(z.object({ outcome: z.enum(outcomeKeys), before: count, after: count, change: z.number().int(), shareChange: z.number() })),
        rules: z.array(z.object({ rule: ruleId, before: count, after: count, change: z.number().int() })),
        settingsChanged: z
          .array(z.object({ setting: z.enum(alternativeSettings), before: z.string(), after: z.string() }))
          .describe("settings the two reports were judged with that differ: part of what moved is theirs, not the export's"),
      })
      .optional()
      .describe('this export against an earlier report (--compare): each outcome and each rule that moved'),
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

export const populationJsonSchema = () => ({
  $id: 'https://partner-certify.invalid/schemas/population.schema.json',
  ...z.toJSONSchema(populationReportSchema, { target: 'draft-2020-12' }),
});

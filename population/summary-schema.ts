import { keptSchema } from './kept';
import { sharedIdsSchema } from './shared-ids';
import { z } from 'zod';
import { emulatorChoices, invalidOptionalChoices, invalidRequiredChoices } from '../checks/sign-on-decision';

/**
 * What a population check hands its reports, and what shards hand their merge (population/merge.ts): counts and
 * histograms only, so summaries add up. Versioned, and read back with this schema.
 */

/** The outcome a user meets at sign-on, one per user (DESIGN §7), under one set of the settings below. */
export const outcomeKeys = ['signs-in', 'asked-before-payment', 'typed-at-sign-on', 'error-screen'] as const;
export type OutcomeKey = (typeof outcomeKeys)[number];

const counts = z.record(z.string(), z.number().int().nonnegative());
export const outcomeCounts = z.object(Object.fromEntries(outcomeKeys.map((key) => [key, z.number().int().nonnegative()])) as Record<OutcomeKey, z.ZodNumber>);
export type OutcomeCounts = z.infer<typeof outcomeCounts>;

/** What the spec leaves open about an outcome: a setting, the bundled emulator's choice by default. */
export const settingsSchema = z.object({
  /** collectMissingAccountInfo, the platform's configuration for the partner (spec §7.2): a missing Yes* field is typed at sign-on, or the error screen. */
  collectMissingAccountInfo: z.boolean(),
  /** A Yes* value that is present but invalid: the error screen (the emulator), or typed again at sign-on (a platform may). */
  invalidRequired: z.enum(invalidRequiredChoices),
  /** A no**, no* or optional value that is present but invalid: sign-on is refused (the emulator), or the value is dropped. */
  invalidOptional: z.enum(invalidOptionalChoices),
  /** The run date, YYYY-MM-DD: ages are judged on it. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
export type Settings = z.infer<typeof settingsSchema>;
/** What checks/sign-on-decision.ts decides with when none is given: the bundled emulator's choices. */
export const emulatorSettings = emulatorChoices satisfies Partial<Settings>;

/** The settings that decide a user's outcome, each of which the report also shows the other way. */
export const alternativeSettings = ['collectMissingAccountInfo', 'invalidRequired', 'invalidOptional'] as const;
export type AlternativeSetting = (typeof alternativeSettings)[number];

/** The value a setting would take the other way. */
export function otherWay(setting: AlternativeSetting, settings: Pick<Settings, AlternativeSetting>): boolean | string {
  if (setting === 'collectMissingAccountInfo') return !settings.collectMissingAccountInfo;
  if (setting === 'invalidRequired') return settings.invalidRequired === 'error-screen' ? 'typed-again' : 'error-screen';
  return settings.invalidOptional === 'error-screen' ? 'dropped' : 'error-screen';
}

/** One rule's tally over the users it failed or warned. */
export const ruleTallySchema = z.object({
  /** Users for whom the rule failed (a MUST) or warned (a SHOULD): each user counted once per rule. */
  failed: z.number().int().nonnegative(),
  warned: z.number().int().nonnegative(),
  /** Users per problem code (`missing`, `pattern`, `po-box`, …). */
  codes: counts,
  /** Users per shape of the value at fault (population/shape.ts), the heaviest kept (population/kept.ts); ids, e-mails, tax ids and bank numbers have none. */
  shapes: keptSchema,
  /** The certification's advice for each problem code, its values turned to shapes, and how many users it was given to, the most given kept. */
  advice: z.record(z.string(), keptSchema),
});
export type RuleTally = z.infer<typeof ruleTallySchema>;

/** What a user's funding-sources answer lets them pay from (spec §2.4: a source a rule refuses is not added). */
export const fundingKeys = ['all-usable', 'some-unusable', 'none-usable', 'no-sources'] as const;
export type FundingKey = (typeof fundingKeys)[number];

const inputSchema = z.object({
  /** Payloads judged: every record that was a JSON object. */
  payloads: z.number().int().nonnegative(),
  /** Records that were not JSON, or not an object, by problem; with the first line numbers of each. */
  unreadable: counts,
  unreadableLines: z.record(z.string(), z.array(z.number().int().positive())),
  /** What cut the input short (a truncated gzip, a CSV without a header): the rest before it was judged. */
  problems: z.array(z.string()),
  /** What was not read, and did not cut the input short: CSV columns that name no spec path. */
  notes: z.array(z.string()),
});

/** The second input, when given: each user's funding-sources answer, judged on its own. */
export const fundingSummarySchema = z.object({
  input: inputSchema,
  outcomes: z.object(Object.fromEntries(fundingKeys.map((key) => [key, z.number().int().nonnegative()])) as Record<FundingKey, z.ZodNumber>),
  /** Funding sources listed, and those a rule refused. */
  sources: z.number().int().nonnegative(),
  unusableSources: z.number().int().nonnegative(),
  rules: z.record(z.string(), ruleTallySchema),
});
export type FundingSummary = z.infer<typeof fundingSummarySchema>;

export const summarySchema = z.object({
  version: z.literal(1),
  settings: settingsSchema,
  /** Which part of the input this is: `{index: 1, count: 4}` for `--shard 1/4`; absent for a whole input or a merge. */
  shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }).optional(),
  /** Shards added into this summary (1 for a run of its own). */
  parts: z.number().int().positive(),
  input: inputSchema,
  outcomes: outcomeCounts,
  /** Users shown the error screen, by the platform's reason (checks/sign-on-decision.ts). */
  errorReasons: counts,
  /** Users who type at sign-on, by how many fields they type. */
  typedFields: counts,
  /** Users who get in (at once or after typing) and are asked for no** fields before their first payment, per field; `users`: any. */
  beforePayment: counts,
  /** The outcomes if one setting were the other way, all else equal. */
  alternatives: z.object(
    Object.fromEntries(alternativeSettings.map((setting) => [setting, outcomeCounts])) as Record<AlternativeSetting, typeof outcomeCounts>,
  ),
  rules: z.record(z.string(), ruleTallySchema),
  /** Users at the error screen, by the rules that sent them there (population/fix-gains.ts): what each fix gains. */
  causes: counts,
  /** Users at the error screen whose set of rules was past the bound on sets kept. */
  causesUncounted: z.number().int().nonnegative(),
  /**
   * What the reader read of the whole input, every shard alike: its JSON texts' bytes, its last line, and, written by
   * a shard only (no merge compares a whole run's), a SHA-256 of those texts, of the funding answers', and of the
   * column map a CSV was read with.
   */
  seen: z.object({
    bytes: z.number().int().nonnegative(),
    lines: z.number().int().nonnegative(),
    digest: z.string(),
    funding: z.string().optional(),
    columns: z.string().optional(),
  }),
  /** Records whose user.id another record has (population/shared-ids.ts). */
  sharedIds: sharedIdsSchema,
  funding: fundingSummarySchema.optional(),
});
export type PopulationSummary = z.infer<typeof summarySchema>;

import { z } from 'zod';
import type { LoadedProfile } from '../partners/profile';
import { profileSchema } from '../profile/profile-schema';
import { ordinaryText, profileSecrets } from '../redaction/secrets';
import type { ScopedSecret } from '../redaction/vault';
import type { CollectedPartner } from './collected';
import { waiverSchema } from '../profile/waiver-schema';
import { eventsVersion, runStampSchema, type RunStamp } from './events';
import { exchangeSchema, findingSchema } from './probe-record';

/**
 * What the run's coordinator hands each partner's worker when it joins (run/channel.ts): everything the
 * coordinator worked out once, before any worker started, so no worker reads a profile's secrets, a waivers file
 * or the run's identity again.
 */

export const scopedSecretSchema = z.strictObject({
  value: z.string(),
  keepLast4: z.boolean().optional(),
  keepYear: z.literal(true).optional(),
  forms: z.array(z.string()).optional(),
  queryName: z.literal(true).optional(),
  ordinary: z.literal(true).optional(),
  partner: z.string().optional(),
});

export const partnerPlanSchema = z.strictObject({
  version: z.literal(eventsVersion),
  partner: z.string(),
  /** The profile as the coordinator loaded it, its `env:` values read. */
  profile: profileSchema,
  /** The variable each `env:` field was read from, by field path: named in a fix, never a value. */
  envNames: z.record(z.string(), z.string()),
  stamp: runStampSchema,
  /** The waivers of the partner's rules and of the platform's, as loaded when the run began: its tests decide with these. */
  waivers: z.array(waiverSchema),
  platformWaivers: z.array(waiverSchema),
  /** The partner whose tests judge this one's platform, once for every partner on it, when it is another. */
  judgedBy: z.string().optional(),
  /** The probes the worker starts at once, those of the tests the run chose; null when the run's choice is not known (each then runs when its test comes). */
  probes: z.array(z.string()).nullable(),
  /** Probes whose tests ran in an earlier worker of this partner: started again only by a retry. */
  taken: z.array(z.string()),
  /** Probes an earlier worker of this partner is still finishing: their outcomes come through the channel. */
  pending: z.array(z.string()),
  /** What the masking knows so far: the partner's own secrets, the harness's, every partner's run-wide ones. */
  secrets: z.array(scopedSecretSchema),
});
export type PartnerPlan = z.infer<typeof partnerPlanSchema>;

/** A probe's outcome an earlier worker finished and left for the next one (masked): its result, or why it could not run. */
export const leftOutcomeSchema = z.union([
  z.strictObject({ error: z.string(), screenshot: z.string().optional().describe('a PNG, base64') }),
  z.strictObject({
    result: z.strictObject({
      findings: z.array(findingSchema),
      exchanges: z.array(exchangeSchema),
      screenshots: z.array(z.strictObject({ name: z.string(), png: z.string().describe('base64') })),
      trace: z.string().optional(),
    }),
    browser: z.string().optional(),
    notApplicable: z.string().optional(),
  }),
]);
export type LeftOutcome = z.infer<typeof leftOutcomeSchema>;

/** A partner's plan, from what the coordinator worked out once. */
export function partnerPlan(
  partner: CollectedPartner & { loaded: LoadedProfile },
  run: { stamp: RunStamp; judge: string | undefined; probes: string[] | null; taken: string[]; pending: string[]; secrets: readonly ScopedSecret[] },
): PartnerPlan {
  const { name, loaded, waivers, platformWaivers } = partner;
  return {
    version: eventsVersion,
    partner: name,
    profile: loaded.profile,
    envNames: loaded.envNames,
    stamp: run.stamp,
    waivers: [...waivers],
    platformWaivers: [...platformWaivers],
    ...(run.judge !== undefined && run.judge !== name ? { judgedBy: run.judge } : {}),
    probes: run.probes,
    taken: run.taken,
    pending: run.pending,
    secrets: run.secrets.map(plainSecret),
  };
}

/** A secret as the channel carries it (its forms a plain array). */
export const plainSecret = ({ forms, ...secret }: ScopedSecret) => ({ ...secret, ...(forms ? { forms: [...forms] } : {}) });

/** Each partner's secrets, worked out once: its profile's, and its names as ordinary text of the run. */
export function secretsOf(loaded: LoadedProfile): ScopedSecret[] {
  return [...profileSecrets(loaded.profile, loaded.envValues), ...ordinaryText([loaded.name, loaded.file.split(/[\\/]/).at(-1) ?? loaded.file])].map(
    (secret) => ({ ...secret, partner: loaded.name }),
  );
}

import { z } from 'zod';
import { probeRecordSchema } from './probe-record';

/**
 * The one stream from the workers to the run's coordinator (run/coordinator.ts): a versioned union of events,
 * validated where they are read, with their types inferred from the schemas. An attempt of a test is begun,
 * says what it found (`attempt-said`: its probe's record, decided in the worker with the waivers the
 * coordinator loaded), and ends. A merge of blob reports reads the same `said` from the test's attachment.
 */
export const eventsVersion = 2;

/** Which run a test's outcome belongs to: the run's id (one for all its shards), its shard, and the digest of the profile it ran with. */
export const runStampSchema = z.strictObject({
  id: z.string(),
  shard: z.strictObject({ current: z.number().int().positive(), total: z.number().int().positive() }).nullable(),
  profile: z.string(),
});
export type RunStamp = z.infer<typeof runStampSchema>;

const statuses = ['passed', 'failed', 'timedOut', 'skipped', 'interrupted'] as const;
export type AttemptStatus = (typeof statuses)[number];

/** What one attempt of a probe's test said, beyond Playwright's status: masked by the worker's egress (run/egress.ts). */
export const attemptSaidSchema = z.strictObject({
  version: z.literal(eventsVersion),
  stamp: runStampSchema,
  probe: z.string(),
  area: z.string(),
  owner: z.enum(['partner', 'platform']),
  /** For a platform test this partner did not run: the partner whose tests judged the platform, once for all. */
  judgedBy: z.string().optional(),
  /** Why the probe does not apply to the profile. */
  skipReason: z.string().optional(),
  /** The browser that ran a browser probe, as the report names it. */
  browser: z.string().optional(),
  /** Why each code request the code source asked again while the attempt ran was retried ("answered 500"). */
  codeRetries: z.array(z.string()),
  /** What the probe found, decided, when the attempt got that far. */
  record: probeRecordSchema.optional(),
  /** The screens a browser showed, by name; each is an attachment of the test named `screen: <name>`. */
  screens: z.array(z.strictObject({ name: z.string(), path: z.string() })),
});
export type AttemptSaid = z.infer<typeof attemptSaidSchema>;

const attempt = { project: z.string(), testId: z.string(), retry: z.number().int().nonnegative() };

export const workerEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('attempt-begun'), ...attempt, title: z.string() }),
  z.strictObject({ type: z.literal('attempt-said'), ...attempt, said: attemptSaidSchema }),
  z.strictObject({
    type: z.literal('attempt-ended'),
    ...attempt,
    status: z.enum(statuses),
    durationMs: z.number().nonnegative(),
    /** The attempt's errors, as Playwright states them, masked. */
    errors: z.array(z.string()),
  }),
]);
export type WorkerEvent = z.infer<typeof workerEventSchema>;

/** The name of the attachment that carries an attempt's `said` to Playwright's reporters (and so to a merge). */
export const saidAttachment = 'certification record';
export const screenAttachment = (name: string) => `screen: ${name}`;

/** A `said` as a test attached it, or what is wrong with it, naming the first fields at fault. */
export function parseSaid(body: string): { said: AttemptSaid } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { error: `its certification record is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const version = z.object({ version: z.unknown() }).safeParse(value);
  if (!version.success || version.data.version !== eventsVersion) {
    const seen = version.success ? JSON.stringify(version.data.version) : 'none';
    return { error: `its certification record is of version ${seen}, and this harness reads version ${eventsVersion}: certify with one harness version` };
  }
  const parsed = attemptSaidSchema.safeParse(value);
  if (parsed.success) return { said: parsed.data };
  return { error: `its certification record does not parse: ${issuesOf(parsed.error)}` };
}

export const issuesOf = (error: z.ZodError) =>
  error.issues
    .slice(0, 3)
    .map((issue) => `"${issue.path.join('.')}" ${issue.message}`)
    .join('; ');

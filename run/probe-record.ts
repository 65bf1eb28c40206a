import { z } from 'zod';
import type { Exchange } from '../checks/evidence';
import type { Finding } from '../checks/finding';

/**
 * What a probe's test hands the report, as one versioned, validated record: the findings as the probe
 * found them (masked, before any waiver), the clock the test decided them with (checks/outcome.ts), and the
 * exchanges. The test writes it and the report reads it with this schema; a record that does not parse is
 * an error of its test, never an empty list.
 */

export const probeRecordVersion = 1;

const outcomes = ['passed', 'failed', 'warning', 'info', 'skipped', 'not-checked', 'waived'] as const;

export const waiverUseSchema = z.object({
  waiver: z.number().int().positive().describe("the waiver's place in the waivers file, from 1"),
  reason: z.string(),
  approvedBy: z.string(),
  expires: z.string(),
  expired: z.literal(true).optional().describe('the waiver matched but had expired, so the finding keeps its outcome'),
});

export const findingSchema = z.object({
  rule: z.string(),
  field: z.string(),
  clause: z.string(),
  level: z.enum(['MUST', 'SHOULD', 'INFO']),
  outcome: z
    .enum(outcomes)
    .describe(
      'skipped: the rule does not apply; not-checked: blocked by the failed rule named in blockedBy; waived: a failure or warning a waiver in force covers (waiver)',
    ),
  code: z.string().optional().describe('the kind of problem, stable within the rule: missing, null, type, pattern…'),
  params: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .describe('the values the message quotes'),
  message: z.string(),
  impact: z.string(),
  blockedBy: z.string().optional(),
  waiver: waiverUseSchema.optional(),
  waivedOutcome: z.enum(['failed', 'warning']).optional().describe('for waived: what the rule found'),
});

const headers = z.record(z.string(), z.string());

const exchangeSchema = z.looseObject({
  request: z.looseObject({ method: z.string(), url: z.string(), headers, body: z.string().optional() }),
  response: z.looseObject({ status: z.number(), headers, body: z.string(), bytes: z.number(), encodingProblem: z.string().optional() }).optional(),
  failure: z.looseObject({ kind: z.string(), message: z.string() }).optional(),
  startedAt: z.string(),
  durationMs: z.number(),
  rateLimited: z
    .looseObject({ status: z.number(), retryAfter: z.string(), waitedMs: z.number().optional(), refused: z.enum(['too-long', 'again']).optional() })
    .optional(),
  resentAfter: z.string().optional(),
});

export const probeRecordSchema = z.strictObject({
  version: z.literal(probeRecordVersion),
  judgedAt: z.iso.datetime(),
  findings: z.array(findingSchema),
  exchanges: z.array(exchangeSchema),
});

export interface ProbeRecord {
  version: typeof probeRecordVersion;
  /** The clock the test read its waivers' expiry against. */
  judgedAt: string;
  findings: Finding[];
  exchanges: Exchange[];
}

export const probeRecord = (findings: readonly Finding[], exchanges: readonly Exchange[], judgedAt: Date): ProbeRecord => ({
  version: probeRecordVersion,
  judgedAt: judgedAt.toISOString(),
  findings: [...findings],
  exchanges: [...exchanges],
});

/** A record as the test attached it, or what is wrong with it, naming the first fields at fault. */
export function parseProbeRecord(body: Buffer | string): { record: ProbeRecord } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(body.toString());
  } catch (error) {
    return { error: `its probe record is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const version = (value as { version?: unknown } | null)?.version;
  if (version !== probeRecordVersion) {
    return {
      error: `its probe record is of version ${JSON.stringify(version)}, and this harness reads version ${probeRecordVersion}: certify with one harness version`,
    };
  }
  const parsed = probeRecordSchema.safeParse(value);
  if (parsed.success) return { record: parsed.data as ProbeRecord };
  const issues = parsed.error.issues.slice(0, 3).map((issue) => `"${issue.path.join('.')}" ${issue.message}`);
  return { error: `its probe record does not parse: ${issues.join('; ')}` };
}

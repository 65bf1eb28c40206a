import { z } from 'zod';
import { clauses, type ClauseId } from '../checks/clauses';
import type { Exchange } from '../checks/evidence';
import { outcomes, type Finding } from '../checks/finding';

/**
 * What a probe's test found, as one versioned, validated record: the findings as the test decided them (its
 * waivers applied: checks/outcome.ts, once, in the worker), the clock it decided them with, and the exchanges.
 * The worker's egress masks it, hands it to Playwright (so a merge of blob reports reads it) and to the run's
 * coordinator (run/events.ts); both read it with this schema, and a record that does not parse is an error of
 * its test, never an empty list.
 */

const clauseIds = Object.keys(clauses) as [ClauseId, ...ClauseId[]];

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
  clause: z.enum(clauseIds),
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

export const exchangeSchema = z.object({
  request: z.object({ method: z.string(), url: z.string(), headers, body: z.string().optional() }),
  response: z.object({ status: z.number(), headers, body: z.string(), bytes: z.number(), encodingProblem: z.string().optional() }).optional(),
  failure: z
    .object({
      kind: z.enum(['timeout', 'connection-refused', 'connection-reset', 'body-too-large', 'dns', 'invalid-url', 'tls', 'plain-http', 'network']),
      message: z.string(),
    })
    .optional(),
  startedAt: z.string(),
  durationMs: z.number(),
  rateLimited: z
    .object({ status: z.number(), retryAfter: z.string(), waitedMs: z.number().optional(), refused: z.enum(['too-long', 'again']).optional() })
    .optional(),
  resentAfter: z.string().optional(),
});

export const probeRecordSchema = z.strictObject({
  /** The clock the test read its waivers' expiry against. */
  judgedAt: z.iso.datetime(),
  findings: z.array(findingSchema),
  exchanges: z.array(exchangeSchema),
});

export type ProbeRecord = z.infer<typeof probeRecordSchema>;
export type RecordedFinding = z.infer<typeof findingSchema>;
export type RecordedExchange = z.infer<typeof exchangeSchema>;

// What a probe finds is what a record holds: a change to either that the other does not follow is a type error here.
type Fits<A extends B, B> = A;
export type _RecordFits = [Fits<Finding, RecordedFinding>, Fits<RecordedFinding, Finding>, Fits<RecordedExchange, Exchange>];

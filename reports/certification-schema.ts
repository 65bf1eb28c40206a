import { z } from 'zod';
import { outcomes, platformVerdicts, verdicts } from '../checks/finding';
import { findingSchema } from '../run/probe-record';

/**
 * certification.json, as a zod schema: the type the reports are built as, the check `--compare`, the
 * history and `npm run verify` read files with, and schemas/certification.schema.json (npm run generate).
 */

const ruleOutcome = z
  .enum(outcomes)
  .describe(
    'the worst outcome of the rule in this run; skipped when it does not apply; not-checked when its test did not run or a failed rule blocked it (blockedBy); waived when waivers cover every failure and warning of the rule',
  );
const count = z.number().int().nonnegative();
// Defaults let a certification.json written before waivers be read as a previous run.
const counts = z.object({ passed: count, failed: count, warning: count, info: count, skipped: count, notChecked: count, waived: count.default(0) });
export const testStatus = z.enum(['passed', 'failed', 'timedOut', 'skipped', 'interrupted', 'not-run']);
// Files written before rules had owners were all the partner's.
const owner = z
  .enum(['partner', 'platform'])
  .default('partner')
  .describe("whose rule: the partner's (its endpoints, its data, sign-on by code) or the platform's (the mock link, the embedded app, the data API)");

export const certificationSchema = z
  .object({
    $schema: z.string().optional(),
    verdict: z
      .enum(verdicts)
      .describe(
        "the partner's certification, from the partner's rules alone: CERTIFIED when none failed unwaived, and every one was judged or does not apply, in this one whole run; NOT CERTIFIED when one failed, in any attempt of any test; PARTIAL when nothing failed but the run ran some tests only (partial); INCOMPLETE when nothing failed but a rule was not judged (a platform rule that failed first among the reasons), a test did not complete, or the results are not one whole run (incomplete)",
      ),
    summary: z.string().describe('the verdict in one line, with the counts'),
    counts: counts.extend({ rules: count, testsNotCompleted: count }).describe("the partner's rules by their worst outcome"),
    platform: z
      .object({
        verdict: z.enum(platformVerdicts).describe("the platform's own rules: never the partner's to fix, and never part of the partner's verdict"),
        summary: z.string(),
        counts: counts.extend({ rules: count }),
        judgedBy: z
          .string()
          .nullable()
          .describe("the partner whose tests judged them, when not this one's: the platform's checks run once for every partner on it"),
        emulator: z.boolean().describe("the bundled emulator: the section is then the harness's own self-check"),
        setupProblems: z
          .array(z.string())
          .default([])
          .describe(
            "this profile's own platform credentials that the platform refused (its api key, its data-API token): its set-up to fix, not the platform's failure",
          ),
      })
      .nullable()
      .default(null)
      .describe("the platform's conformance, beside the partner's certification"),
    incomplete: z
      .array(z.string())
      .default([])
      .describe('what kept the run from being whole: tests that did not complete, rules not checked, blobs of other runs or missing shards'),
    run: z.object({
      partner: z.string(),
      id: z.string().default('unknown').describe('CERTIFY_RUN_ID: one value for every shard of a run'),
      shards: z
        .object({ total: count, merged: z.array(count) })
        .nullable()
        .default(null)
        .describe('for a merge of shards: how many the run was split into, and those merged'),
      targets: z.record(z.string(), z.string()).describe('the endpoints certified, by name'),
      harness: z.object({ version: z.string(), commit: z.string().nullable() }),
      startedAt: z.iso.datetime().describe('when the tests began, also in a merge (not when the merge ran)'),
      finishedAt: z.iso.datetime(),
      status: z.enum(['passed', 'failed', 'timedout', 'interrupted']).describe("Playwright's status of the whole run"),
      node: z.string(),
      playwright: z.string(),
      chromium: z.string().nullable().describe('null when no browser test ran'),
      machine: z
        .object({ cores: count, loadAverage: z.number().nonnegative() })
        .nullable()
        .default(null)
        .describe('the machine the run measured latency on, when the run ended'),
    }),
    areas: z.array(counts.extend({ area: z.string(), title: z.string() })),
    rules: z.array(
      z.object({
        id: z.string(),
        owner,
        area: z.string(),
        field: z.string(),
        clause: z.string(),
        level: z.enum(['MUST', 'SHOULD', 'INFO']),
        outcome: ruleOutcome,
        requirement: z.string(),
        blockedBy: z.string().optional().describe('for not-checked: the failed rule that kept this one from being judged'),
        stackFix: z
          .object({ library: z.string(), fix: z.string(), docs: z.string() })
          .optional()
          .describe("for a rule that failed or warned: the fix on the partner's OAuth server library, when it was recognised (docs/STACKS.md)"),
      }),
    ),
    stack: z
      .union([
        z.object({ library: z.string(), observedOn: z.array(z.string()), docs: z.string(), evidence: z.array(z.string()) }),
        z.object({ notRecognised: z.string() }),
      ])
      .optional()
      .describe("the partner's OAuth server library, named from its token endpoint's answers, with the marks that named it; or why none was"),
    findings: z.array(findingSchema.extend({ test: z.string().describe('the title of the test that produced it') })),
    tests: z.array(
      z.object({
        title: z.string(),
        probe: z.string().optional().describe('the id of the probe the test ran'),
        area: z.string().describe('the area of the probe: a key of areas[] and the prefix of its rules'),
        owner,
        status: testStatus,
        durationMs: count,
        errors: z.array(z.string()),
        skipReason: z.string().optional(),
        complete: z
          .boolean()
          .describe(
            'false when the test, in any attempt, stopped before its rules were judged: timed out, interrupted, not run, or failed with no rule failing',
          ),
        attempts: count.default(1).describe('how often the test ran: more than 1 with --retries; the findings of every attempt count'),
        earlierAttempts: z
          .array(z.object({ status: testStatus, errors: z.array(z.string()) }))
          .default([])
          .describe('the attempts before the last, each with its status and errors'),
      }),
    ),
    typing: z
      .array(z.object({ field: z.string(), marker: z.enum(['Yes*', 'no**', 'no*']), when: z.string() }))
      .describe("what the partner's users will be asked to type"),
    latency: z
      .array(z.object({ endpoint: z.string(), requests: count, p50Ms: count, p95Ms: count, maxMs: count }))
      .describe("the platform's calls to the partner's own endpoints (token exchange, account information, funding sources), as this run timed them"),
    latencyConditions: z
      .object({
        mostAtOnce: count.describe('the most requests to those endpoints in flight at one time'),
        cores: count,
        loadAverage: z.number().nonnegative().describe("the machine's 1-minute load average when the run ended"),
      })
      .nullable()
      .default(null)
      .describe('what the latency was measured under: a busy machine, or many requests at once, adds to the times'),
    comparison: z
      .object({
        previous: z.object({ finishedAt: z.string(), verdict: z.string() }),
        fixed: z.array(z.string()),
        regressed: z.array(z.string()),
        new: z.array(z.string()),
      })
      .nullable()
      .describe("against the partner's previous run in the history, or the certification.json given with --compare"),
    waivers: z
      .array(
        z.object({
          waiver: z.number().int().positive(),
          rule: z.string(),
          field: z.string().optional(),
          message: z.string().optional(),
          reason: z.string(),
          approvedBy: z.string(),
          expires: z.string(),
          status: z
            .enum(['used', 'stale', 'expired', 'unjudged'])
            .describe(
              'used: it waived findings (findings); stale: its rule was judged and it matched nothing, so it can be removed; expired: past its date, it no longer applies (findings: what it would have covered); unjudged: its rule was not judged this run',
            ),
          findings: count,
        }),
      )
      .default([])
      .describe("the partner's waivers (partners/<name>.waivers.json) and what each did this run"),
    partial: z
      .object({
        reason: z.string(),
        ran: z.array(z.string()).describe('the titles of the tests this run ran'),
        leftOut: z.array(z.string()).default([]).describe('the titles of the tests of a certification this run did not run'),
        failedBeforeNotRun: z.array(z.string()).describe('tests that did not complete or failed in the previous run and did not run in this one'),
      })
      .nullable()
      .default(null)
      .describe(
        'set when the run did not run every test of a certification (-g, --grep-invert, a file filter, test.only, --last-failed, a shard): never CERTIFIED',
      ),
    codeRetries: z
      .array(z.object({ reason: z.string().describe('what the code source did: "answered 500", "answered 429", "timed out", "connection reset"'), count }))
      .default([])
      .describe(
        'the code requests asked again after a transient failure of the code source ("codes.mintUrl"), by why: a test aid, not what is certified, so a retry is a note, never a finding',
      ),
    artifacts: z
      .record(z.string(), z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }))
      .default({})
      .describe('the files written beside this one (certification.html, exchanges.har), by name, with the SHA-256 of their bytes'),
    signing: z
      .object({ keyThumbprint: z.string().describe('RFC 7638 SHA-256 thumbprint of the Ed25519 public key'), signer: z.string().nullable() })
      .nullable()
      .default(null)
      .describe('set when the run was signed: certification.json.jws beside this file is a detached JWS over its bytes (npm run verify)'),
  })
  .describe('A certification run of one partner by partner-certify.');

export type Certification = z.output<typeof certificationSchema>;
export type RuleOutcome = z.output<typeof ruleOutcome>;
export type TestStatus = z.output<typeof testStatus>;

export const certificationJsonSchema = () => ({
  $id: 'https://partner-certify.invalid/schemas/certification.schema.json',
  ...z.toJSONSchema(certificationSchema, { target: 'draft-2020-12' }),
});

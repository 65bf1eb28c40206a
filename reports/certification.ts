import { z } from 'zod';
import { allRules, catalogue } from '../checks/catalogue';
import type { Exchange } from '../checks/evidence';
import type { Finding, Outcome, Rule } from '../checks/finding';
import { markerLegend, type Marker, type PayloadRule } from '../checks/payload';

/**
 * The certification document (reports/out/<project>/certification.json) and how it is built from the
 * results of a run. Pure: the reporter gathers the tests' attachments, this decides the verdict.
 */

const outcome = z.enum(['passed', 'failed', 'warning', 'info', 'skipped', 'not-checked']).describe('skipped: the rule does not apply; not-checked: blocked by the failed rule named in blockedBy');
const ruleOutcome = z.enum(['failed', 'warning', 'info', 'passed', 'skipped', 'not-checked']).describe('the worst outcome of the rule in this run; skipped when it does not apply; not-checked when its test did not run or a failed rule blocked it (blockedBy)');
const count = z.number().int().nonnegative();
const counts = z.object({ passed: count, failed: count, warning: count, info: count, skipped: count, notChecked: count });

export const testStatus = z.enum(['passed', 'failed', 'timedOut', 'skipped', 'interrupted', 'not-run']);

export const certificationSchema = z
  .object({
    $schema: z.string().optional(),
    verdict: z.enum(['CERTIFIED', 'NOT CERTIFIED']).describe('CERTIFIED when no rule failed and every test ran to the end'),
    summary: z.string().describe('the verdict in one line, with the counts'),
    counts: counts.extend({ rules: count, testsNotCompleted: count }).describe('rules by their worst outcome'),
    run: z.object({
      partner: z.string(),
      targets: z.record(z.string(), z.string()).describe('the endpoints certified, by name'),
      harness: z.object({ version: z.string(), commit: z.string().nullable() }),
      startedAt: z.iso.datetime(),
      finishedAt: z.iso.datetime(),
      status: z.enum(['passed', 'failed', 'timedout', 'interrupted']).describe("Playwright's status of the whole run"),
      node: z.string(),
      playwright: z.string(),
      chromium: z.string().nullable().describe('null when no browser test ran'),
    }),
    areas: z.array(counts.extend({ area: z.string(), title: z.string() })),
    rules: z.array(z.object({
      id: z.string(), area: z.string(), field: z.string(), clause: z.string(), level: z.enum(['MUST', 'SHOULD', 'INFO']), outcome: ruleOutcome, requirement: z.string(),
      blockedBy: z.string().optional().describe('for not-checked: the failed rule that kept this one from being judged'),
    })),
    findings: z.array(z.object({
      rule: z.string(), field: z.string(), clause: z.string(), level: z.enum(['MUST', 'SHOULD', 'INFO']), outcome, code: z.string().optional().describe('the kind of problem, stable within the rule: missing, null, type, pattern…'), params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional().describe('the values the message quotes'), message: z.string(), impact: z.string(), blockedBy: z.string().optional(),
      test: z.string().describe('the title of the test that produced it'),
    })),
    tests: z.array(z.object({
      title: z.string(), probe: z.string().optional().describe('the id of the probe the test ran'), area: z.string().describe('the area of the probe: a key of areas[] and the prefix of its rules'), status: testStatus, durationMs: count, errors: z.array(z.string()), skipReason: z.string().optional(),
      complete: z.boolean().describe('false when the test stopped before its rules were judged: timed out, interrupted, not run, or failed with no rule failing'),
    })),
    typing: z.array(z.object({ field: z.string(), marker: z.enum(['Yes*', 'no**', 'no*']), when: z.string() })).describe('what the partner\'s users will be asked to type'),
    latency: z.array(z.object({ endpoint: z.string(), requests: count, p50Ms: count, p95Ms: count, maxMs: count })),
    comparison: z
      .object({ previous: z.object({ finishedAt: z.string(), verdict: z.string() }), fixed: z.array(z.string()), regressed: z.array(z.string()), new: z.array(z.string()) })
      .nullable()
      .describe('against the certification.json given with --compare'),
  })
  .describe('A certification run of one partner by partner-certify.');

export type Certification = z.output<typeof certificationSchema>;
export type RuleOutcome = z.output<typeof ruleOutcome>;
export type TestStatus = z.output<typeof testStatus>;

export const certificationJsonSchema = () => ({
  $id: 'https://partner-certify.invalid/schemas/certification.schema.json',
  ...z.toJSONSchema(certificationSchema, { target: 'draft-2020-12' }),
});

/** What the reporter gathered of one test. */
export interface TestRecord {
  title: string;
  /** The probe the test ran, and its area (`token-exchange`): a key of `areas[]`. */
  probe?: string;
  area: string;
  status: TestStatus;
  durationMs: number;
  errors: string[];
  skipReason?: string;
  findings: Finding[];
  exchanges: Exchange[];
}

export type RunInfo = Certification['run'];

export const areaTitles: Record<keyof typeof catalogue, string> = {
  'token-exchange': 'Token exchange',
  'account-info': 'Account information',
  'funding-sources': 'Funding sources',
  'mock-link': 'Mock link',
  'sign-on': 'Sign-on in the browser',
  'data-api': 'Data API',
};

const areaOfRule = new Map<string, string>(Object.entries(catalogue).flatMap(([area, rules]) => rules.map((rule) => [rule.id, area] as const)));
/** The spec marker (Yes*, no**…) of each field's presence rule, by rule id. */
const markerOfPresenceRule = new Map(
  (allRules as readonly (Rule<never, never> & Partial<Pick<PayloadRule, 'subject' | 'judges'>>)[])
    .filter((rule) => rule.judges === 'presence' && rule.subject)
    .map((rule) => [rule.id, rule.subject!.marker]),
);

// A rule blocked in one test but judged in another was judged; one blocked is not merely not applicable.
const severity: RuleOutcome[] = ['failed', 'warning', 'info', 'passed', 'not-checked', 'skipped'];
const worst = (outcomes: readonly Outcome[]): RuleOutcome =>
  outcomes.length === 0 ? 'not-checked' : severity.find((candidate) => outcomes.includes(candidate))!;
export const bySeverity = <T extends { outcome: RuleOutcome }>(a: T, b: T) => severity.indexOf(a.outcome) - severity.indexOf(b.outcome);

function countsOf(outcomes: readonly RuleOutcome[]) {
  const of = (wanted: RuleOutcome) => outcomes.filter((o) => o === wanted).length;
  return { passed: of('passed'), failed: of('failed'), warning: of('warning'), info: of('info'), skipped: of('skipped'), notChecked: of('not-checked') };
}

/** When the user types a missing field: a failed Yes* field is never typed, since without collection sign-on stops at the error screen. */
const when = (marker: Marker, outcome: Outcome) =>
  marker === 'Yes*' && outcome === 'failed' ? 'never: without collectMissingAccountInfo, sign-on shows them the error screen instead' : markerLegend[marker].typed;

/** The omissions the platform makes the user make up for: Yes*, no** and no* fields missing from the payload. */
function typingOf(findings: readonly Finding[]): Certification['typing'] {
  const rows = new Map<string, Certification['typing'][number]>();
  for (const finding of findings) {
    const marker = markerOfPresenceRule.get(finding.rule);
    if ((marker === 'Yes*' || marker === 'no**' || marker === 'no*') && ['failed', 'warning', 'info'].includes(finding.outcome)) {
      rows.set(finding.field, { field: finding.field, marker, when: when(marker, finding.outcome) });
    }
  }
  return [...rows.values()];
}

/** Nearest-rank percentile. */
const percentile = (sorted: readonly number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;

function latencyOf(exchanges: readonly Exchange[], targets: Record<string, string>): Certification['latency'] {
  const named = new Map(Object.entries(targets).map(([name, url]) => [endpointKey(url), name]));
  const durations = new Map<string, number[]>();
  for (const { request, durationMs } of exchanges) {
    const key = endpointKey(request.url);
    const label = named.get(key) ?? `${request.method} ${key}`;
    durations.set(label, [...(durations.get(label) ?? []), Math.round(durationMs)]);
  }
  return [...durations].map(([endpoint, all]) => {
    const sorted = all.sort((a, b) => a - b);
    return { endpoint, requests: sorted.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1)! };
  });
}

function endpointKey(url: string): string {
  try {
    const { host, pathname } = new URL(url);
    return `${host}${pathname}`;
  } catch {
    return url;
  }
}

function compare(rules: Certification['rules'], previous: Certification): NonNullable<Certification['comparison']> {
  const before = new Map(previous.rules.map((rule) => [rule.id, rule.outcome]));
  const failedBefore = (id: string) => before.get(id) === 'failed';
  const checkedBefore = (id: string) => !['not-checked', 'skipped', undefined].includes(before.get(id));
  return {
    previous: { finishedAt: previous.run.finishedAt, verdict: previous.verdict },
    fixed: rules.filter((rule) => failedBefore(rule.id) && ['passed', 'warning', 'info'].includes(rule.outcome)).map((rule) => rule.id),
    regressed: rules.filter((rule) => rule.outcome === 'failed' && checkedBefore(rule.id) && !failedBefore(rule.id)).map((rule) => rule.id),
    new: rules.filter((rule) => rule.outcome === 'failed' && !checkedBefore(rule.id)).map((rule) => rule.id),
  };
}

/** ` (178 blocked by token-exchange/encoding)`: what kept rules from being judged, most first. */
function blockersOf(rules: Certification['rules']): string {
  const counts = new Map<string, number>();
  for (const { blockedBy } of rules) if (blockedBy !== undefined) counts.set(blockedBy, (counts.get(blockedBy) ?? 0) + 1);
  if (counts.size === 0) return '';
  return ` (${[...counts].sort((a, b) => b[1] - a[1]).map(([rule, n]) => `${n} blocked by ${rule}`).join(', ')})`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** A test that stopped before its rules were judged: timed out, interrupted, never run, or failed with no rule failing. */
const incomplete = (test: TestRecord) =>
  test.status !== 'passed' && test.status !== 'skipped' && !(test.status === 'failed' && test.findings.some((f) => f.outcome === 'failed'));

export function buildCertification(run: RunInfo, tests: readonly TestRecord[], previous?: Certification): Certification {
  const findings = tests.flatMap((test) => test.findings.map((finding) => ({ ...finding, test: test.title })));
  const outcomesOf = new Map<string, Outcome[]>();
  const blockerOf = new Map<string, string>();
  for (const { rule, outcome, blockedBy } of findings) {
    outcomesOf.set(rule, [...(outcomesOf.get(rule) ?? []), outcome]);
    if (blockedBy !== undefined && !blockerOf.has(rule)) blockerOf.set(rule, blockedBy);
  }
  const blockedBy = (id: string, outcome: RuleOutcome) => (outcome === 'not-checked' && blockerOf.has(id) ? { blockedBy: blockerOf.get(id)! } : {});
  const rules: Certification['rules'] = [
    ...allRules.map((rule) => {
      const outcome = worst(outcomesOf.get(rule.id) ?? []);
      return { id: rule.id, area: areaOfRule.get(rule.id)!, field: rule.field, clause: rule.clause, level: rule.level, outcome, requirement: rule.requirement, ...blockedBy(rule.id, outcome) };
    }),
    // A rule the catalogue does not list still counts (a harness bug would show here rather than vanish).
    ...[...outcomesOf.keys()].filter((id) => !areaOfRule.has(id)).map((id) => {
      const first = findings.find((finding) => finding.rule === id)!;
      return { id, area: id.split('/')[0]!, field: first.field, clause: first.clause, level: first.level, outcome: worst(outcomesOf.get(id)!), requirement: '' };
    }),
  ];
  const ruleCounts = countsOf(rules.map((rule) => rule.outcome));
  const testsNotCompleted = tests.filter(incomplete).length;
  // A run's own status is global: 'failed' may be another partner's test. Only a cut-short run blocks every partner.
  const cutShort = run.status === 'interrupted' || run.status === 'timedout';
  const certified = ruleCounts.failed === 0 && testsNotCompleted === 0 && !cutShort;
  const problems = [
    ruleCounts.failed > 0 && `${plural(ruleCounts.failed, 'rule')} failed`,
    testsNotCompleted > 0 && `${plural(testsNotCompleted, 'test')} did not complete`,
    cutShort && ruleCounts.failed === 0 && testsNotCompleted === 0 && `the run ended ${run.status}`,
  ].filter(Boolean);
  const notes = [
    `${ruleCounts.passed} of ${plural(rules.length, 'rule')} passed`,
    plural(ruleCounts.warning, 'warning'),
    ruleCounts.info > 0 && plural(ruleCounts.info, 'note'),
    ruleCounts.skipped > 0 && `${ruleCounts.skipped} not applicable`,
    ruleCounts.notChecked > 0 && `${ruleCounts.notChecked} not checked${blockersOf(rules)}`,
  ].filter(Boolean);
  const areas = Object.entries(areaTitles).map(([area, title]) => ({ area, title, ...countsOf(rules.filter((rule) => rule.area === area).map((rule) => rule.outcome)) }));
  return {
    verdict: certified ? 'CERTIFIED' : 'NOT CERTIFIED',
    summary: [certified ? 'CERTIFIED' : 'NOT CERTIFIED', [...problems, ...notes].join(', ')].join(': '),
    counts: { rules: rules.length, ...ruleCounts, testsNotCompleted },
    run,
    areas,
    rules,
    findings,
    tests: tests.map((test) => ({
      title: test.title, ...(test.probe !== undefined ? { probe: test.probe } : {}), area: test.area, status: test.status, durationMs: Math.round(test.durationMs), errors: test.errors,
      ...(test.skipReason !== undefined ? { skipReason: test.skipReason } : {}),
      complete: !incomplete(test),
    })),
    typing: typingOf(findings),
    latency: latencyOf(tests.flatMap((test) => test.exchanges), run.targets),
    comparison: previous ? compare(rules, previous) : null,
  };
}

import { allRules, catalogue } from '../checks/catalogue';
import type { Exchange } from '../checks/evidence';
import type { Finding, Outcome, Owner, Rule } from '../checks/finding';
import { isExpired, type Waiver } from '../checks/waivers';
import { markerLegend, type Marker, type PayloadRule } from '../checks/payload';
import type { Certification, RuleOutcome, TestStatus } from './certification-schema';

export type { Certification, RuleOutcome, TestStatus };

/**
 * How the certification document (reports/out/<project>/certification.json, its schema in
 * certification-schema.ts) is built from the results of a run. Pure: the reporter gathers the tests'
 * attachments, this decides the verdict.
 */

/** What the reporter gathered of one test. */
export interface TestRecord {
  title: string;
  /** The probe the test ran, and its area (`token-exchange`): a key of `areas[]`. */
  probe?: string;
  area: string;
  /** Whose rules the test judges (its probe's); a test that says nothing of it is the partner's. */
  owner?: Owner;
  status: TestStatus;
  durationMs: number;
  errors: string[];
  skipReason?: string;
  /** The findings and exchanges of every attempt (with --retries, a failed first attempt still counts). */
  findings: Finding[];
  exchanges: Exchange[];
  /** The attempts before the last, when Playwright retried the test. */
  earlierAttempts?: { status: TestStatus; errors: string[] }[];
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
/** Each rule's owner; a rule the catalogue does not know (a harness bug) counts against the partner, so it shows. */
const ownerOfRule = new Map<string, Owner>(allRules.map((rule) => [rule.id, rule.owner]));
export const ruleOwner = (id: string): Owner => ownerOfRule.get(id) ?? 'partner';
const testOwner = (test: Pick<TestRecord, 'owner'>): Owner => test.owner ?? 'partner';
/** The spec marker (Yes*, no**…) of each field's presence rule, by rule id. */
const markerOfPresenceRule = new Map(
  (allRules as readonly (Rule<never, never> & Partial<Pick<PayloadRule, 'subject' | 'judges'>>)[])
    .filter((rule) => rule.judges === 'presence' && rule.subject)
    .map((rule) => [rule.id, rule.subject!.marker]),
);

// A rule blocked in one test but judged in another was judged; one blocked is not merely not applicable.
const severity: RuleOutcome[] = ['failed', 'waived', 'warning', 'info', 'passed', 'not-checked', 'skipped'];
const worst = (outcomes: readonly Outcome[]): RuleOutcome =>
  outcomes.length === 0 ? 'not-checked' : severity.find((candidate) => outcomes.includes(candidate))!;
export const bySeverity = <T extends { outcome: RuleOutcome }>(a: T, b: T) => severity.indexOf(a.outcome) - severity.indexOf(b.outcome);

function countsOf(outcomes: readonly RuleOutcome[]) {
  const of = (wanted: RuleOutcome) => outcomes.filter((o) => o === wanted).length;
  return {
    passed: of('passed'),
    failed: of('failed'),
    warning: of('warning'),
    info: of('info'),
    skipped: of('skipped'),
    notChecked: of('not-checked'),
    waived: of('waived'),
  };
}

/** When the user types a missing field: a failed Yes* field is never typed, since without collection sign-on stops at the error screen. */
const when = (marker: Marker, outcome: Outcome) =>
  marker === 'Yes*' && outcome === 'failed'
    ? 'never: without collectMissingAccountInfo, sign-on shows them the error screen instead'
    : markerLegend[marker].typed;

/** The omissions the platform makes the user make up for: Yes*, no** and no* fields missing from the payload. */
function typingOf(findings: readonly Finding[]): Certification['typing'] {
  const rows = new Map<string, Certification['typing'][number]>();
  for (const finding of findings) {
    const marker = markerOfPresenceRule.get(finding.rule);
    // A waiver changes the verdict, not what the platform does: a waived omission is still typed (or not).
    const outcome = finding.waivedOutcome ?? finding.outcome;
    if ((marker === 'Yes*' || marker === 'no**' || marker === 'no*') && ['failed', 'warning', 'info'].includes(outcome)) {
      rows.set(finding.field, { field: finding.field, marker, when: when(marker, outcome) });
    }
  }
  return [...rows.values()];
}

/** Nearest-rank percentile. */
const percentile = (sorted: readonly number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** The endpoints the platform calls during sign-on: the partner's own latency, which the report tabulates. */
const signOnEndpoints = ['token exchange', 'account information', 'funding sources'];

/** The exchanges with the partner's sign-on endpoints, by their name. */
function signOnCalls(exchanges: readonly Exchange[], targets: Record<string, string>): [string, Exchange][] {
  const named = new Map(
    Object.entries(targets)
      .filter(([name]) => signOnEndpoints.includes(name))
      .map(([name, url]) => [endpointKey(url), name]),
  );
  return exchanges.flatMap((exchange): [string, Exchange][] => {
    const name = named.get(endpointKey(exchange.request.url));
    return name ? [[name, exchange]] : [];
  });
}

/** The most exchanges in flight at one time. */
function mostAtOnce(exchanges: readonly Exchange[]): number {
  const edges = exchanges.flatMap(({ startedAt, durationMs }) => {
    const start = Date.parse(startedAt);
    return Number.isNaN(start)
      ? []
      : [
          [start, 1],
          [start + durationMs, -1],
        ];
  });
  edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let now = 0;
  let most = 0;
  for (const [, step] of edges) most = Math.max(most, (now += step!));
  return most;
}

function latencyOf(calls: readonly [string, Exchange][]): Certification['latency'] {
  const durations = new Map<string, number[]>();
  for (const [name, { durationMs }] of calls) durations.set(name, [...(durations.get(name) ?? []), Math.round(durationMs)]);
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
    // A rule waived before and failing now (its waiver expired or was withdrawn) regressed.
    regressed: rules.filter((rule) => rule.outcome === 'failed' && checkedBefore(rule.id) && !failedBefore(rule.id)).map((rule) => rule.id),
    new: rules.filter((rule) => rule.outcome === 'failed' && !checkedBefore(rule.id)).map((rule) => rule.id),
  };
}

/**
 * ` (178 blocked by token-exchange/encoding, 3 judged by no test that ran)`: what kept rules from being
 * judged, most first. A blocker that a waiver covers is named as waived: the rules it blocked stay unjudged;
 * one of the platform's is named as the platform's.
 */
function blockersOf(rules: Certification['rules'], all: Certification['rules'] = rules, heard: ReadonlySet<string> = new Set()): string {
  const counts = new Map<string, number>();
  let noTest = 0;
  let untrusted = 0;
  for (const { id, outcome, blockedBy } of rules) {
    if (blockedBy !== undefined) counts.set(blockedBy, (counts.get(blockedBy) ?? 0) + 1);
    else if (outcome === 'not-checked' && heard.has(id)) untrusted++;
    else if (outcome === 'not-checked') noTest++;
  }
  const waived = new Set(all.filter((rule) => rule.outcome === 'waived').map((rule) => rule.id));
  const parts = [
    ...[...counts]
      .sort((a, b) => b[1] - a[1])
      .map(
        ([rule, n]) =>
          `${n} blocked by ${ruleOwner(rule) === 'platform' ? "the platform's " : ''}${rule}${waived.has(rule) ? ' (waived, yet what it blocked was not judged)' : ''}`,
      ),
    ...(untrusted > 0 ? [`${untrusted} whose check's own control failed`] : []),
    ...(noTest > 0 ? [`${noTest} judged by no test that ran`] : []),
  ];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** One attempt that stopped before its rules were judged: timed out, interrupted, never run, or failed with no rule failing. */
const stoppedShort = (status: TestStatus, findings: readonly Finding[]) =>
  status !== 'passed' && status !== 'skipped' && !(status === 'failed' && findings.some((f) => f.outcome === 'failed'));
/** A test that did not complete: its last attempt stopped short, or an earlier one did without failing a rule. */
const incomplete = (test: TestRecord) =>
  stoppedShort(test.status, test.findings) || (test.earlierAttempts ?? []).some((attempt) => stoppedShort(attempt.status, test.findings));

/** What each waiver did this run. The findings carry the waiver that matched them (checks/waivers.ts). */
function waiversOf(waivers: readonly Waiver[], findings: readonly Finding[], rules: Certification['rules'], now: Date): Certification['waivers'] {
  const judged = new Set(rules.filter((rule) => rule.outcome !== 'not-checked').map((rule) => rule.id));
  return waivers.map((waiver, index) => {
    const number = index + 1;
    const matched = findings.filter((f) => f.waiver?.waiver === number).length;
    const status = isExpired(waiver, now) ? 'expired' : matched > 0 ? 'used' : judged.has(waiver.rule) ? 'stale' : 'unjudged';
    return { waiver: number, ...waiver, status, findings: matched };
  });
}

export interface CertificationExtras {
  /** The partner's waivers, in the file's order. */
  waivers?: readonly Waiver[];
  partial?: Certification['partial'];
  /** What keeps the results from being one whole run (reports/run-info.ts, runProblems). */
  runProblems?: readonly string[];
  /**
   * Where the platform's rules were judged, when not in this partner's own tests: once for every partner on
   * one platform, in the tests of `judgedBy`. `emulator`: the platform is the bundled emulator.
   */
  platform?: { tests?: readonly TestRecord[]; judgedBy?: string; emulator?: boolean; setupProblems?: readonly string[] };
}

/** The platform's verdict, from its own rules: never the partner's to fix. */
function platformSection(
  rules: Certification['rules'],
  tests: readonly TestRecord[],
  { judgedBy, emulator, heard, setupProblems }: { judgedBy: string; emulator: boolean; heard: ReadonlySet<string>; setupProblems: readonly string[] },
): NonNullable<Certification['platform']> {
  const counts = countsOf(rules.map((rule) => rule.outcome));
  const notCompleted = tests.filter(incomplete);
  const judged = rules.length - counts.skipped - counts.notChecked;
  const verdict =
    judged === 0 && notCompleted.length === 0
      ? 'NOT CHECKED'
      : counts.failed > 0
        ? 'DOES NOT CONFORM'
        : counts.notChecked > 0 || notCompleted.length > 0
          ? 'INCOMPLETE'
          : 'CONFORMS';
  const notes = [
    verdict === 'NOT CHECKED'
      ? `none of its ${plural(rules.length, 'rule')} was judged${rules[0]?.outcome === 'skipped' ? ' (the profile names no platform to sign on through, or no data API)' : ''}`
      : `${counts.passed} of ${plural(rules.length, 'rule')} passed`,
    counts.failed > 0 && `${plural(counts.failed, 'rule')} failed`,
    notCompleted.length > 0 && `${plural(notCompleted.length, 'test')} did not complete`,
    counts.waived > 0 && `${plural(counts.waived, 'rule')} waived`,
    verdict !== 'NOT CHECKED' && plural(counts.warning, 'warning'),
    verdict !== 'NOT CHECKED' && counts.skipped > 0 && `${counts.skipped} not applicable`,
    verdict !== 'NOT CHECKED' && counts.notChecked > 0 && `${counts.notChecked} not checked${blockersOf(rules, rules, heard)}`,
  ].filter(Boolean);
  const where = [
    emulator && "the bundled emulator: this is the harness's own self-check",
    judgedBy && `judged once for every partner on this platform, in ${judgedBy}'s tests`,
  ].filter(Boolean);
  // This partner's own credentials, which the platform refused: its set-up to fix, not the platform's failure.
  const setup = setupProblems.length > 0 ? `; this profile's own platform set-up failed: ${setupProblems.join('; ')}` : '';
  return {
    verdict,
    summary: `${verdict}: ${notes.join(', ')}${where.length > 0 ? ` (${where.join('; ')})` : ''}${setup}`,
    counts: { rules: rules.length, ...counts },
    judgedBy: judgedBy || null,
    emulator,
    setupProblems: [...setupProblems],
  };
}

/**
 * Two verdicts. The partner's, from the partner's rules alone, needs positive evidence: CERTIFIED only when
 * no partner rule failed (in any attempt), every one was judged or does not apply (said so, with why),
 * every partner test completed, and the results are one whole run; INCOMPLETE names what kept a rule from
 * being judged, a failed platform rule among them. The platform's, from its rules, is reported beside it,
 * for the platform team: a platform that fails never fails the partner. A waiver changes what a failure
 * counts as; it never makes a rule judged.
 */
export function buildCertification(
  run: RunInfo,
  tests: readonly TestRecord[],
  previous?: Certification,
  { waivers = [], partial = null, runProblems = [], platform = {} }: CertificationExtras = {},
): Certification {
  const partnerTests = tests.filter((test) => testOwner(test) === 'partner');
  const platformTests = platform.tests ?? tests.filter((test) => testOwner(test) === 'platform');
  const withTest = (test: TestRecord) => test.findings.map((finding) => ({ ...finding, test: test.title }));
  // Judged in another partner's tests, the platform's rules give their outcomes here, not that partner's
  // messages and evidence (which may quote its data): those stay in its own report.
  const findings = (platform.tests ? partnerTests : tests).flatMap(withTest);
  const outcomesOf = new Map<string, Outcome[]>();
  const blockerOf = new Map<string, string>();
  for (const { rule, outcome, blockedBy } of [...findings, ...(platform.tests ?? []).flatMap(withTest)]) {
    outcomesOf.set(rule, [...(outcomesOf.get(rule) ?? []), outcome]);
    if (blockedBy !== undefined && !blockerOf.has(rule)) blockerOf.set(rule, blockedBy);
  }
  const blockedBy = (id: string, outcome: RuleOutcome) => (outcome === 'not-checked' && blockerOf.has(id) ? { blockedBy: blockerOf.get(id)! } : {});
  /** The rules some finding spoke of: one not checked without a blocker said why it could not be judged. */
  const heard: ReadonlySet<string> = new Set(outcomesOf.keys());
  const rules: Certification['rules'] = [
    ...allRules.map((rule) => {
      const outcome = worst(outcomesOf.get(rule.id) ?? []);
      return {
        id: rule.id,
        owner: rule.owner,
        area: areaOfRule.get(rule.id)!,
        field: rule.field,
        clause: rule.clause,
        level: rule.level,
        outcome,
        requirement: rule.requirement,
        ...blockedBy(rule.id, outcome),
      };
    }),
    // A rule the catalogue does not list still counts (a harness bug would show here rather than vanish).
    ...[...outcomesOf.keys()]
      .filter((id) => !areaOfRule.has(id))
      .map((id) => {
        const first = findings.find((finding) => finding.rule === id)!;
        return {
          id,
          owner: ruleOwner(id),
          area: id.split('/')[0]!,
          field: first.field,
          clause: first.clause,
          level: first.level,
          outcome: worst(outcomesOf.get(id)!),
          requirement: '',
        };
      }),
  ];
  const partnerRules = rules.filter((rule) => rule.owner === 'partner');
  const ruleCounts = countsOf(partnerRules.map((rule) => rule.outcome));
  const notCompleted = partnerTests.filter(incomplete);
  // A run's own status is global: 'failed' may be another partner's test. Only a cut-short run blocks every partner.
  const cutShort = run.status === 'interrupted' || run.status === 'timedout';
  const unjudged = partnerRules.filter((rule) => rule.outcome === 'not-checked');
  // What stopped the run short of judging what it set out to: it did not finish, or is not one whole run.
  const stopped = [
    ...runProblems,
    notCompleted.length > 0 && `${plural(notCompleted.length, 'test')} did not complete (${notCompleted.map((test) => test.title).join('; ')})`,
    cutShort && `the run ended ${run.status}`,
  ].filter((reason): reason is string => typeof reason === 'string');
  // A partial run left rules unjudged by choice, and says so as PARTIAL; a whole one must have judged them all.
  const incompleteBecause = [
    ...stopped,
    ...(unjudged.length > 0 && !partial ? [`${plural(unjudged.length, 'rule')} not checked${blockersOf(unjudged, rules, heard)}`] : []),
  ];
  const verdict =
    ruleCounts.failed > 0
      ? 'NOT CERTIFIED'
      : stopped.length > 0
        ? 'INCOMPLETE'
        : partial
          ? 'PARTIAL'
          : incompleteBecause.length > 0
            ? 'INCOMPLETE'
            : 'CERTIFIED';
  const partnerFindings = findings.filter((finding) => ruleOwner(finding.rule) === 'partner');
  const waiverList = waiversOf(waivers, partnerFindings, partnerRules, new Date(run.finishedAt));
  const waiversThat = (status: Certification['waivers'][number]['status']) => waiverList.filter((w) => w.status === status).length;
  const problems = [
    partial &&
      `partial run: ${plural(partial.ran.length, 'test')} ran (${partial.reason})${partial.failedBeforeNotRun.length > 0 ? `, ${partial.failedBeforeNotRun.length} that failed last time did not` : ''}; run them all to certify`,
    ruleCounts.failed > 0 && `${plural(ruleCounts.failed, 'rule')} failed`,
    ...runProblems,
    notCompleted.length > 0 && `${plural(notCompleted.length, 'test')} did not complete`,
    cutShort && ruleCounts.failed === 0 && notCompleted.length === 0 && `the run ended ${run.status}`,
  ].filter(Boolean);
  const notes = [
    `${ruleCounts.passed} of ${plural(partnerRules.length, 'rule')} passed`,
    ruleCounts.waived > 0 && `${plural(ruleCounts.waived, 'rule')} waived (${plural(waiversThat('used'), 'waiver')} used)`,
    plural(ruleCounts.warning, 'warning'),
    ruleCounts.info > 0 && plural(ruleCounts.info, 'note'),
    ruleCounts.skipped > 0 && `${ruleCounts.skipped} not applicable`,
    ruleCounts.notChecked > 0 && `${ruleCounts.notChecked} not checked${blockersOf(unjudged, rules, heard)}`,
    waiversThat('expired') > 0 && plural(waiversThat('expired'), 'expired waiver'),
    waiversThat('stale') > 0 && plural(waiversThat('stale'), 'stale waiver'),
  ].filter(Boolean);
  const platformRules = rules.filter((rule) => rule.owner === 'platform');
  const platformVerdict = platformSection(platformRules, platformTests, {
    judgedBy: platform.judgedBy ?? '',
    emulator: platform.emulator ?? false,
    heard,
    setupProblems: platform.setupProblems ?? [],
  });
  // A certificate that rests on waivers says so in its first words; so does a platform that failed its own rules.
  const headline = [
    verdict === 'CERTIFIED' && waiversThat('used') > 0 ? `CERTIFIED with ${plural(waiversThat('used'), 'waiver')}` : verdict,
    platformVerdict.counts.failed > 0 && `; the platform failed ${platformVerdict.counts.failed} of its checks, not yours to fix`,
  ]
    .filter(Boolean)
    .join('');
  const areas = Object.entries(areaTitles).map(([area, title]) => ({
    area,
    title,
    ...countsOf(rules.filter((rule) => rule.area === area).map((rule) => rule.outcome)),
  }));
  const calls = signOnCalls(
    partnerTests.flatMap((test) => test.exchanges),
    run.targets,
  );
  return {
    verdict,
    summary: [headline, [...problems, ...notes].join(', ')].join(': '),
    incomplete: verdict === 'INCOMPLETE' ? incompleteBecause : [],
    counts: { rules: partnerRules.length, ...ruleCounts, testsNotCompleted: notCompleted.length },
    platform: platformVerdict,
    run,
    areas,
    rules,
    findings,
    tests: tests.map((test) => ({
      title: test.title,
      ...(test.probe !== undefined ? { probe: test.probe } : {}),
      area: test.area,
      owner: testOwner(test),
      status: test.status,
      durationMs: Math.round(test.durationMs),
      errors: test.errors,
      ...(test.skipReason !== undefined ? { skipReason: test.skipReason } : {}),
      complete: !incomplete(test),
      attempts: (test.earlierAttempts?.length ?? 0) + 1,
      earlierAttempts: test.earlierAttempts ?? [],
    })),
    typing: typingOf(partnerFindings),
    // The partner's sign-on endpoints only: the platform's (mock link, data API) and the mint URL say nothing of what a user waits for.
    latency: latencyOf(calls),
    latencyConditions: run.machine && calls.length > 0 ? { mostAtOnce: mostAtOnce(calls.map(([, exchange]) => exchange)), ...run.machine } : null,
    comparison: previous ? compare(partnerRules, previous) : null,
    waivers: waiverList,
    partial,
    artifacts: {},
    signing: null,
  };
}

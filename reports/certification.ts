import { allRules, catalogue } from '../checks/catalogue';
import type { Outcome, Owner } from '../checks/finding';
import type { Waiver } from '../checks/waivers';
import type { Certification, RuleOutcome, TestStatus } from './certification-schema';
import { compare } from './comparison';
import { platformSection } from './platform-verdict';
import { latencyOf, mostAtOnce, signOnCalls } from './sign-on-latency';
import { typingOf } from './typing';
import { blockersOf, countsOf, incomplete, plural, ruleOwner } from './verdict-counts';
import { retriesNote, retriesOf } from './code-retries';
import { waiversOf } from './waiver-use';
import { stackOfRun, withStackFix } from './stack-of-run';
import type { CollectedTest } from '../run/collected';

export type { Certification, RuleOutcome, TestStatus };

/**
 * How the certification document (reports/out/<project>/certification.json, its schema in
 * certification-schema.ts) is built from the results of a run. Pure: the run's coordinator gathers the tests'
 * records (run/collected.ts), this decides the verdict.
 */

/** What the run gathered of one test (run/collected.ts). */
export type TestRecord = Omit<CollectedTest, 'screens' | 'codeRetries'> & Partial<Pick<CollectedTest, 'screens' | 'codeRetries'>>;

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
const testOwner = (test: Pick<TestRecord, 'owner'>): Owner => test.owner ?? 'partner';

// A rule blocked in one test but judged in another was judged; one blocked is not merely not applicable.
const severity: RuleOutcome[] = ['failed', 'waived', 'warning', 'info', 'passed', 'not-checked', 'skipped'];
const worst = (outcomes: readonly Outcome[]): RuleOutcome =>
  outcomes.length === 0 ? 'not-checked' : severity.find((candidate) => outcomes.includes(candidate))!;
export const bySeverity = <T extends { outcome: RuleOutcome }>(a: T, b: T) => severity.indexOf(a.outcome) - severity.indexOf(b.outcome);

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
  const codeRetries = retriesOf(tests);
  const notes = [
    `${ruleCounts.passed} of ${plural(partnerRules.length, 'rule')} passed`,
    ruleCounts.waived > 0 && `${plural(ruleCounts.waived, 'rule')} waived (${plural(waiversThat('used'), 'waiver')} used)`,
    plural(ruleCounts.warning, 'warning'),
    ruleCounts.info > 0 && plural(ruleCounts.info, 'note'),
    ruleCounts.skipped > 0 && `${ruleCounts.skipped} not applicable`,
    ruleCounts.notChecked > 0 && `${ruleCounts.notChecked} not checked${blockersOf(unjudged, rules, heard)}`,
    waiversThat('expired') > 0 && plural(waiversThat('expired'), 'expired waiver'),
    waiversThat('stale') > 0 && plural(waiversThat('stale'), 'stale waiver'),
    codeRetries.length > 0 && retriesNote(codeRetries),
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
  const stack = stackOfRun(partnerTests);
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
    rules: rules.map(withStackFix(stack, findings)),
    stack,
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
    codeRetries,
    artifacts: {},
    signing: null,
  };
}

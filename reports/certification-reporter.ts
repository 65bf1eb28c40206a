import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { platformJudges } from '../run/platform-judges';
import { ensureRunId } from '../run/run-identity';
import { readRunJson, readSetupProblems, writeRunPlan } from '../run/run-dir';
import { certifyFromAttempts, verdictsFile } from './certification-teardown';
import { attemptOf, collectAttempt } from './collect-attempt';
import { partnerOf, reportDirsOf, type Partner, type ReportDirs } from './partner-state';
import { writeRunOutcome } from './run-outcome';
import { failsRun, incompleteOnly, notCertifiedError, writeRun, type RunVerdicts } from './write-run';

/**
 * The certification reporter. In a run it plans: when the run begins it is the one process that sees the
 * tests the run chose, and it writes which probes each partner's worker starts at once and which partner
 * judges each platform; the run's globalTeardown (reports/certification-teardown.ts) then writes the
 * certification from the records the workers left, and this reporter fails the run for a partner not
 * certified. In `playwright merge-reports` it writes the certification itself, from the merged results,
 * the same way (reports/collect-attempt.ts).
 *
 * Options (or environment): `outputDir` (CERTIFICATION_REPORT_DIR, default reports/out), `historyDir`
 * (CERTIFY_HISTORY_DIR, default reports/history: reports/history.ts) and `compare` (CERTIFY_COMPARE): the run to
 * compare with instead of the partner's previous one, a certification.json or a folder holding
 * `<project>/certification.json`. The signing key is CERTIFY_SIGNING_KEY (reports/signing.ts).
 */
export interface CertificationReporterOptions {
  outputDir?: string;
  historyDir?: string;
  compare?: string;
}

export default class CertificationReporter implements Reporter {
  private readonly dirs: ReportDirs;
  /** `playwright merge-reports`, whose exit code only a reporter's error can make non-zero. */
  private readonly merging = process.argv.includes('merge-reports');
  private config!: FullConfig;
  private readonly partners = new Map<string, Partner>();
  private verdicts: RunVerdicts | undefined;
  /** The tests the run chose, by partner; the first carries both verdicts, as annotations, into JUnit and Playwright's report. */
  private readonly chosen = new Map<string, readonly TestCase[]>();

  constructor(options: CertificationReporterOptions = {}) {
    this.dirs = reportDirsOf(options);
    // A merge reads no configuration, which names the JUnit file of a run: a JUnit reporter named after this one
    // writes beside the certification there too, never to standard output.
    if (this.merging) process.env.PLAYWRIGHT_JUNIT_OUTPUT_FILE ??= path.join(this.dirs.outputDir, 'junit.xml');
  }

  printsToStdio() {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite) {
    this.config = config;
    // Before any worker starts, so that every worker stamps one id, whatever configuration ran them.
    if (!this.merging) ensureRunId();
    for (const projectSuite of suite.suites) {
      const tests = projectSuite.allTests();
      const partner = partnerOf(projectSuite.project(), tests, this.dirs);
      if (!partner) continue;
      this.partners.set(partner.name, partner);
      this.chosen.set(partner.name, tests);
    }
    if (!this.merging) this.plan();
  }

  /**
   * Each partner's worker starts the probes of its tests at once; only this process knows which tests run.
   * The platform's checks run once a platform, in the tests of one of its partners that run them.
   */
  private plan() {
    const judges = platformJudges(
      [...this.partners.values()].filter((partner) => [...partner.tests.values()].some((test) => test.owner === 'platform')),
      new Set(Object.keys(readSetupProblems())),
    );
    const runs = (name: string, owner: string | undefined) => owner !== 'platform' || (judges[name] ?? name) === name;
    writeRunPlan({
      probes: Object.fromEntries(
        [...this.partners].map(([name, partner]) => [
          name,
          [...partner.tests.values()].filter((test) => runs(name, test.owner)).flatMap((test) => test.probe ?? []),
        ]),
      ),
      platformJudgedBy: judges,
      tests: Object.fromEntries([...this.chosen].map(([name, tests]) => [name, tests.map(({ id, title, annotations }) => ({ id, title, annotations }))])),
      reporter: { outputDir: this.dirs.outputDir, historyDir: this.dirs.historyDir, ...(this.dirs.compare ? { compare: this.dirs.compare } : {}) },
    });
  }

  /** In a merge, the results come to this reporter alone; in a run, the workers left them for the teardown. */
  onTestEnd(test: TestCase, result: TestResult) {
    const partner = this.merging ? this.partners.get(test.parent.project()?.name ?? '') : undefined;
    if (partner) collectAttempt(partner, attemptOf(test, result));
  }

  // Playwright sets the exit code from the status onEnd returns; process.exitCode would be overwritten. A
  // partner not certified fails the run even when every test passed (a retried test, a waived blocker).
  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    // The teardown wrote the run's certification; Playwright runs none past the run's global timeout, and then this does.
    this.verdicts = this.merging
      ? await this.writeMerged(result)
      : (readRunJson<RunVerdicts | undefined>(verdictsFile, undefined) ?? (await certifyFromAttempts(this.config, result)));
    if (!this.verdicts) return undefined;
    for (const [name, summary] of Object.entries(this.verdicts.summaries)) annotateVerdicts(this.chosen.get(name)?.[0], summary);
    return failsRun(this.verdicts) ? { status: result.status === 'passed' ? 'failed' : result.status } : undefined;
  }

  private async writeMerged(result: FullResult): Promise<RunVerdicts | undefined> {
    // No report without a run: a partner none of whose tests ran keeps its last one.
    for (const [name, partner] of this.partners) if (!partner.ran) this.partners.delete(name);
    if (this.partners.size === 0) return undefined;
    return (await writeRun({ partners: this.partners, result, config: this.config, dirs: this.dirs })).verdicts;
  }

  /** merge-reports exits 0 unless a reporter failed, whatever onEnd returned: a merge that did not certify every partner fails that way, so a CI job that merges shards cannot pass on an uncertified partner. */
  async onExit(): Promise<void> {
    if (!this.merging || !this.verdicts) return;
    writeRunOutcome({ incompleteOnly: incompleteOnly(this.verdicts) });
    if (failsRun(this.verdicts)) throw notCertifiedError(this.verdicts);
  }
}

/** Both verdicts on the partner's first test, which JUnit writes as properties and Playwright's report shows; a merge replaces what a shard wrote there. */
function annotateVerdicts(test: TestCase | undefined, summary: RunVerdicts['summaries'][string]) {
  if (!test) return;
  const verdicts = [
    { type: 'partner certification', description: summary.partner },
    ...(summary.platform ? [{ type: 'platform conformance', description: summary.platform }] : []),
  ];
  const kept = test.annotations.filter((annotation) => !verdicts.some((verdict) => verdict.type === annotation.type));
  test.annotations.splice(0, test.annotations.length, ...kept, ...verdicts);
}

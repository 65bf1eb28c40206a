import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult, TestStep } from '@playwright/test/reporter';
import { decide } from '../checks/outcome';
import type { TestRecord } from './certification';
import { ordinaryText, type Secret } from '../redaction/secrets';
import { harnessWords } from '../checks/harness-words';
import { redactTree } from '../redaction/files';
import { allScopes, Vault } from '../redaction/vault';
import { readTest } from '../run/channel';
import { readSetupProblems, runFolder, writeRunPlan } from '../run/run-dir';
import { ResultMasker } from './mask-results';
import { defaultReportDir, historyDirOf } from './history';
import type { Written } from './partner-files';
import { harnessVersion } from './run-info';
import { platformJudges } from '../run/platform-judges';
import { ensureRunId } from '../run/run-identity';
import { signingKeyFrom, signingKeyVariable, type SigningKey } from './signing';
import { writeRunOutcome } from './run-outcome';
import { writeOverview } from './overview-files';
import { writePartnerReport, type ReportContext } from './partner-report';
import { partnerOf, unknownArea, type Partner } from './partner-state';

/**
 * The certification reporter: for every partner project of a run it writes `<outputDir>/<project>/`
 * (certification.html and .json, exchanges.har, and certification.json.jws when a signing key is set),
 * also when tests fail, time out or the run is interrupted; keeps each run in the history; writes the
 * fleet overview (`<outputDir>/index.html` and `index.json`); then prints the verdicts and where the
 * reports are. It also passes every file the run leaves behind (traces, Playwright's HTML report) through
 * the one redaction.
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
  private readonly outputDir: string;
  private readonly historyDir: string;
  private readonly compare: string | undefined;
  private signing: SigningKey | undefined;
  /** A problem of the reporter's own (a signing key it cannot use, a report it could not write) fails the run. */
  private failed = false;
  /** `playwright merge-reports`, whose exit code only a reporter's error can make non-zero. */
  private readonly merging = process.argv.includes('merge-reports');
  /** The partners whose verdict is NOT CERTIFIED or INCOMPLETE, with it. */
  private uncertified: string[] = [];
  private config!: FullConfig;
  private startedAt = new Date();
  private readonly partners = new Map<string, Partner>();
  /** The run's secrets: every profile's, and what the workers learned (redaction/vault.ts). */
  private vault = new Vault();
  private readonly masker = new ResultMasker();

  constructor(options: CertificationReporterOptions = {}) {
    this.outputDir = path.resolve(options.outputDir ?? process.env.CERTIFICATION_REPORT_DIR ?? defaultReportDir);
    this.historyDir = path.resolve(options.historyDir ?? historyDirOf(this.outputDir));
    this.compare = options.compare ?? process.env.CERTIFY_COMPARE;
  }

  printsToStdio() {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite) {
    this.config = config;
    this.startedAt = new Date();
    // Before any worker starts, so that every worker stamps one id, whatever configuration ran them.
    if (!this.merging) ensureRunId();
    const first = config.reporter[0]?.[0] ?? '';
    if (!/certification-reporter/.test(first)) {
      console.warn(
        `the certification reporter is not the first reporter (it follows ${first}): reporters before it print and store steps, errors and attachments before they are masked; list it first`,
      );
    }
    for (const projectSuite of suite.suites) {
      const partner = partnerOf(projectSuite, { outputDir: this.outputDir, historyDir: this.historyDir, compare: this.compare });
      if (partner) this.partners.set(partner.name, partner);
    }
    // Each partner's worker starts the probes of its tests at once; only this process knows which tests run.
    // The platform's checks run once a platform, in the tests of one of its partners that run them.
    const setups = readSetupProblems();
    for (const [name, problems] of Object.entries(setups)) if (this.partners.has(name)) this.partners.get(name)!.setupProblems = problems;
    const judges = platformJudges(
      [...this.partners.values()].filter((partner) => [...partner.tests.values()].some((test) => test.owner === 'platform')),
      new Set(Object.keys(setups)),
    );
    const runs = (name: string, test: TestRecord) => test.owner !== 'platform' || (judges[name] ?? name) === name;
    writeRunPlan({
      probes: Object.fromEntries(
        [...this.partners].map(([name, partner]) => [name, [...partner.tests.values()].filter((test) => runs(name, test)).flatMap((test) => test.probe ?? [])]),
      ),
      platformJudgedBy: judges,
    });
    try {
      this.signing = signingKeyFrom();
    } catch (error) {
      console.error(`${error instanceof Error ? error.message : String(error)}; the reports are written unsigned`);
      this.failed = true;
    }
    // The signing key is the harness's own, masked everywhere; each profile's secrets mask its partner's artifacts only.
    const signingSecrets = (this.signing?.secrets ?? (process.env[signingKeyVariable] ? [process.env[signingKeyVariable]] : [])).map((value) => ({ value }));
    // With the harness's own words, ordinary text in every partner's artifacts (Secret.ordinary).
    this.vault = new Vault(
      [
        ...[...this.partners.values()].flatMap((partner) => partner.secrets.map((secret) => ({ ...secret, partner: partner.name }))),
        ...signingSecrets,
        ...ordinaryText(harnessWords),
      ],
      { dir: runFolder('vault') },
    );
  }

  /** The secrets of a test's artifacts: the harness's and its own partner's (a project of the harness's own: the harness's). */
  private secretsOf(test: TestCase): readonly Secret[] {
    return this.vault.secrets(test.parent.project()?.name ?? allScopes);
  }

  // Playwright hands every reporter the same objects, one reporter after another: masked here, in place,
  // they are masked for the list, HTML, JUnit, JSON and blob reporters that come after this one.

  onStepBegin(test: TestCase, _result: TestResult, step: TestStep) {
    this.masker.stepBegun(step, this.secretsOf(test));
  }

  onStepEnd(test: TestCase, result: TestResult, step: TestStep) {
    this.masker.stepEnded(step, result, this.secretsOf(test));
  }

  // An error of no one test (a worker that died) may quote any partner's exchange.
  onError(error: TestError) {
    this.masker.error(error, this.vault.secrets(allScopes));
  }

  onTestBegin(test: TestCase) {
    const partner = this.partners.get(test.parent.project()?.name ?? '');
    if (partner) partner.ran = true;
  }

  onTestEnd(test: TestCase, result: TestResult) {
    this.masker.test(test, result, this.secretsOf(test));
    const partner = this.partners.get(test.parent.project()?.name ?? '');
    if (!partner) return;
    const said = readTest([...result.annotations, ...test.annotations], result.attachments);
    if (said.browser) partner.chromium = said.browser;
    if (said.run) partner.stamps.push(said.run);
    if (said.judgedBy) partner.platformJudgedBy = said.judgedBy;
    const errors = [
      ...result.errors.map((error) => stripVTControlCharacters(error.message ?? error.value ?? 'unknown error')),
      ...(said.recordError ? [`"${test.title}": ${said.recordError}`] : []),
    ];
    // Decided as the test decided (checks/outcome.ts), from its record: the same findings, waivers and clock.
    const record = said.record;
    const decided = record
      ? decide(record.findings, said.owner === 'platform' ? partner.platformWaivers : partner.waivers, new Date(record.judgedAt))
      : undefined;
    // A retry never hides an attempt: every attempt's findings and exchanges count (a partner that accepts
    // a made-up code once, then refuses it, fails the rule), and the earlier attempts are listed.
    const before = result.retry > 0 ? partner.tests.get(test.id) : undefined;
    const earlier = before && before.status !== 'not-run' ? [...(before.earlierAttempts ?? []), { status: before.status, errors: before.errors }] : [];
    partner.tests.set(test.id, {
      title: test.title,
      ...(said.probe !== undefined ? { probe: said.probe } : {}),
      area: said.area ?? unknownArea,
      ...(said.owner ? { owner: said.owner } : {}),
      // A test whose record cannot be read did not complete, whatever it returned: what it judged is not known.
      status: said.recordError && result.status === 'passed' ? 'failed' : result.status,
      durationMs: result.duration + (before?.durationMs ?? 0),
      errors,
      ...(said.skipReason !== undefined ? { skipReason: said.skipReason } : {}),
      findings: [...(before?.findings ?? []), ...(decided?.findings ?? [])],
      exchanges: [...(before?.exchanges ?? []), ...(record?.exchanges ?? [])],
      ...(earlier.length > 0 ? { earlierAttempts: earlier } : {}),
      screenshots: [
        ...(before?.screenshots ?? []),
        ...said.screens.filter((screen) => existsSync(screen.path)).map((screen) => ({ name: screen.name, png: readFileSync(screen.path) })),
      ],
    });
  }

  // Playwright sets the exit code from the status onEnd returns; process.exitCode would be overwritten. A
  // partner not certified fails the run even when every test passed (a retried test, a waived blocker).
  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    // No report without a run: a partner none of whose tests ran (`--list`, a run stopped first) keeps its last one.
    for (const [name, partner] of this.partners) if (!partner.ran) this.partners.delete(name);
    if (this.partners.size === 0) return undefined;
    const harness = harnessVersion(this.config.rootDir);
    // The tests' own times, also in a merge, where the merge's clock says nothing of when the partner was tested.
    const span = { startedAt: new Date(result.startTime), finishedAt: new Date(result.startTime.getTime() + result.duration) };
    const stamps = [...this.partners.values()].flatMap((partner) => partner.stamps);
    const context: ReportContext = {
      result,
      span,
      stamps,
      harness,
      config: this.config,
      partners: this.partners,
      vault: this.vault,
      signing: this.signing,
      historyDir: this.historyDir,
    };
    const written: { partner: Partner; out: Written }[] = [];
    for (const partner of this.partners.values()) {
      try {
        written.push({ partner, out: await writePartnerReport(partner, context) });
      } catch (error) {
        // One partner's report failing to write must not cost the others theirs.
        console.error(`\n${partner.name}: the certification report could not be written: ${error instanceof Error ? error.message : String(error)}`);
        this.failed = true;
      }
    }
    try {
      writeOverview(written, span.finishedAt, { outputDir: this.outputDir, historyDir: this.historyDir });
    } catch (error) {
      console.error(`\nthe fleet overview could not be written: ${error instanceof Error ? error.message : String(error)}`);
      this.failed = true;
    }
    // A partner not certified fails the run; a platform only when it is the bundled emulator, whose checks are
    // the harness's own self-check: another platform's failure is reported, never the partner's to fix.
    this.uncertified = written.flatMap(({ partner, out: { certification: cert } }) => [
      ...(cert.verdict === 'NOT CERTIFIED' || cert.verdict === 'INCOMPLETE' ? [`${partner.name} ${cert.verdict}`] : []),
      ...(cert.platform?.emulator && cert.platform.verdict !== 'CONFORMS' && cert.platform.verdict !== 'NOT CHECKED'
        ? [`the bundled emulator ${cert.platform.verdict} (with ${partner.name})`]
        : []),
    ]);
    return this.failed || this.uncertified.length > 0 ? { status: result.status === 'passed' ? 'failed' : result.status } : undefined;
  }

  /**
   * Playwright's HTML report is written in its own onEnd; this runs after every reporter's. What it holds
   * (like JUnit's and the blob's) was masked in place, test by test, with each test's own partner's
   * secrets; here only the harness's own (the signing key) are masked once more, as data, since the report
   * holds every partner's tests and one partner's values must not rewrite another's. The certification
   * files were masked as they were written, and are signed: they are left alone.
   */
  async onExit() {
    if (this.partners.size === 0) return;
    const secrets = this.vault.secrets(harnessScope);
    const since = { since: this.startedAt };
    const failures = await redactTree(this.htmlReportDir(), secrets, since);
    for (const failure of failures) console.error(`could not mask ${failure}; it may hold a secret unmasked: delete it before sharing it`);
    if (failures.length > 0) process.exitCode = 1;
    if (!this.merging)
      writeRunOutcome({
        incompleteOnly: failures.length === 0 && !this.failed && this.uncertified.length > 0 && this.uncertified.every((one) => one.endsWith(' INCOMPLETE')),
      });
    // merge-reports exits 0 unless a reporter failed, whatever onEnd returned: a merge that did not certify
    // every partner fails that way, so a CI job that merges shards cannot pass on an uncertified partner.
    if (this.merging && (this.uncertified.length > 0 || this.failed)) {
      const error = new Error(`not certified: ${this.uncertified.join(', ') || 'the reports could not be written'}`);
      error.stack = error.message;
      throw error;
    }
  }

  private htmlReportDir(): string {
    const html = this.config.reporter.find(([name]) => name === 'html');
    const configured = (html?.[1] as { outputFolder?: string } | undefined)?.outputFolder;
    return path.resolve(
      path.dirname(this.config.configFile ?? this.config.rootDir),
      configured ?? process.env.PLAYWRIGHT_HTML_OUTPUT_DIR ?? 'playwright-report',
    );
  }
}

/** A scope no partner has: the harness's own secrets alone. */
const harnessScope = '';

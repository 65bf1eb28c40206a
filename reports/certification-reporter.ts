import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult, TestStep } from '@playwright/test/reporter';
import type { Waiver } from '../checks/waivers';
import { loadProfile } from '../partners/profile';
import { type Profile } from '../shared/profile-schema';
import { buildCertification, type Certification, type TestRecord } from './certification';
import { type TestEvidence } from './html-report';
import { ordinaryText, profileSecrets, type Secret } from '../shared/redaction/redact';
import { harnessWords } from '../checks/harness-words';
import { redactTree } from '../shared/redaction/files';
import { allScopes, Vault } from '../shared/redaction/vault';
import { readTest, type RunStamp } from '../shared/channel';
import { readSetupProblems, writeRunPlan } from '../shared/run-dir';
import { ResultMasker } from './mask-results';
import { comparedRun, defaultReportDir, historyDirOf, keepRun, readCertification, recentRuns } from './history';
import { historyShown, overviewHtml, overviewOf } from './fleet-overview';
import { files, writePartnerFiles, type Written } from './partner-files';
import { harnessVersion, partialOf, runProblems, shardsOf, type PartnerMetadata } from './run-info';
import { platformJudges } from '../shared/platform-judges';
import { ensureRunId, runIdVariable, targetsOf } from '../shared/run-identity';
import { signingKeyFrom, signingKeyVariable, type SigningKey } from './signing';
import { platformKind } from '../shared/platform-kind';

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

interface Partner {
  name: string;
  profile?: Profile;
  waivers: readonly Waiver[];
  secrets: Secret[];
  outputDir: string;
  /** What the run set out to run and call, as the project's metadata holds it (also in a merge). */
  metadata: Partial<PartnerMetadata>;
  /** Its last runs in the history, oldest first, read once when the run begins. */
  history: readonly Certification[];
  previous?: Certification;
  tests: Map<string, TestRecord & TestEvidence>;
  /** Which run each result belongs to, as the tests stamped it. */
  stamps: RunStamp[];
  /** The partner whose tests judged this one's platform, when not its own (also in a merge: the tests say so). */
  platformJudgedBy?: string;
  /** Its own platform credentials that the platform refused, as the preflight found them. */
  setupProblems?: readonly string[];
  /** The partner's first test: it carries both verdicts, as annotations, into JUnit and Playwright's report. */
  firstTest?: TestCase;
  chromium: string | null;
  /** Whether any of its tests ran: `--list`, or a run stopped before it reached the partner, writes no report. */
  ran: boolean;
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
  /** The run's secrets: every profile's, and what the workers learned (shared/redaction/vault.ts). */
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
      const project = projectSuite.project();
      // "use" in a run, "metadata" when merging blob reports of shards.
      const metadata = (project?.metadata ?? {}) as Partial<PartnerMetadata>;
      const file = metadata.profileFile ?? (project?.use as { profileFile?: string } | undefined)?.profileFile;
      if (!project || !file) continue; // the project's own tests, not a partner
      const loaded = loadProfile(file).profile;
      const profile = loaded?.profile;
      const partner: Partner = {
        name: project.name,
        ...(profile ? { profile } : {}),
        waivers: loaded?.waivers ?? [],
        secrets: loaded ? [...profileSecrets(loaded.profile, loaded.envValues), ...ordinaryText([project.name, path.basename(file)])] : [],
        outputDir: path.join(this.outputDir, project.name),
        metadata,
        history: recentRuns(this.historyDir, project.name, historyShown),
        tests: new Map(),
        stamps: [],
        chromium: null,
        ran: false,
      };
      // Read before this run overwrites it, so `--compare reports/out/<project>/certification.json` works.
      const previous = this.compare ? comparedRun(this.compare, project.name) : partner.history.at(-1);
      if (previous) partner.previous = previous;
      partner.firstTest = projectSuite.allTests()[0];
      for (const test of projectSuite.allTests()) {
        const { probe, area = unknownArea, owner } = readTest(test.annotations);
        partner.tests.set(test.id, {
          title: test.title,
          ...(probe !== undefined ? { probe } : {}),
          area,
          ...(owner ? { owner } : {}),
          status: 'not-run',
          durationMs: 0,
          errors: [],
          findings: [],
          exchanges: [],
          screenshots: [],
        });
      }
      this.partners.set(project.name, partner);
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
    this.vault = new Vault([
      ...[...this.partners.values()].flatMap((partner) => partner.secrets.map((secret) => ({ ...secret, partner: partner.name }))),
      ...signingSecrets,
      ...ordinaryText(harnessWords),
    ]);
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
    const errors = result.errors.map((error) => stripVTControlCharacters(error.message ?? error.value ?? 'unknown error'));
    // A retry never hides an attempt: every attempt's findings and exchanges count (a partner that accepts
    // a made-up code once, then refuses it, fails the rule), and the earlier attempts are listed.
    const before = result.retry > 0 ? partner.tests.get(test.id) : undefined;
    const earlier = before && before.status !== 'not-run' ? [...(before.earlierAttempts ?? []), { status: before.status, errors: before.errors }] : [];
    partner.tests.set(test.id, {
      title: test.title,
      ...(said.probe !== undefined ? { probe: said.probe } : {}),
      area: said.area ?? unknownArea,
      ...(said.owner ? { owner: said.owner } : {}),
      status: result.status,
      durationMs: result.duration + (before?.durationMs ?? 0),
      errors,
      ...(said.skipReason !== undefined ? { skipReason: said.skipReason } : {}),
      findings: [...(before?.findings ?? []), ...said.findings],
      exchanges: [...(before?.exchanges ?? []), ...said.exchanges],
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
    const written: { partner: Partner; out: Written }[] = [];
    for (const partner of this.partners.values()) {
      try {
        written.push({ partner, out: await this.write(partner, result, span, stamps, harness) });
      } catch (error) {
        // One partner's report failing to write must not cost the others theirs.
        console.error(`\n${partner.name}: the certification report could not be written: ${error instanceof Error ? error.message : String(error)}`);
        this.failed = true;
      }
    }
    try {
      this.writeOverview(written, span.finishedAt);
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

  /** Writes one partner's files, keeps the run in its history, and prints its verdict. */
  private async write(
    partner: Partner,
    result: FullResult,
    span: { startedAt: Date; finishedAt: Date },
    stamps: readonly RunStamp[],
    harness: Certification['run']['harness'],
  ): Promise<Written> {
    const tests = [...partner.tests.values()];
    const ids = [...new Set(stamps.map((stamp) => stamp.id))];
    const run = {
      partner: partner.name,
      id: ids.join(' + ') || (process.env[runIdVariable] ?? 'unknown'),
      shards: this.config.shard ? null : shardsOf(stamps),
      // As the run began: a merge reports the endpoints the shards called, not the profile's at merge time.
      targets: partner.metadata.targets ?? targetsOf(partner.profile),
      harness,
      startedAt: span.startedAt.toISOString(),
      finishedAt: span.finishedAt.toISOString(),
      status: result.status,
      node: process.version,
      playwright: this.config.version,
      chromium: partner.chromium,
      machine: { cores: availableParallelism(), loadAverage: Math.round(loadavg()[0]! * 10) / 10 },
    };
    const chosen = partialOf(tests, partner.metadata.plan, partner.previous, this.config.shard);
    // A shard is partial by nature; only a merge (or a run) that should hold every shard misses one. Results
    // that are not one whole run are that, whatever chose their tests.
    const problems = runProblems(stamps, partner.stamps, !this.config.shard && (chosen?.leftOut.length ?? 0) > 0);
    const partial = problems.length > 0 ? null : chosen;
    const judge = partner.platformJudgedBy === undefined ? undefined : this.partners.get(partner.platformJudgedBy);
    const platform = {
      emulator: partner.profile?.platform !== undefined && platformKind(partner.profile.platform) === 'emulator',
      ...(judge ? { judgedBy: judge.name, tests: [...judge.tests.values()].filter((test) => test.owner === 'platform') } : {}),
      setupProblems: partner.setupProblems ?? [],
    };
    const cert = buildCertification(run, tests, partner.previous, { waivers: partner.waivers, partial, runProblems: problems, platform });
    annotateVerdicts(partner.firstTest, cert);
    const creator = { name: 'partner-certify', version: harness.version };
    const out = await writePartnerFiles(partner.outputDir, cert, tests, { secrets: this.vault.secrets(partner.name), signing: this.signing, creator });
    // A shard's run is a part of one: the merged report's run is the one to keep.
    // The history keeps whole runs: a shard, or a run some tests were left out of, is no previous run.
    if (!this.config.shard && out.certification.verdict !== 'PARTIAL') keepRun(this.historyDir, out.json, out.certification);
    const report = path.relative(process.cwd(), path.join(partner.outputDir, files.html));
    console.log(
      `\n${partner.name}: ${cert.summary}\n  platform: ${cert.platform?.summary}\n  report: ${report} (and ${files.json}, ${files.har}${this.signing ? `, ${files.jws}` : ''} beside it)`,
    );
    return out;
  }

  /** index.html and index.json: the run's partners on one page, each with its last runs from the history. */
  private writeOverview(written: readonly { partner: Partner; out: Written }[], finishedAt: Date) {
    if (written.length === 0) return;
    const reportOf = (dir: string) => path.relative(this.outputDir, path.join(dir, files.html)).split(path.sep).join('/');
    // Every partner with a report in the folder stays on the page, the ones this run did not certify as they last were.
    const earlier = readdirSync(this.outputDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !written.some(({ partner }) => partner.name === entry.name))
      .flatMap((entry) => {
        const dir = path.join(this.outputDir, entry.name);
        const { certification } = existsSync(path.join(dir, files.json)) ? readCertification(path.join(dir, files.json)) : {};
        return certification?.run.partner === entry.name
          ? [{ certification, report: reportOf(dir), history: recentRuns(this.historyDir, entry.name, historyShown, { warn: () => {} }) }]
          : [];
      });
    const overview = overviewOf(
      [...written.map(({ partner, out }) => ({ certification: out.certification, report: reportOf(out.dir), history: partner.history })), ...earlier],
      finishedAt,
    );
    // Built from the certifications as written (masked) and the harness's own words: nothing to mask here,
    // and a partner's learned value must never rewrite another's row.
    writeFileSync(path.join(this.outputDir, 'index.json'), `${JSON.stringify(overview, null, 2)}\n`);
    writeFileSync(path.join(this.outputDir, 'index.html'), overviewHtml(overview));
    if (written.length > 1) console.log(`\noverview of ${written.length} partners: ${path.relative(process.cwd(), path.join(this.outputDir, 'index.html'))}`);
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
    if (!this.merging && failures.length === 0 && !this.failed && this.uncertified.length > 0 && this.uncertified.every((one) => one.endsWith(' INCOMPLETE')))
      exitIncomplete();
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

/**
 * Both verdicts on the partner's first test, which JUnit writes as properties and Playwright's report shows
 * (the reporters after this one end after it); a merge replaces what a shard wrote there.
 */
function annotateVerdicts(test: TestCase | undefined, cert: Certification) {
  if (!test) return;
  const verdicts = [
    { type: 'partner certification', description: cert.summary },
    ...(cert.platform ? [{ type: 'platform conformance', description: cert.platform.summary }] : []),
  ];
  const kept = test.annotations.filter((annotation) => !verdicts.some((verdict) => verdict.type === annotation.type));
  test.annotations.splice(0, test.annotations.length, ...kept, ...verdicts);
}

/** The exit code of a run that did not finish judging a partner, and failed no rule: INCOMPLETE, never NOT CERTIFIED's 1. */
export const incompleteExitCode = 3;

/**
 * Playwright exits 0, 1 or 130, whatever a reporter says, after every reporter's onExit: a run whose only
 * shortfall is an INCOMPLETE partner exits 3 instead of 1, so CI can tell "try again" from "fix this".
 */
function exitIncomplete() {
  const exit = process.exit.bind(process);
  process.exit = (code?: number | string | null) => exit(code === 1 ? incompleteExitCode : code);
}

/** A scope no partner has: the harness's own secrets alone. */
const harnessScope = '';

/** A test that is no probe's (none of the suites has one): its area is not known. */
const unknownArea = 'unknown';

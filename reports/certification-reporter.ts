import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult, TestStep } from '@playwright/test/reporter';
import { loadProfile } from '../partners/profile';
import { type Profile } from '../shared/profile-schema';
import { buildCertification, certificationSchema, type Certification, type TestRecord } from './certification';
import { certificationHtml, type TestEvidence } from './html-report';
import { profileSecrets, redact, redactValue, type Secret } from '../shared/redaction/redact';
import { redactTree } from '../shared/redaction/files';
import { Vault } from '../shared/redaction/vault';
import { readTest } from '../shared/channel';
import { writeRunPlan } from '../shared/run-dir';
import { ResultMasker } from './mask-results';

/**
 * The certification reporter: for every partner project of a run it writes
 * `<outputDir>/<project>/certification.html` and `certification.json`, also when tests fail, time out
 * or the run is interrupted, then prints the verdict and where the report is. It also passes every file
 * the run leaves behind (traces, Playwright's HTML report) through the one redaction.
 *
 * Options (or environment): `outputDir` (CERTIFICATION_REPORT_DIR, default reports/out) and `compare`
 * (CERTIFY_COMPARE): a previous certification.json, or a folder holding `<project>/certification.json`.
 */
export interface CertificationReporterOptions {
  outputDir?: string;
  compare?: string;
}

interface Partner {
  name: string;
  profile?: Profile;
  secrets: Secret[];
  outputDir: string;
  previous?: Certification;
  tests: Map<string, TestRecord & TestEvidence>;
  chromium: string | null;
}

const json = <T>(body: Buffer | undefined, fallback: T): T => {
  try {
    return body ? (JSON.parse(body.toString('utf8')) as T) : fallback;
  } catch {
    return fallback;
  }
};

function targetsOf(profile: Profile | undefined): Record<string, string> {
  if (!profile) return {};
  const targets: Record<string, string | undefined> = {
    'token exchange': profile.tokenExchangeUrl,
    'account information': profile.accountInfoUrl,
    'funding sources': profile.fundingSourcesUrl,
    'mock link': profile.platform && `${profile.platform.url}/v1/auth/providers/standard/create-mock-link`,
    'auth URL': profile.platform && `${profile.platform.url}/${profile.platform.partnerName}/auth`,
    'data API': profile.dataApi?.baseUrl,
  };
  return Object.fromEntries(Object.entries(targets).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function harnessVersion(rootDir: string) {
  const version = json<{ version?: string }>(readFileSync(path.join(__dirname, '../package.json')), {}).version ?? 'unknown';
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=12'], { cwd: rootDir, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // not a git checkout
  }
  return { version, commit };
}

export default class CertificationReporter implements Reporter {
  private readonly outputDir: string;
  private readonly compare: string | undefined;
  private config!: FullConfig;
  private startedAt = new Date();
  private readonly partners = new Map<string, Partner>();
  /** The run's secrets: every profile's, and what the workers learned (shared/redaction/vault.ts). */
  private vault = new Vault();
  private readonly masker = new ResultMasker();

  constructor(options: CertificationReporterOptions = {}) {
    this.outputDir = path.resolve(options.outputDir ?? process.env.CERTIFICATION_REPORT_DIR ?? 'reports/out');
    this.compare = options.compare ?? process.env.CERTIFY_COMPARE;
  }

  printsToStdio() {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite) {
    this.config = config;
    this.startedAt = new Date();
    const first = config.reporter[0]?.[0] ?? '';
    if (!/certification-reporter/.test(first)) {
      console.warn(`the certification reporter is not the first reporter (it follows ${first}): reporters before it print and store steps, errors and attachments before they are masked; list it first`);
    }
    for (const projectSuite of suite.suites) {
      const project = projectSuite.project();
      // "use" in a run, "metadata" when merging blob reports of shards.
      const file = (project?.metadata as { profileFile?: string } | undefined)?.profileFile ?? (project?.use as { profileFile?: string } | undefined)?.profileFile;
      if (!project || !file) continue; // the project's own tests, not a partner
      const loaded = loadProfile(file).profile;
      const profile = loaded?.profile;
      const partner: Partner = {
        name: project.name,
        ...(profile ? { profile } : {}),
        secrets: loaded ? profileSecrets(loaded.profile, loaded.envValues) : [],
        outputDir: path.join(this.outputDir, project.name),
        tests: new Map(),
        chromium: null,
      };
      // Read before this run overwrites it, so `--compare reports/out/<project>/certification.json` works.
      const previous = this.previousFor(project.name);
      if (previous) partner.previous = previous;
      for (const test of projectSuite.allTests()) {
        const { probe, area = unknownArea } = readTest(test.annotations);
        partner.tests.set(test.id, { title: test.title, ...(probe !== undefined ? { probe } : {}), area, status: 'not-run', durationMs: 0, errors: [], findings: [], exchanges: [], screenshots: [] });
      }
      this.partners.set(project.name, partner);
    }
    // Each partner's worker starts the probes of its tests at once; only this process knows which tests run.
    writeRunPlan(Object.fromEntries([...this.partners].map(([name, partner]) => [name, [...partner.tests.values()].flatMap((test) => test.probe ?? [])])));
    this.vault = new Vault([...this.partners.values()].flatMap((partner) => partner.secrets));
  }

  // Playwright hands every reporter the same objects, one reporter after another: masked here, in place,
  // they are masked for the list, HTML, JUnit, JSON and blob reporters that come after this one.

  onStepBegin(_test: TestCase, _result: TestResult, step: TestStep) {
    this.masker.stepBegun(step, this.vault.secrets());
  }

  onStepEnd(_test: TestCase, result: TestResult, step: TestStep) {
    this.masker.stepEnded(step, result, this.vault.secrets());
  }

  onError(error: TestError) {
    this.masker.error(error, this.vault.secrets());
  }

  onTestEnd(test: TestCase, result: TestResult) {
    this.masker.test(test, result, this.vault.secrets());
    const partner = this.partners.get(test.parent.project()?.name ?? '');
    if (!partner) return;
    const said = readTest([...result.annotations, ...test.annotations], result.attachments);
    if (said.browser) partner.chromium = said.browser;
    partner.tests.set(test.id, {
      title: test.title,
      ...(said.probe !== undefined ? { probe: said.probe } : {}),
      area: said.area ?? unknownArea,
      status: result.status,
      durationMs: result.duration,
      errors: result.errors.map((error) => stripVTControlCharacters(error.message ?? error.value ?? 'unknown error')),
      ...(said.skipReason !== undefined ? { skipReason: said.skipReason } : {}),
      findings: said.findings,
      exchanges: said.exchanges,
      screenshots: said.screens.filter((screen) => existsSync(screen.path)).map((screen) => ({ name: screen.name, png: readFileSync(screen.path) })),
    });
  }

  async onEnd(result: FullResult) {
    const finishedAt = new Date();
    if (this.partners.size === 0) return;
    const harness = harnessVersion(this.config.rootDir);
    for (const partner of this.partners.values()) {
      try {
        this.write(partner, result, finishedAt, harness);
      } catch (error) {
        // One partner's report failing to write must not cost the others theirs.
        console.error(`\n${partner.name}: the certification report could not be written: ${error instanceof Error ? error.message : String(error)}`);
        process.exitCode = 1;
      }
    }
  }

  /** Writes one partner's certification.json and .html, and prints its verdict. */
  private write(partner: Partner, result: FullResult, finishedAt: Date, harness: ReturnType<typeof harnessVersion>) {
    const tests = [...partner.tests.values()];
    const cert = buildCertification(
      {
        partner: partner.name,
        targets: targetsOf(partner.profile),
        harness,
        startedAt: this.startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        status: result.status,
        node: process.version,
        playwright: this.config.version,
        chromium: partner.chromium,
      },
      tests,
      partner.previous,
    );
    mkdirSync(partner.outputDir, { recursive: true });
    const secrets = this.vault.secrets();
    // Masked as data: a secret never rewrites a key or the structure, so the report is always written.
    const safe = redactValue(cert, secrets);
    const jsonFile = path.join(partner.outputDir, 'certification.json');
    const htmlFile = path.join(partner.outputDir, 'certification.html');
    const $schema = path.relative(partner.outputDir, path.join(__dirname, '../schemas/certification.schema.json'));
    writeFileSync(jsonFile, `${JSON.stringify({ $schema, ...safe }, null, 2)}\n`);
    writeFileSync(htmlFile, redact(certificationHtml(safe, tests), secrets));
    const shard = this.config.shard ? ` [shard ${this.config.shard.current} of ${this.config.shard.total}: partial, merge the shards' blob reports for the certification]` : '';
    console.log(`\n${partner.name}: ${cert.summary}${shard}\n  report: ${path.relative(process.cwd(), htmlFile)} (and certification.json beside it)`);
  }

  /** Playwright's HTML report and JUnit XML are written in their own onEnd; this runs after every reporter's. */
  async onExit() {
    const secrets = this.vault.secrets();
    if (this.partners.size === 0) return;
    const since = { since: this.startedAt };
    const failures = (await Promise.all([redactTree(this.htmlReportDir(), secrets, since), redactTree(this.outputDir, secrets, since)])).flat();
    for (const failure of failures) console.error(`could not mask ${failure}; it may hold a secret unmasked: delete it before sharing it`);
    if (failures.length > 0) process.exitCode = 1;
  }

  private htmlReportDir(): string {
    const html = this.config.reporter.find(([name]) => name === 'html');
    const configured = (html?.[1] as { outputFolder?: string } | undefined)?.outputFolder;
    return path.resolve(path.dirname(this.config.configFile ?? this.config.rootDir), configured ?? process.env.PLAYWRIGHT_HTML_OUTPUT_DIR ?? 'playwright-report');
  }

  private previousFor(project: string): Certification | undefined {
    if (!this.compare) return undefined;
    let file = path.resolve(this.compare);
    if (existsSync(file) && statSync(file).isDirectory()) {
      const inProject = path.join(file, project, 'certification.json');
      file = existsSync(inProject) ? inProject : path.join(file, 'certification.json');
    }
    try {
      const parsed = certificationSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.success) return parsed.data;
      console.warn(`--compare: ${file} is not a certification.json (${parsed.error.issues[0]?.message ?? 'invalid'}); the report is written without a comparison`);
    } catch (error) {
      console.warn(`--compare: cannot read ${file} (${error instanceof Error ? error.message : String(error)}); the report is written without a comparison`);
    }
    return undefined;
  }
}

/** A test that is no probe's (none of the suites has one): its area is not known. */
const unknownArea = 'unknown';

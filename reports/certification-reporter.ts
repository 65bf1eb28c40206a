import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { loadProfile } from '../partners/profile';
import type { ChosenTest } from '../run/collected';
import { coordinator } from '../run/coordinator';
import { parseSaid, saidAttachment } from '../run/events';
import type { RunOutcome } from '../run/outcome';
import { detailsOf } from '../run/test-details';
import { reportDirsOf } from './report-dirs';
import type { PartnerMetadata } from './run-info';
import { certifyRun } from './write-run';

/**
 * The certification reporter, optional and read-only: it writes nothing itself, and changes nothing of what it is
 * handed. In a run it is the run's coordinator's window on the tests the run chose (run/coordinator.ts `choose`):
 * Playwright shows them to reporters alone, after `-g`, `file:line`, `--shard` and `--last-failed` chose them and
 * before any worker starts, so each partner's worker starts those probes at once, and a test that never began did
 * not finish. Without it the run certifies all the same (each probe runs when its test comes). In `playwright
 * merge-reports` it hands the coordinator the merged results, which it certifies as a run's, and fails the merge
 * for a partner not certified.
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
  /** `playwright merge-reports`, whose exit code only a reporter's error can make non-zero. */
  private readonly merging = process.argv.includes('merge-reports');
  private config!: FullConfig;
  private outcome: RunOutcome | undefined;

  constructor(private readonly options: CertificationReporterOptions = {}) {
    coordinator().registerTap({ ...options });
  }

  printsToStdio() {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite) {
    this.config = config;
    const chosen = new Map<string, ChosenTest[]>();
    for (const projectSuite of suite.suites) {
      const project = projectSuite.project();
      const metadata = partnerMetadata(project);
      if (!project || !metadata) continue; // the harness's own tests, not a partner's
      if (this.merging) mergedPartner(project.name, metadata);
      chosen.set(
        project.name,
        projectSuite.allTests().map(({ id, title, annotations }) => ({ id, title, details: detailsOf(annotations) })),
      );
    }
    coordinator().choose(chosen);
  }

  /** In a merge, the results come to this reporter alone; in a run, through the run's channel. */
  onTestEnd(test: TestCase, result: TestResult) {
    const project = test.parent.project()?.name;
    if (!this.merging || !project) return;
    const body = result.attachments.find((attachment) => attachment.name === saidAttachment)?.body;
    const read = body === undefined ? undefined : parseSaid(body.toString());
    coordinator().mergedAttempt(project, {
      title: test.title,
      testId: test.id,
      retry: result.retry,
      ...(read && 'said' in read ? { said: { ...read.said, screens: screensOf(result, read.said.screens) } } : {}),
      ...(read && 'error' in read ? { unreadable: read.error } : {}),
      status: result.status,
      durationMs: result.duration,
      errors: result.errors.map((error) => error.message ?? error.value ?? 'unknown error'),
    });
  }

  /**
   * In a run, the certification was written by the run's globalTeardown; past the run's global timeout Playwright
   * runs none, and this writes it. In a merge, this writes it.
   */
  async onEnd(result: FullResult): Promise<void> {
    this.outcome = await coordinator().finish(this.config, certifyRun(this.config, reportDirsOf(this.options)), this.merging ? result : undefined);
  }

  /** merge-reports exits 0 unless a reporter failed: a merge that did not certify every partner fails so, and a CI job that merges shards cannot pass. */
  async onExit(): Promise<void> {
    const failure = this.merging && this.outcome ? coordinator().failure(this.outcome) : undefined;
    if (failure) throw failure;
  }
}

/** A partner project's metadata (playwright.config.ts), which a blob report keeps; none for the harness's own projects. */
function partnerMetadata(project: ReturnType<Suite['project']>): Partial<PartnerMetadata> | undefined {
  const metadata: Partial<PartnerMetadata> = project?.metadata ?? {};
  return metadata.profileFile === undefined ? undefined : metadata;
}

/** A partner known from a merge's blob reports: the waivers its run decided with, and its profile's secrets where this machine can read it. */
function mergedPartner(name: string, metadata: Partial<PartnerMetadata>) {
  const loaded = metadata.profileFile ? loadProfile(metadata.profileFile).profile : undefined;
  coordinator().addPartner(name, { waivers: metadata.waivers ?? [], platformWaivers: metadata.platformWaivers ?? [] }, loaded);
}

/** The screens a merged attempt attached, where the merge put them. */
function screensOf(result: TestResult, screens: readonly { name: string }[]) {
  return screens.flatMap(({ name }) => {
    const file = result.attachments.find((attachment) => attachment.name === `screen: ${name}`)?.path;
    return file ? [{ name, path: file }] : [];
  });
}

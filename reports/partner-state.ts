import path from 'node:path';
import type { FullProject } from '@playwright/test/reporter';
import type { Waiver } from '../checks/waivers';
import { loadProfile } from '../partners/profile';
import { type Profile } from '../profile/profile-schema';
import type { Certification, TestRecord } from './certification';
import type { TestEvidence } from './html-evidence';
import { ordinaryText, profileSecrets, type Secret } from '../redaction/secrets';
import { readTest, type RunStamp } from '../run/channel';
import type { PlannedTest } from '../run/run-dir';
import { comparedRun, defaultReportDir, historyDirOf, recentRuns } from './history';
import { historyShown } from './fleet-overview';
import type { PartnerMetadata } from './run-info';

/** What the certification reporter holds of one partner through a run, and how it sets it up when the run begins. */

export interface Partner {
  name: string;
  profile?: Profile;
  waivers: readonly Waiver[];
  /** platform.waivers.json beside the profile: the waivers of the platform's rules. */
  platformWaivers: readonly Waiver[];
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
  chromium: string | null;
  /** Whether any of its tests ran: `--list`, or a run stopped before it reached the partner, writes no report. */
  ran: boolean;
}

/** A test that is no probe's (none of the suites has one): its area is not known. */
export const unknownArea = 'unknown';

/** Where a run's certification goes: options of the certification reporter, or their environment variables. */
export interface ReportDirs {
  outputDir: string;
  historyDir: string;
  compare: string | undefined;
}

/** The certification reporter's options `outputDir`, `historyDir` and `compare`, else CERTIFICATION_REPORT_DIR, CERTIFY_HISTORY_DIR and CERTIFY_COMPARE. */
export function reportDirsOf(options: Partial<ReportDirs> = {}, env: NodeJS.ProcessEnv = process.env): ReportDirs {
  const outputDir = path.resolve(options.outputDir ?? env.CERTIFICATION_REPORT_DIR ?? defaultReportDir);
  return { outputDir, historyDir: path.resolve(options.historyDir ?? historyDirOf(outputDir, env)), compare: options.compare ?? env.CERTIFY_COMPARE };
}

/**
 * The partner a project certifies, with the tests the run chose, none run yet (those whose attempts never
 * come did not finish); none for a project of the harness's own tests.
 */
export function partnerOf(
  project: Pick<FullProject, 'name' | 'metadata' | 'use'> | undefined,
  chosen: readonly PlannedTest[],
  { outputDir, historyDir, compare }: ReportDirs,
): Partner | undefined {
  // "use" in a run, "metadata" when merging blob reports of shards.
  const metadata = (project?.metadata ?? {}) as Partial<PartnerMetadata>;
  const file = metadata.profileFile ?? (project?.use as { profileFile?: string } | undefined)?.profileFile;
  if (!project || !file) return undefined; // the project's own tests, not a partner
  const loaded = loadProfile(file).profile;
  const profile = loaded?.profile;
  const partner: Partner = {
    name: project.name,
    ...(profile ? { profile } : {}),
    waivers: loaded?.waivers ?? [],
    platformWaivers: loaded?.platformWaivers ?? [],
    secrets: loaded ? [...profileSecrets(loaded.profile, loaded.envValues), ...ordinaryText([project.name, path.basename(file)])] : [],
    outputDir: path.join(outputDir, project.name),
    metadata,
    history: recentRuns(historyDir, project.name, historyShown),
    tests: new Map(),
    stamps: [],
    chromium: null,
    ran: false,
  };
  // Read before this run overwrites it, so `--compare reports/out/<project>/certification.json` works.
  const previous = compare ? comparedRun(compare, project.name) : partner.history.at(-1);
  if (previous) partner.previous = previous;
  for (const test of chosen) {
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
  return partner;
}

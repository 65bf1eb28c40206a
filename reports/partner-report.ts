import { readFileSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import type { FullConfig, FullResult } from '@playwright/test/reporter';
import { buildCertification, type Certification, type RunInfo } from './certification';
import type { CollectedPartner } from '../run/collected';
import type { Egress } from '../run/egress';
import type { RunStamp } from '../run/events';
import { comparedRun, keepRun, recentRuns } from './history';
import { historyShown } from './fleet-overview';
import { files, writePartnerFiles, type Written } from './partner-files';
import type { ReportDirs } from './report-dirs';
import { partialOf, runProblems, shardsOf, type PartnerMetadata } from './run-info';
import { targetsOf } from '../run/run-identity';
import type { SigningKey } from './signing';
import { platformKind } from '../profile/platform-kind';

/** How one partner's report is written when the run ends. */

/** What every partner's report is written with: the run's. */
export interface ReportContext {
  result: FullResult;
  span: { startedAt: Date; finishedAt: Date };
  stamps: readonly RunStamp[];
  harness: Certification['run']['harness'];
  config: FullConfig;
  /** Every partner of the run: the one that judged a partner's platform is among them. */
  partners: ReadonlyMap<string, CollectedPartner>;
  egress: Egress;
  signing: SigningKey | undefined;
  dirs: ReportDirs;
}

/** What the project's metadata says the run set out to run and call (also in a merge: a blob keeps it). */
export const metadataOf = (config: FullConfig, name: string): Partial<PartnerMetadata> =>
  config.projects.find((project) => project.name === name)?.metadata ?? {};

/** The run as one partner's report states it. */
function runInfoOf(partner: CollectedPartner, { result, span, stamps, harness, config }: ReportContext): RunInfo {
  const ids = [...new Set(stamps.map((stamp) => stamp.id))];
  return {
    partner: partner.name,
    id: ids.join(' + ') || 'unknown',
    shards: config.shard ? null : shardsOf(stamps),
    // As the run began: a merge reports the endpoints the shards called, not the profile's at merge time.
    targets: metadataOf(config, partner.name).targets ?? targetsOf(partner.loaded?.profile),
    harness,
    startedAt: span.startedAt.toISOString(),
    finishedAt: span.finishedAt.toISOString(),
    status: result.status,
    node: process.version,
    playwright: config.version,
    chromium: partner.chromium,
    machine: { cores: availableParallelism(), loadAverage: Math.round(loadavg()[0]! * 10) / 10 },
  };
}

/** Writes one partner's files, keeps the run in its history, and prints its verdict. */
export async function writePartnerReport(partner: CollectedPartner, context: ReportContext): Promise<Written & { history: readonly Certification[] }> {
  const { stamps, harness, config, partners, signing, dirs } = context;
  const egress = context.egress.for(partner.name);
  const tests = [...partner.tests.values()].map((test) => ({ ...test, screenshots: test.screens.flatMap(readScreen) }));
  const history = recentRuns(dirs.historyDir, partner.name, historyShown, { warn: (line) => egress.warn(line) });
  // Read before this run overwrites it, so `--compare reports/out/<project>/certification.json` works.
  const previous = dirs.compare ? comparedRun(dirs.compare, partner.name, (line) => egress.warn(line)) : history.at(-1);
  const run = runInfoOf(partner, context);
  const metadata = metadataOf(config, partner.name);
  const chosen = partialOf(tests, metadata.plan, previous, config.shard);
  // A shard is partial by nature; only a merge (or a run) that should hold every shard misses one. Results
  // that are not one whole run are that, whatever chose their tests.
  const problems = runProblems(stamps, partner.stamps, !config.shard && (chosen?.leftOut.length ?? 0) > 0);
  const partial = problems.length > 0 ? null : chosen;
  const judge = partner.platformJudgedBy === undefined ? undefined : partners.get(partner.platformJudgedBy);
  const profile = partner.loaded?.profile;
  const platform = {
    emulator: metadata.emulator ?? (profile?.platform !== undefined && platformKind(profile.platform) === 'emulator'),
    ...(judge ? { judgedBy: judge.name, tests: [...judge.tests.values()].filter((test) => test.owner === 'platform') } : {}),
    setupProblems: partner.setupProblems,
  };
  const creator = { name: 'partner-certify', version: harness.version };
  const inputs = { tests, targets: run.targets, waivers: partner.waivers, platform, problems };
  const out = await writePartnerFiles(
    path.join(dirs.outputDir, partner.name),
    inputs,
    (masked) =>
      buildCertification({ ...run, targets: masked.targets }, masked.tests, previous, {
        waivers: masked.waivers,
        partial,
        runProblems: masked.problems,
        platform: masked.platform,
      }),
    { egress, signing, creator },
  );
  const cert = out.certification;
  // The history keeps whole runs: a shard, or a run some tests were left out of, is no previous run.
  if (!config.shard && out.certification.verdict !== 'PARTIAL') await keepRun(dirs.historyDir, out, egress);
  const report = path.relative(process.cwd(), path.join(out.dir, files.html));
  egress.print(
    `\n${partner.name}: ${cert.summary}\n  platform: ${cert.platform?.summary}${stackSaid(cert)}\n  report: ${report} (and ${files.json}, ${files.har}${signing ? `, ${files.jws}` : ''} beside it)`,
  );
  return { ...out, history };
}

/** The partner's OAuth library when it was named, and the fixes on it of the rules that failed or warned, one a line. */
function stackSaid(cert: Certification): string {
  if (!cert.stack || !('library' in cert.stack)) return '';
  const fixes = cert.rules.flatMap((rule) => (rule.stackFix ? [`\n    ${rule.id}: ${rule.stackFix.fix} (${rule.stackFix.docs})`] : []));
  return `\n  OAuth server: ${cert.stack.library}${fixes.join('')}`;
}

/** A screen a browser showed, as its test left it (a file the test attached); one that is gone is left out. */
function readScreen({ name, path: file }: { name: string; path: string }): { name: string; png: Buffer }[] {
  try {
    return [{ name, png: readFileSync(file) }];
  } catch {
    return [];
  }
}

import path from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import type { FullConfig, FullResult } from '@playwright/test/reporter';
import { buildCertification, type Certification, type RunInfo } from './certification';
import type { Vault } from '../redaction/vault';
import type { RunStamp } from '../run/channel';
import { keepRun } from './history';
import { files, writePartnerFiles, type Written } from './partner-files';
import type { Partner } from './partner-state';
import { partialOf, runProblems, shardsOf } from './run-info';
import { runIdVariable, targetsOf } from '../run/run-identity';
import type { SigningKey } from './signing';
import { platformKind } from '../profile/platform-kind';

/** How the certification reporter writes one partner's report when the run ends. */

/** What every partner's report is written with: the run's and the reporter's. */
export interface ReportContext {
  result: FullResult;
  span: { startedAt: Date; finishedAt: Date };
  stamps: readonly RunStamp[];
  harness: Certification['run']['harness'];
  config: FullConfig;
  /** Every partner of the run: the one that judged a partner's platform is among them. */
  partners: ReadonlyMap<string, Partner>;
  vault: Vault;
  signing: SigningKey | undefined;
  historyDir: string;
}

/** The run as one partner's report states it. */
function runInfoOf(partner: Partner, { result, span, stamps, harness, config }: ReportContext): RunInfo {
  const ids = [...new Set(stamps.map((stamp) => stamp.id))];
  return {
    partner: partner.name,
    id: ids.join(' + ') || (process.env[runIdVariable] ?? 'unknown'),
    shards: config.shard ? null : shardsOf(stamps),
    // As the run began: a merge reports the endpoints the shards called, not the profile's at merge time.
    targets: partner.metadata.targets ?? targetsOf(partner.profile),
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
export async function writePartnerReport(partner: Partner, context: ReportContext): Promise<Written> {
  const { stamps, harness, config, partners, vault, signing, historyDir } = context;
  const tests = [...partner.tests.values()];
  const run = runInfoOf(partner, context);
  const chosen = partialOf(tests, partner.metadata.plan, partner.previous, config.shard);
  // A shard is partial by nature; only a merge (or a run) that should hold every shard misses one. Results
  // that are not one whole run are that, whatever chose their tests.
  const problems = runProblems(stamps, partner.stamps, !config.shard && (chosen?.leftOut.length ?? 0) > 0);
  const partial = problems.length > 0 ? null : chosen;
  const judge = partner.platformJudgedBy === undefined ? undefined : partners.get(partner.platformJudgedBy);
  const platform = {
    emulator: partner.profile?.platform !== undefined && platformKind(partner.profile.platform) === 'emulator',
    ...(judge ? { judgedBy: judge.name, tests: [...judge.tests.values()].filter((test) => test.owner === 'platform') } : {}),
    setupProblems: partner.setupProblems ?? [],
  };
  const cert = buildCertification(run, tests, partner.previous, { waivers: partner.waivers, partial, runProblems: problems, platform });
  const creator = { name: 'partner-certify', version: harness.version };
  const out = await writePartnerFiles(partner.outputDir, cert, tests, {
    secrets: vault.secrets(partner.name),
    runWide: vault.runWideSecrets(),
    signing,
    creator,
  });
  // A shard's run is a part of one: the merged report's run is the one to keep.
  // The history keeps whole runs: a shard, or a run some tests were left out of, is no previous run.
  if (!config.shard && out.certification.verdict !== 'PARTIAL') keepRun(historyDir, out.json, out.certification);
  const report = path.relative(process.cwd(), path.join(partner.outputDir, files.html));
  console.log(
    `\n${partner.name}: ${cert.summary}\n  platform: ${cert.platform?.summary}\n  report: ${report} (and ${files.json}, ${files.har}${signing ? `, ${files.jws}` : ''} beside it)`,
  );
  return out;
}

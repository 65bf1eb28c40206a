import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { RunStamp } from '../run/events';
import { runIdVariable } from '../run/run-identity';
import type { Waiver } from '../checks/waivers';
import type { Certification } from './certification';
import { packageRoot } from '../run/package-root';

/** What a certification says of the run itself: the endpoints certified, and the harness that did it. */

/**
 * What playwright.config.ts puts in each partner project's metadata, which a blob report keeps: the
 * profile's file, the plan (every probe a certification runs, one test each) and the endpoints the run
 * called, as the run began.
 */
export interface PartnerMetadata {
  profileFile: string;
  plan: readonly { probe: string; title: string }[];
  targets: Record<string, string>;
  /** Whether the partner signs on through the bundled emulator. */
  emulator: boolean;
  /** The waivers the run decided with, as loaded when it began: a merge decides nothing, and reports these. */
  waivers: readonly Waiver[];
  platformWaivers: readonly Waiver[];
}

export function harnessVersion(rootDir: string): Certification['run']['harness'] {
  let version = 'unknown';
  try {
    version = z.object({ version: z.string() }).safeParse(JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8'))).data?.version ?? version;
  } catch {
    // no package.json beside the harness
  }
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=12'], { cwd: rootDir, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    // not a git checkout
  }
  return { version, commit };
}

/**
 * Why a partner's run is partial, or null when it is whole: judged by what ran against the plan, never by
 * reading options, so -g, --grep-invert, a grep in the config, file:line, test.only, --last-failed and
 * --only-changed are all seen alike. A shard's own run is partial by nature; a merge of every shard is
 * partial when its shards left tests out. Without a plan (a configuration of the user's own), a run that
 * left out tests that failed in the partner's previous run is partial.
 */
export function partialOf(
  tests: readonly { title: string; probe?: string; status: string }[],
  plan: PartnerMetadata['plan'] | undefined,
  previous: Certification | undefined,
  shard: { current: number; total: number } | null,
): Certification['partial'] {
  const titles = new Set(tests.map((test) => test.title));
  const probes = new Set(tests.flatMap((test) => test.probe ?? []));
  const leftOut = (plan ?? []).filter((planned) => !probes.has(planned.probe)).map((planned) => planned.title);
  const failedBeforeNotRun = (previous?.tests ?? [])
    .filter((test) => test.status !== 'passed' && test.status !== 'skipped' && !titles.has(test.title))
    .map((test) => test.title);
  const reason = shard
    ? `shard ${shard.current} of ${shard.total}; merge the shards' blob reports for the certification`
    : leftOut.length > 0
      ? `${leftOut.length} of the partner's ${plan!.length} tests were left out of the run`
      : failedBeforeNotRun.length > 0 && !plan
        ? 'tests that failed last time were left out'
        : undefined;
  if (reason === undefined) return null;
  return { reason, ran: tests.filter((test) => test.status !== 'not-run' && test.status !== 'skipped').map((test) => test.title), leftOut, failedBeforeNotRun };
}

/**
 * What keeps the results of a run, or of a merge of blob reports, from being one whole run: results of
 * several runs (each shard of a run carries its CERTIFY_RUN_ID), of different profiles, or of different
 * splits into shards, and shards whose blobs are missing while tests of the plan did not run.
 * `stamps` are every result's of the run or merge, all partners'; `partner` one partner's.
 */
export function runProblems(stamps: readonly RunStamp[], partner: readonly RunStamp[], testsLeftOut: boolean): string[] {
  const problems: string[] = [];
  const ids = [...new Set(stamps.map((stamp) => stamp.id))];
  if (ids.length > 1)
    problems.push(
      `the results come from ${ids.length} different runs (${ids.join(', ')}); merge only the blobs of one run, whose shards all ran with one ${runIdVariable}`,
    );
  if (new Set(partner.map((stamp) => stamp.profile)).size > 1)
    problems.push('its tests ran with different profiles; run every shard from one checkout and one profile');
  const totals = [...new Set(stamps.flatMap((stamp) => stamp.shard?.total ?? []))];
  if (totals.length > 1) problems.push(`the results come from runs split into ${totals.join(' and ')} shards; merge the shards of one run`);
  else if (totals.length === 1 && testsLeftOut) {
    const seen = new Set(stamps.flatMap((stamp) => stamp.shard?.current ?? []));
    const missing = Array.from({ length: totals[0]! }, (_, i) => i + 1).filter((n) => !seen.has(n));
    if (missing.length > 0)
      problems.push(
        `${missing.length === 1 ? 'shard' : 'shards'} ${missing.join(', ')} of ${totals[0]} ${missing.length === 1 ? 'is' : 'are'} missing from the merge; gather every shard's blob report`,
      );
  }
  return problems;
}

/** Which shards a merged run holds, or null for a run that was not sharded. */
export function shardsOf(stamps: readonly RunStamp[]): Certification['run']['shards'] {
  const total = stamps.find((stamp) => stamp.shard)?.shard?.total;
  if (total === undefined) return null;
  return { total, merged: [...new Set(stamps.flatMap((stamp) => stamp.shard?.current ?? []))].sort((a, b) => a - b) };
}

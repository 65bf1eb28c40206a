import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Certification } from '../../reports/certification';
import { overviewSchema } from '../../reports/fleet-overview';
import { partnersDir } from '../support/profiles';
import { runPlaywright } from '../support/run-playwright';
import { certificationOf, profileOf, signing } from '../support/signed-runs';
import { tempDir } from '../support/temp';

/**
 * Certification as a program (certification-program.spec.ts), for runs that are not one whole run: shards,
 * merged afterwards, and runs that reach no test. What each writes, and what it keeps out of the history.
 */

// Each test gives its runs a history folder of its own.
const env = (dir: string) => signing(dir);

test("two shards merged: each shard is partial and kept out of the history; the merge writes the certification, the overview and the history, with the waivers the run decided with, whatever the merging machine's say", async () => {
  test.setTimeout(120_000);
  const dir = partnersDir({ delta: profileOf(['apostrophe-last-name']) });
  const waivers = path.join(dir, 'delta.waivers.json');
  const waiver = {
    rule: 'account-info/user.lastName/pattern',
    reason: 'the platform accepts apostrophes',
    approvedBy: 'Platform Integration',
    expires: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
  };
  writeFileSync(waivers, JSON.stringify({ waivers: [waiver] }));
  const shardHistory = tempDir('shard-history-');
  // One run, so one CERTIFY_RUN_ID on every shard, as a CI run's id would be.
  const shards = await Promise.all(
    [1, 2].map((n) =>
      runPlaywright(
        ['--project=delta', `--shard=${n}/2`],
        { ...env(dir), CERTIFY_HISTORY_DIR: shardHistory, CERTIFY_RUN_ID: 'ci-run-4711' },
        { reporters: ['certification', 'blob'] },
      ),
    ),
  );
  for (const [index, shard] of shards.entries()) {
    const partial = certificationOf(shard, 'delta');
    expect(partial.verdict, partial.summary).toBe('PARTIAL');
    expect(partial.partial?.reason).toMatch(new RegExp(`^shard ${index + 1} of 2`));
  }
  expect(readdirSync(shardHistory)).toEqual([]);
  const blobs = tempDir('blobs-');
  for (const [index, shard] of shards.entries())
    copyFileSync(path.join(shard.out, 'blob-report', readdirSync(path.join(shard.out, 'blob-report'))[0]!), path.join(blobs, `shard-${index + 1}.zip`));
  const merged = tempDir('merged-');
  // The merging machine's waivers file says nothing: a merge decides nothing again, and reports the run's.
  rmSync(waivers);
  const merge = spawnSync(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'merge-reports', `--reporter=${path.resolve('reports/certification-reporter.ts')}`, blobs],
    {
      encoding: 'utf8',
      env: { ...process.env, ...env(dir), CERTIFY_HISTORY_DIR: shardHistory, CERTIFICATION_REPORT_DIR: merged },
    },
  );
  expect(merge.status, merge.stderr).toBe(0);
  const certification = JSON.parse(readFileSync(path.join(merged, 'delta', 'certification.json'), 'utf8')) as Certification;
  expect(certification.summary).toMatch(/^CERTIFIED with 1 waiver: /);
  expect(certification.waivers).toEqual([expect.objectContaining({ waiver: 1, status: 'used', reason: waiver.reason })]);
  expect(certification.partial).toBeNull();
  expect(certification.run).toMatchObject({ id: 'ci-run-4711', shards: { total: 2, merged: [1, 2] } });
  expect(overviewSchema.parse(JSON.parse(readFileSync(path.join(merged, 'index.json'), 'utf8'))).partners.map((p) => [p.partner, p.verdict])).toEqual([
    ['delta', 'CERTIFIED'],
  ]);
  expect(readdirSync(path.join(shardHistory, 'delta'))).toHaveLength(1);
});

test('--list, and a run that reaches no test of a partner, write no report, no overview and no history', async () => {
  const dir = partnersDir({ foxtrot: profileOf([]) });
  const history = tempDir('list-history-');
  const listed = await runPlaywright(['--project=foxtrot', '--list'], { ...env(dir), CERTIFY_HISTORY_DIR: history }, { reporters: ['certification'] });
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain('Total: ');
  const nothingRan = await runPlaywright(
    ['--project=foxtrot', '-g', 'no test has this title'],
    { ...env(dir), CERTIFY_HISTORY_DIR: history },
    { reporters: ['certification'] },
  );
  for (const run of [listed, nothingRan]) expect(existsSync(path.join(run.out, 'certification'))).toBe(false);
  expect(readdirSync(history)).toEqual([]);
});

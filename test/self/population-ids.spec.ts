import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { edited } from '../support/account-info-payloads';
import { shardKey } from '../support/shard-key';
import { tempDir } from '../support/temp';

/**
 * account-info/user.id/unique (issue 52, item 7), through the real command: records sharing a user.id are counted
 * exactly in one run, estimated within the stated error after a merge of shards, and said with what the platform
 * does with them.
 */

const cli = [path.resolve('node_modules/tsx/dist/cli.mjs'), path.resolve('scripts/population.ts')];
const now = '2026-11-28';
type Report = { sharedIds: { records: number; repeats: number; sharedIds: number; exact: boolean; estimatedRepeats: number; margin: number } };

test('twenty records with one user.id, and 2,000 ids each given to two records: counted exactly, estimated after a merge, and said', () => {
  const dir = tempDir('population-ids-');
  const user = (id: string) => JSON.stringify(edited({ 'user.id': id }));
  const lines = [
    ...Array.from({ length: 20 }, () => user('the-one-id')),
    ...Array.from({ length: 4000 }, (_, i) => user(`twice-${i % 2000}`)),
    ...Array.from({ length: 6000 }, (_, i) => user(`once-${i}`)),
  ];
  const input = path.join(dir, 'users.jsonl');
  writeFileSync(input, lines.join('\n'));
  const env = { ...process.env, POPULATION_SHARD_KEY: shardKey };
  // The date is the shards' to give; a merge takes theirs (and refuses --now).
  const run = (args: string[]) => spawnSync(process.execPath, [...cli, ...args, ...(args[0] === 'merge' ? [] : ['--now', now])], { encoding: 'utf8', env });
  const whole = run([input, '--out', path.join(dir, 'whole')]);
  expect(whole.status, whole.stderr).toBe(0);
  const read = (out: string) => (JSON.parse(readFileSync(path.join(dir, out, 'population.json'), 'utf8')) as Report).sharedIds;
  expect(read('whole')).toEqual({ records: 10_020, repeats: 2019, sharedIds: 2001, exact: true, estimatedRepeats: 2019, margin: 0 });
  expect(whole.stdout).toContain(
    'account-info/user.id/unique failed: 2,019 records share their user.id with an earlier record (2,001 ids shared). The platform keys each account by user.id',
  );
  for (const n of [1, 2]) expect(run([input, '--shard', `${n}/2`, '--out', path.join(dir, 'parts')]).status).toBe(0);
  const merged = run([
    'merge',
    path.join(dir, 'parts', 'population-summary.1-of-2.json'),
    path.join(dir, 'parts', 'population-summary.2-of-2.json'),
    '--out',
    path.join(dir, 'merged'),
  ]);
  expect(merged.status, merged.stderr).toBe(0);
  const estimated = read('merged');
  expect(estimated.exact).toBe(false);
  // 8,001 distinct ids: the estimate of the repeats is off by at most three standard errors of the distinct ids.
  expect(Math.abs(estimated.repeats - 2019)).toBeLessThanOrEqual(3 * 0.0081 * 8001);
  expect(merged.stdout).toMatch(/account-info\/user\.id\/unique failed: (about|at least) [\d,]+ records share their user\.id with another record/);
});

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { edited } from '../support/account-info-payloads';
import { shardKey } from '../support/shard-key';
import { tempDir } from '../support/temp';

/**
 * Bounds that never change the answer (issue 52, item 11), through the real command: past the shapes a rule keeps,
 * the heaviest are kept and no catch-all is shown as a shape; a shape 1,000 users share is shown among 99,000
 * shapes each user's own, in one run and after a merge of shards.
 */

const cli = [path.resolve('node_modules/tsx/dist/cli.mjs'), path.resolve('scripts/population.ts')];
const now = '2026-11-28';
type Report = { fixFirst: { rule: string; users: number; shapes: { shape: string; count: number }[]; rareShapes: number; shapesOff: number }[] };

test("a shape 1,000 users share is shown among 99,000 shapes each user's own; no catch-all, and the bound is said", () => {
  const dir = tempDir('population-bounds-');
  const marks = ['1', '-', ' ', '.', ','];
  const own = (i: number) => {
    let text = "X'";
    for (let n = i; n > 0; n = Math.floor(n / marks.length)) text += marks[n % marks.length];
    return `${text}1`;
  };
  const base = JSON.stringify(edited({ 'user.lastName': 'LASTNAME' }));
  // Each a person of their own (k counts people by user.id).
  const lines = Array.from({ length: 100_000 }, (_, i) =>
    base.replace('"LASTNAME"', JSON.stringify(i % 100 === 0 ? "O'Brien" : own(i))).replace('"u-1001"', JSON.stringify(`u-${i}`)),
  );
  const input = path.join(dir, 'users.jsonl');
  writeFileSync(input, lines.join('\n'));
  const env = { ...process.env, POPULATION_SHARD_KEY: shardKey };
  const run = (args: string[]) => spawnSync(process.execPath, [...cli, ...args], { encoding: 'utf8', env, maxBuffer: 1 << 26 });
  const whole = run([input, '--now', now, '--out', path.join(dir, 'whole')]);
  expect(whole.status, whole.stderr).toBe(0);
  for (const n of [1, 2]) expect(run([input, '--now', now, '--shard', `${n}/2`, '--out', path.join(dir, 'parts')]).status).toBe(0);
  const merged = run(['merge', ...[1, 2].map((n) => path.join(dir, 'parts', `population-summary.${n}-of-2.json`)), '--out', path.join(dir, 'merged')]);
  expect(merged.status, merged.stderr).toBe(0);
  for (const out of ['whole', 'merged']) {
    const report = JSON.parse(readFileSync(path.join(dir, out, 'population.json'), 'utf8')) as Report;
    const pattern = report.fixFirst.find((fix) => fix.rule === 'account-info/user.lastName/pattern')!;
    expect(pattern.users, out).toBe(100_000);
    const shared = pattern.shapes.find((shape) => shape.shape === "A'Aaaaa");
    expect(shared, out).toBeDefined();
    expect(shared!.count, out).toBeLessThanOrEqual(1000);
    expect(shared!.count, out).toBeGreaterThanOrEqual(1000 - pattern.shapesOff);
    expect(pattern.shapesOff, out).toBeLessThan(1000);
    expect(
      pattern.shapes.map((shape) => shape.shape),
      out,
    ).not.toContain('…');
    expect(pattern.rareShapes + pattern.shapes.reduce((sum, shape) => sum + shape.count, 0), out).toBe(100_000);
  }
});

test('k counts people, not records: one user exported five times shows no shape at k=5, five users sharing it do', () => {
  const dir = tempDir('population-bounds-');
  const user = (id: string, lastName: string) => JSON.stringify(edited({ 'user.id': id, 'user.lastName': lastName }));
  const lines = [
    ...Array.from({ length: 5 }, () => user('the-same-person', 'Żółw')),
    ...Array.from({ length: 5 }, (_, i) => user(`person-${i}`, "O'Neil")),
    ...Array.from({ length: 20 }, (_, i) => user(`clean-${i}`, 'Lovelace')),
  ];
  const input = path.join(dir, 'users.jsonl');
  writeFileSync(input, lines.join('\n'));
  const run = spawnSync(process.execPath, [...cli, input, '--now', now, '--k', '5', '--out', path.join(dir, 'out')], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const report = JSON.parse(readFileSync(path.join(dir, 'out', 'population.json'), 'utf8')) as Report;
  const pattern = report.fixFirst.find((fix) => fix.rule === 'account-info/user.lastName/pattern')!;
  expect(pattern.users).toBe(10);
  expect(pattern.shapes).toEqual([{ shape: "A'Aaaa", count: 5 }]);
  expect(pattern.rareShapes).toBe(5);
  expect(readFileSync(path.join(dir, 'out', 'population.html'), 'utf8')).not.toContain('Ääää');
  const tooBig = spawnSync(process.execPath, [...cli, input, '--k', '21'], { encoding: 'utf8' });
  expect([tooBig.status, tooBig.stderr.split('\n')[0]]).toEqual([2, '--k 21: at most 20, the people a shape remembers']);
});

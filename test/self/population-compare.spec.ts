import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { edited } from '../support/account-info-payloads';
import { tempDir } from '../support/temp';

/** This export against the last (issue 52, item 6), through the real command: `--compare` and `population compare`. */

const cli = [path.resolve('node_modules/tsx/dist/cli.mjs'), path.resolve('scripts/population.ts')];
const population = (args: string[]) => spawnSync(process.execPath, [...cli, ...args], { encoding: 'utf8' });

test('the next export against the last: each outcome and each rule that moved, in the console, the report and its JSON', () => {
  const dir = tempDir('population-compare-');
  const users = (apostrophes: number, poBoxes: number) =>
    Array.from({ length: 100 }, (_, i) =>
      JSON.stringify(
        edited({
          'user.id': `u-${i}`,
          ...(i < apostrophes ? { 'user.lastName': "O'Brien" } : {}),
          ...(i >= 50 && i < 50 + poBoxes ? { 'company.address.line1': 'PO Box 12' } : {}),
        }),
      ),
    ).join('\n');
  writeFileSync(path.join(dir, 'march.jsonl'), users(20, 10));
  writeFileSync(path.join(dir, 'april.jsonl'), users(5, 12));
  const march = population([path.join(dir, 'march.jsonl'), '--now', '2026-03-31', '--out', path.join(dir, 'march')]);
  expect(march.status, march.stderr).toBe(0);
  const april = population([
    path.join(dir, 'april.jsonl'),
    '--now',
    '2026-04-30',
    '--out',
    path.join(dir, 'april'),
    '--compare',
    path.join(dir, 'march', 'population.json'),
  ]);
  expect(april.status, april.stderr).toBe(0);
  const lines = [
    'Since the report of 2026-03-31 (100 payloads):',
    '  sign in, nothing asked: 70 → 83 (+13, +13.0 points)',
    '  asked before the first payment: 0 → 0 (±0, ±0.0 points)',
    '  type fields at sign-on: 0 → 0 (±0, ±0.0 points)',
    '  see the error screen: 30 → 17 (−13, −13.0 points)',
    '  account-info/user.lastName/pattern: 20 → 5 users (−15)',
    '  account-info/company.address.line1/po-box: 10 → 12 users (+2)',
  ];
  expect(april.stdout).toContain(lines.join('\n'));
  const report = JSON.parse(readFileSync(path.join(dir, 'april', 'population.json'), 'utf8')) as { comparison: { rules: { rule: string; change: number }[] } };
  expect(report.comparison.rules).toEqual([
    { rule: 'account-info/user.lastName/pattern', before: 20, after: 5, change: -15 },
    { rule: 'account-info/company.address.line1/po-box', before: 10, after: 12, change: 2 },
  ]);
  expect(readFileSync(path.join(dir, 'april', 'population.html'), 'utf8')).toContain('<h2>Since the report of 2026-03-31</h2>');
  const alone = population(['compare', path.join(dir, 'march', 'population.json'), path.join(dir, 'april', 'population.json')]);
  expect([alone.status, alone.stdout.trim()]).toEqual([0, lines.join('\n')]);
  const wrong = population(['compare', path.join(dir, 'march.jsonl'), path.join(dir, 'april', 'population.json')]);
  expect([wrong.status, wrong.stderr.split('\n')[0]]).toEqual([2, `${path.join(dir, 'march.jsonl')}: not a population.json (not JSON)`]);
});

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { signOnDecision } from '../../checks/sign-on-decision';
import { generatePopulation } from '../../population/generate';
import { outcomeOf } from '../../population/tally';
import { tempDir } from '../support/temp';

/**
 * `--records-out`: the partner's own list of which users to fix (issue 52, item 1), through the real command: a row a
 * record, in input order, with the outcome the report counts; ids as given and nothing else of any payload.
 */

const cli = [path.resolve('node_modules/tsx/dist/cli.mjs'), path.resolve('scripts/population.ts')];
const now = '2026-11-28';
const population = (args: string[]) => spawnSync(process.execPath, [...cli, ...args, '--now', now], { encoding: 'utf8', maxBuffer: 1 << 26 });
type Row = { line: number; 'user.id': unknown; 'company.id': unknown; outcome: string; rules: string[] };

test('the records file of 100,000 generated users: each user in input order, with the outcome the platform decides and the report counts', () => {
  const dir = tempDir('population-records-');
  const users = [...generatePopulation({ users: 100_000, seed: 3, now: new Date(`${now}T00:00:00Z`) })];
  const input = path.join(dir, 'users.jsonl');
  writeFileSync(input, users.map((user) => JSON.stringify(user)).join('\n'));
  const records = path.join(dir, 'mine', 'records.jsonl');
  const run = population([input, '--records-out', records, '--out', path.join(dir, 'out'), '--workers', '2']);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain(`Records: ${records} (each record's outcome and deciding rules, with your users' ids: for you alone, never to share)`);
  const rows = readFileSync(records, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Row);
  expect(rows.map((row) => row.line)).toEqual(users.map((_, i) => i + 1));
  const ctx = { now: new Date(`${now}T00:00:00Z`), collectMissingAccountInfo: false };
  const wrong = rows.filter(
    (row, i) => row.outcome !== outcomeOf(signOnDecision(users[i], ctx)) || row['user.id'] !== ((users[i] as { user?: { id?: unknown } }).user?.id ?? null),
  );
  expect(wrong.slice(0, 3)).toEqual([]);
  const report = JSON.parse(readFileSync(path.join(dir, 'out', 'population.json'), 'utf8')) as { outcomes: Record<string, { count: number }>; records: string };
  const counted: Record<string, number> = {};
  for (const row of rows) counted[row.outcome] = (counted[row.outcome] ?? 0) + 1;
  expect(Object.fromEntries(Object.entries(report.outcomes).map(([outcome, { count }]) => [outcome, count]))).toEqual({
    'signs-in': 0,
    'asked-before-payment': 0,
    'typed-at-sign-on': 0,
    'error-screen': 0,
    ...counted,
  });
  expect(report.records).toBe(records);
  // population.json is what its published schema says, as a pipeline reading it validates it.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ajv.validate(JSON.parse(readFileSync('schemas/population.schema.json', 'utf8')) as object, report);
  expect(ajv.errors ?? []).toEqual([]);
  // The rules: none for a user who signs straight in; for one at the error screen, the rules that failed.
  expect(rows.filter((row) => row.outcome === 'signs-in').every((row) => row.rules.length === 0)).toBe(true);
  expect(rows.filter((row) => row.outcome === 'error-screen').every((row) => row.rules.length > 0)).toBe(true);
  expect(readFileSync(path.join(dir, 'out', 'population.html'), 'utf8')).toContain('never to be shared with this report');
});

test('nothing of a payload but its ids reaches the records file, in CSV or JSON Lines; an id that a spreadsheet would run is kept from running', () => {
  const dir = tempDir('population-records-');
  const planted: string[] = [];
  let n = 0;
  const plant = (node: unknown): unknown => {
    if (typeof node === 'string') {
      const value = `Zq${(n++).toString(36)}Xv`;
      planted.push(value);
      return value;
    }
    if (Array.isArray(node)) return node.map(plant);
    if (typeof node === 'object' && node !== null) return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, plant(value)]));
    return node;
  };
  const users = [...generatePopulation({ users: 300, seed: 9, now: new Date(`${now}T00:00:00Z`) })].map((user, i) => {
    const marked = plant(user) as { user: Record<string, unknown>; company: Record<string, unknown> };
    return { ...marked, user: { ...marked.user, id: i === 0 ? '=HYPERLINK("x")' : `user-${i}` }, company: { ...marked.company, id: `co,${i}` } };
  });
  const input = path.join(dir, 'users.jsonl');
  writeFileSync(input, users.map((user) => JSON.stringify(user)).join('\n'));
  for (const file of ['records.csv', 'records.jsonl']) {
    const run = population([input, '--records-out', path.join(dir, file), '--out', path.join(dir, 'out')]);
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const value of planted) if (text.includes(value)) throw new Error(`${file} holds the planted value ${value}`);
    expect(text).toContain(file.endsWith('.csv') ? `user-1,"co,1",` : '"user.id":"user-1","company.id":"co,1"');
  }
  expect(readFileSync(path.join(dir, 'records.csv'), 'utf8').split('\n')[1]).toMatch(/^1,"'=HYPERLINK\(""x""\)","co,0",/);
  // Never over an input, nor in the reports' folder, which is shared.
  const over = population([input, '--records-out', input]);
  expect([over.status, over.stderr.split('\n')[0]]).toEqual([
    2,
    `--records-out ${input}: that is the input ${input}, which it would overwrite; name another file`,
  ]);
  expect(readFileSync(input, 'utf8')).toContain('user-1');
  const shared = population([input, '--records-out', path.join(dir, 'out', 'ids.csv'), '--out', path.join(dir, 'out')]);
  expect(shared.status).toBe(2);
  expect(shared.stderr).toContain("which is shared; the records file holds your users' ids: keep it elsewhere");
  const wrong = population([input, '--records-out', path.join(dir, 'records.txt')]);
  expect([wrong.status, wrong.stderr.split('\n')[0]]).toEqual([2, `--records-out ${path.join(dir, 'records.txt')}: name a .csv or a .jsonl file`]);
});

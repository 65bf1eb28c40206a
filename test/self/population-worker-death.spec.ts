import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { generatePopulation } from '../../population/generate';
import { populationReportSchema } from '../../population/report-schema';
import { populationRun } from '../support/population-cli';
import { shardKey } from '../support/shard-key';
import { tempDir } from '../support/temp';

/**
 * A worker that dies never ends the run (issue 52, item 10), through the real command: two records that each exhaust a
 * worker's heap (bounded lower here, so that a record within the size bounds can) are found, counted as worker-died by
 * line number, and every other record is judged as in a run without them, in the report and in the records file.
 */

const now = '2026-11-28';
// 1 MiB of empty objects: within the record bounds, about 23 MB of heap once parsed.
const heapEater = JSON.stringify({ user: { id: 'eater', firstName: Array.from({ length: 340_000 }, () => ({})) }, company: {} });

test('a record that kills its worker is found by halves and counted; every other record is judged as without it', async () => {
  const dir = tempDir('population-worker-death-');
  const users = [...generatePopulation({ users: 20_000, seed: 5, now: new Date(`${now}T00:00:00Z`) })].map((user) => JSON.stringify(user));
  writeFileSync(path.join(dir, 'clean.jsonl'), users.join('\n'));
  const planted = [...users];
  planted.splice(18_000, 0, heapEater);
  planted.splice(0, 0, heapEater);
  writeFileSync(path.join(dir, 'planted.jsonl'), planted.join('\n'));
  const env = { PARTNER_CERTIFY_WORKER_HEAP_MB: '24' };
  const run = (name: string) =>
    populationRun(
      [path.join(dir, `${name}.jsonl`), '--now', now, '--workers', '1', '--out', path.join(dir, name), '--records-out', path.join(dir, `${name}.csv`)],
      shardKey,
      env,
    );
  const [clean, killing] = await Promise.all([run('clean'), run('planted')]);
  expect(clean.status, clean.stderr).toBe(0);
  expect(killing.status, killing.stderr).toBe(0);
  const report = (name: string) => populationReportSchema.parse(JSON.parse(readFileSync(path.join(dir, name, 'population.json'), 'utf8')));
  const [before, after] = [report('clean'), report('planted')];
  expect(before.input.unreadable).toEqual([]);
  expect(after.input.unreadable).toEqual([{ problem: 'worker-died', count: 2, lines: [1, 18_002] }]);
  expect(after.input.notes.join('\n')).toMatch(
    /workers stopped \(ERR_WORKER_OUT_OF_MEMORY\) and were replaced; 2 records a worker died on again when judged alone are counted as worker-died/,
  );
  expect(after.outcomes).toEqual(before.outcomes);
  expect(after.fixFirst).toEqual(before.fixFirst);
  // The records file: the same rows, each at its line, and a worker-died row for each planted record. The second is
  // in the eleventh batch of 1 MiB, past two checkpoints (every 4 batches), so its worker's replacement starts from one.
  const rows = (name: string) =>
    readFileSync(path.join(dir, `${name}.csv`), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
  const renumbered = rows('clean').map((row) => {
    const line = Number(row.slice(0, row.indexOf(',')));
    return `${line + (line >= 18_001 ? 2 : 1)}${row.slice(row.indexOf(','))}`;
  });
  renumbered.splice(18_000, 0, '18002,,,unreadable,worker-died');
  renumbered.splice(0, 0, '1,,,unreadable,worker-died');
  expect(rows('planted')).toEqual(renumbered);
});

test('records that kill workers batch after batch: every other record is judged as itself, at its line (the fifteenth red team)', async () => {
  // A record that kills its worker in every batch: each batch is halved, and the halves of one batch were given back
  // to be used again twice, so two later batches were written into one memory while a worker read it.
  const dir = tempDir('population-worker-deaths-');
  const users = [...generatePopulation({ users: 12, seed: 9, now: new Date(`${now}T00:00:00Z`) })].map((user, i) =>
    JSON.stringify({ ...user, user: { ...(user.user as object), id: `u${i + 1}` } }),
  );
  const lines = users.flatMap((user, i) => [heapEater.replace('"eater"', `"eater${i + 1}"`), user]);
  writeFileSync(path.join(dir, 'eaters.jsonl'), lines.join('\n'));
  const args = ['--now', now, '--workers', '1', '--max-unreadable', '100%', '--records-out', path.join(dir, 'eaters.csv'), '--out', path.join(dir, 'report')];
  const run = await populationRun([path.join(dir, 'eaters.jsonl'), ...args], shardKey, { PARTNER_CERTIFY_WORKER_HEAP_MB: '24' });
  expect(run.status, run.stderr).toBe(0);
  const rows = readFileSync(path.join(dir, 'eaters.csv'), 'utf8').trim().split('\n').slice(1);
  const expected = users.flatMap((_, i) => [`${2 * i + 1},,,unreadable,worker-died`, `${2 * i + 2},u${i + 1},`]);
  expect(rows.map((row, i) => (i % 2 ? row.slice(0, expected[i]!.length) : row))).toEqual(expected);
});

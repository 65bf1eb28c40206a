import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { generatePopulation } from '../../population/generate';
import { shardKey } from '../support/shard-key';
import { populationRun } from '../support/population-cli';
import { tempDir } from '../support/temp';

/**
 * Shard summaries that can be trusted (issue 52, item 9), through the real command: the whole summary sealed and
 * authenticated with its place in the split; the merge refuses a changed file, a shard twice, shards of two splits, a
 * missing shard, a weak key, and an export given for a summary, each in one line that quotes nothing of the file.
 */

const now = '2026-11-28';
const key = shardKey;
const population = (args: string[], shardKey = key) => populationRun(args, shardKey);

test('a shard summary shows nothing without the key, and a merge refuses what it cannot trust, naming the file', async () => {
  const dir = tempDir('population-shards-');
  const input = path.join(dir, 'users.jsonl');
  writeFileSync(input, [...generatePopulation({ users: 2000, seed: 11, now: new Date(`${now}T00:00:00Z`) })].map((user) => JSON.stringify(user)).join('\n'));
  const shardsOf = (count: number) =>
    Array.from({ length: count }, (_, i) => population([input, '--now', now, '--shard', `${i + 1}/${count}`, '--out', path.join(dir, `of-${count}`)]));
  const other = path.join(dir, 'other.jsonl');
  writeFileSync(other, [...generatePopulation({ users: 1500, seed: 12, now: new Date(`${now}T00:00:00Z`) })].map((user) => JSON.stringify(user)).join('\n'));
  const runs = await Promise.all([...shardsOf(2), ...shardsOf(3), population([other, '--now', now, '--shard', '2/2', '--out', path.join(dir, 'other')])]);
  for (const run of runs) expect(run.status, run.stderr).toBe(0);
  const file = (index: number, count: number) => path.join(dir, `of-${count}`, `population-summary.${index}-of-${count}.json`);

  // Sealed whole: no rule, shape, advice or count in clear; only the shard's place.
  const text = readFileSync(file(1, 2), 'utf8');
  expect(Object.keys(JSON.parse(text) as object)).toEqual(['populationShardSummary', 'shard', 'sealed']);
  expect(text).not.toMatch(/account-info|error-screen|is …|"A/);

  const changed = path.join(dir, 'changed.json');
  const sealed = (JSON.parse(text) as { sealed: string }).sealed;
  writeFileSync(changed, text.replace(sealed, `${sealed.slice(0, 40)}${sealed[40] === 'A' ? 'B' : 'A'}${sealed.slice(41)}`));
  const moved = path.join(dir, 'moved.json');
  writeFileSync(moved, text.replace('"index": 1', '"index": 2'));
  const added = path.join(dir, 'added.json');
  writeFileSync(added, text.replace('"sealed"', '"note": "mine",\n  "sealed"'));
  const exportFile = path.join(dir, 'export.jsonl');
  writeFileSync(exportFile, '{"user": {"id": "u-1"}, "company": {"taxInfo": {"identifier": "987-65-4321"}}}\n{"tax": "987654321');

  const [whole, tampered, renumbered, twice, splits, missing, weak, notHex, anExport, pattern, mixed, extra] = await Promise.all([
    population(['merge', file(1, 2), file(2, 2), '--out', path.join(dir, 'merged')]),
    population(['merge', changed, file(2, 2)]),
    population(['merge', moved, file(1, 2)]),
    population(['merge', file(1, 2), file(1, 2)]),
    population(['merge', file(1, 2), file(2, 3)]),
    population(['merge', file(1, 3), file(3, 3)]),
    population(['merge', file(1, 2), file(2, 2)], 'abcd1234'),
    population(['merge', file(1, 2), file(2, 2)], 'correct horse battery staple, and more words'),
    population(['merge', exportFile, file(2, 2)]),
    population(['merge', file(1, 2), file(2, 2)], '00'.repeat(32)),
    population(['merge', file(1, 2), path.join(dir, 'other', 'population-summary.2-of-2.json')]),
    population(['merge', added, file(2, 2)]),
  ]);
  expect([pattern.status, pattern.stderr.split('\n')[0]]).toEqual([
    2,
    'population merge: POPULATION_SHARD_KEY is a pattern, not random bytes; make one with `openssl rand -hex 32` and give it to every shard and the merge',
  ]);
  expect([mixed.status, mixed.stderr.trim()]).toEqual([
    1,
    `population merge: ${file(1, 2)} and ${path.join(dir, 'other', 'population-summary.2-of-2.json')} are shards of different inputs (2,000 and 1,500 records read): judge every shard of one export`,
  ]);
  expect(whole.status, whole.stderr).toBe(0);
  const refused = (run: typeof whole) => [run.status, run.stderr.trim()];
  expect(refused(tampered)).toEqual([1, expect.stringMatching(new RegExp(`^population merge: ${changed}: does not open with POPULATION_SHARD_KEY`))]);
  expect(refused(renumbered)).toEqual([1, expect.stringMatching(new RegExp(`^population merge: ${moved}: does not open with POPULATION_SHARD_KEY`))]);
  expect(refused(extra)).toEqual([
    1,
    `population merge: ${added}: not a shard's summary; give the population-summary.<i>-of-<n>.json files the shards wrote (with --shard)`,
  ]);
  expect(refused(twice)).toEqual([1, `population merge: ${file(1, 2)} and ${file(1, 2)} are both shard 1 of 2: give each shard once`]);
  expect(refused(splits)).toEqual([1, `population merge: ${file(1, 2)} is a shard of 2 and ${file(2, 3)} of 3: merge the shards of one split`]);
  expect(refused(missing)).toEqual([1, "population merge: shard 2 of 3 is missing: merge every shard's summary, or the counts are of part of the users"]);
  expect(weak.status).toBe(2);
  expect(weak.stderr).toContain('POPULATION_SHARD_KEY holds 32 bits, fewer than 256; make one with `openssl rand -hex 32`');
  expect(notHex.status).toBe(2);
  expect(notHex.stderr).toContain('POPULATION_SHARD_KEY is not hex');
  expect(refused(anExport)).toEqual([
    1,
    `population merge: ${exportFile}: not a shard's summary (not JSON); give the population-summary.<i>-of-<n>.json files the shards wrote`,
  ]);
  expect(anExport.stderr).not.toMatch(/4321|987/);
});

import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { edited } from '../support/account-info-payloads';
import { populationRun } from '../support/population-cli';
import { tempDir } from '../support/temp';

/**
 * The second outside red team's breaks of the population command (issue 52), each replayed through the real command
 * as it broke it: inputs kept whatever the paths, one answer never ends the run, k by ids of any type, keys that are
 * patterns, shards of two exports of one size, a write that failed, a split of any size.
 */

const population = populationRun;
const first = (run: { status: number | null; stderr: string }) => [run.status, run.stderr.split('\n')[0]];

test("the second red team's breaks, replayed: each refused or counted, and every input left as it was", async () => {
  const dir = tempDir('population-red-team-');
  const input = path.join(dir, 'users.jsonl');
  const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify(edited({ 'user.id': `u-${i}` })));
  writeFileSync(input, lines.join('\n'));
  linkSync(input, path.join(dir, 'hard.csv'));
  writeFileSync(path.join(dir, 'map.csv'), '{"first_name": "user.firstName"}');
  mkdirSync(path.join(dir, 'out'));
  symlinkSync(path.join(dir, 'out'), path.join(dir, 'outlink'));
  mkdirSync(path.join(dir, 'reports'));
  writeFileSync(path.join(dir, 'reports', 'population.json'), `[${lines.join(',')}]`);
  const source = { id: 'a', type: 'ach', bankAccountNumber: '000123456789', bankRoutingNumber: '011000015' };
  writeFileSync(
    path.join(dir, 'funding.jsonl'),
    JSON.stringify({ fundingSources: Array.from({ length: 20_000 }, (_, i) => ({ id: `s${i}` })) }) + '\n' + JSON.stringify({ fundingSources: [source] }),
  );
  // One person exported five times under an id that is an object: one person, whose shape k=5 hides.
  const copies = Array.from({ length: 5 }, () =>
    JSON.stringify({ ...edited({ 'user.lastName': 'A~^`|A' }), user: { ...(edited({}).user as object), id: { a: 1 }, lastName: 'A~^`|A' } }),
  );
  writeFileSync(path.join(dir, 'copies.jsonl'), [...lines, ...copies].join('\n'));
  // Two exports of one size: the same ids, one letter apart.
  writeFileSync(path.join(dir, 'other.jsonl'), lines.join('\n').replace('"Ada"', '"Adb"'));
  const before = readFileSync(input, 'utf8');

  const [hard, map, linked, overReport, funding, copiesRun, pattern, full, shardA, shardB] = await Promise.all([
    population([input, '--out', path.join(dir, 'o1'), '--records-out', path.join(dir, 'hard.csv')]),
    population([input, '--columns', path.join(dir, 'map.csv'), '--out', path.join(dir, 'o2'), '--records-out', path.join(dir, 'map.csv')]),
    population([input, '--out', path.join(dir, 'out'), '--records-out', path.join(dir, 'outlink', 'ids.csv')]),
    population([path.join(dir, 'reports', 'population.json'), '--out', path.join(dir, 'reports')]),
    population([input, '--funding', path.join(dir, 'funding.jsonl'), '--max-unreadable', '60%', '--out', path.join(dir, 'o3')]),
    population([path.join(dir, 'copies.jsonl'), '--out', path.join(dir, 'o4')]),
    population([input, '--shard', '1/2', '--out', path.join(dir, 'o5')], '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'),
    population(['generate', '--users', '10', '--out', '/dev/full']),
    population([input, '--shard', '1/2', '--now', '2026-11-28', '--out', path.join(dir, 'a')]),
    population([path.join(dir, 'other.jsonl'), '--shard', '2/2', '--now', '2026-11-28', '--out', path.join(dir, 'b')]),
  ]);
  expect(first(hard)).toEqual([2, `--records-out ${path.join(dir, 'hard.csv')}: that is the input ${input}, which it would overwrite; name another file`]);
  expect(first(map)).toEqual([
    2,
    `--records-out ${path.join(dir, 'map.csv')}: that is the input ${path.join(dir, 'map.csv')}, which it would overwrite; name another file`,
  ]);
  expect(linked.status).toBe(2);
  expect(linked.stderr).toContain("which is shared; the records file holds your users' ids");
  expect(first(overReport)).toEqual([
    2,
    `--out ${path.join(dir, 'reports')}: its population.json would overwrite the input ${path.join(dir, 'reports', 'population.json')}; give another folder`,
  ]);
  expect(readFileSync(input, 'utf8')).toBe(before);
  expect(readFileSync(path.join(dir, 'map.csv'), 'utf8')).toBe('{"first_name": "user.firstName"}');
  expect(funding.status, funding.stderr).toBe(0);
  const fundingReport = JSON.parse(readFileSync(path.join(dir, 'o3', 'population.json'), 'utf8')) as {
    funding: { input: { payloads: number; unreadable: unknown[] } };
  };
  expect(fundingReport.funding.input).toMatchObject({ payloads: 1, unreadable: [{ problem: 'too-many-sources', count: 1, lines: [1] }] });
  expect(copiesRun.status, copiesRun.stderr).toBe(0);
  expect(readFileSync(path.join(dir, 'o4', 'population.json'), 'utf8')).not.toContain('A~^');
  expect(first(pattern)).toEqual([
    2,
    '--shard: POPULATION_SHARD_KEY is a pattern, not random bytes; make one with `openssl rand -hex 32` and give it to every shard and the merge',
  ]);
  expect([full.status, full.stderr.split('\n')[0]]).toEqual([
    2,
    '--out /dev/full: that is a device, which the file would replace; name a file, or leave --out out for standard output',
  ]);
  expect([shardA.status, shardB.status]).toEqual([0, 0]);
  const mixed = await population(['merge', path.join(dir, 'a', 'population-summary.1-of-2.json'), path.join(dir, 'b', 'population-summary.2-of-2.json')]);
  expect(mixed.status).toBe(1);
  expect(mixed.stderr).toContain('are shards of different inputs');
});

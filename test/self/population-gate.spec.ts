import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { generatePopulation } from '../../population/generate';
import { populationRun } from '../support/population-cli';
import { tempDir } from '../support/temp';

/**
 * A gate a data pipeline can trust (issue 52, item 4): `population` given what is no export of users exits non-zero
 * with one line naming the problem and its fix, writes nothing, and quotes nothing of the input; `--fail-if` fails a
 * run that crosses it.
 */

const now = '2026-11-28';
/** The command, run as a user runs it; concurrent with the others (each mostly waits on its process's start). */
const population = (args: string[]) => populationRun([...args, '--now', now]);
const users = (count: number) => [...generatePopulation({ users: count, seed: 7, now: new Date(`${now}T00:00:00Z`) })].map((user) => JSON.stringify(user));

/** A private word in each input: an error message that quoted the input would show it. */
const secret = 'Quorblewitz';
const sqliteHeader = Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(84), Buffer.from(`CREATE TABLE users(name); ${secret}`)]);
const garbage: Record<string, [Buffer | string, RegExp]> = {
  'users.db': [sqliteHeader, /this is a SQLite database, not JSON Lines, a JSON array or CSV: export/],
  'users.db.gz': [gzipSync(sqliteHeader), /this is a SQLite database/],
  'users.parquet': [Buffer.concat([Buffer.from('PAR1'), Buffer.from(secret)]), /this is a Parquet file/],
  'export.zip': [Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(secret)]), /this is a zip archive/],
  'empty.jsonl': ['', /no record judged: the input is empty; export one account-information object a user/],
  'own-columns.csv': [
    `id,legal_name,first_name,phone\n1,Acme ${secret},Ann,415\n`,
    /none of the CSV's 4 columns is a spec path; .*did you mean id → user\.id, legal_name → company\.legalName, first_name → user\.firstName, phone → user\.phone$/,
  ],
  'users.tsv': [`user.id\tuser.firstName\n1\t${secret}\n`, /its names separated by tabs: a CSV's columns are separated by commas/],
  'semicolons.csv': [`user.id;user.firstName\n1;${secret}\n`, /separated by semicolons/],
  'random.bin': [Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919 + 13) % 256)), /this is binary data/],
  'app.log': [
    `2026-11-28 12:00:01 INFO login ok user=${secret}@example.com\n2026-11-28 12:00:02 WARN retry ${secret}\n`,
    /read as CSV, since it starts with neither/,
  ],
  'junk.jsonl': [`{${secret}\n{"x":\n`, /no record judged: none of its 2 records is a JSON object \(not-json, first at line 1\)/],
};

test('garbage in, a non-zero exit: each input that is no export of users is named with its fix, nothing is written, and nothing of it is quoted', async () => {
  const dir = tempDir('population-gate-');
  const runs = await Promise.all(
    Object.entries(garbage).map(async ([name, [content]]) => {
      writeFileSync(path.join(dir, name), content);
      return [name, await population([path.join(dir, name), '--out', path.join(dir, `out-${name}`)])] as const;
    }),
  );
  for (const [name, run] of runs) {
    expect(run.status, `${name}: ${run.stderr}`).toBe(1);
    expect(run.stderr.trim().split('\n'), name).toEqual([expect.stringMatching(garbage[name]![1])]);
    expect(run.stderr + run.stdout, name).not.toContain(secret);
    expect(existsSync(path.join(dir, `out-${name}`)), name).toBe(false);
  }
});

test('more unreadable records than --max-unreadable fail the run after its report; --fail-if fails a run that crosses it, and a gate that is not met passes', async () => {
  const dir = tempDir('population-gate-');
  const clean = path.join(dir, 'clean.jsonl');
  writeFileSync(clean, users(1000).join('\n'));
  const broken = path.join(dir, 'broken.jsonl');
  writeFileSync(broken, [...users(950), ...Array.from({ length: 50 }, (_, i) => `not json ${i}`)].join('\n'));
  writeFileSync(path.join(dir, 'funding.csv'), 'user.id,bank\nu-1,123\n');
  const [over, allowed, crossed, met, misspelt, file, csvFunding, workers, unwritable] = await Promise.all([
    population([broken, '--out', path.join(dir, 'over')]),
    population([broken, '--max-unreadable', '10%', '--out', path.join(dir, 'allowed')]),
    population([clean, '--fail-if', 'error-screen>5%', '--fail-if', 'signs-in>100000', '--out', path.join(dir, 'crossed')]),
    population([clean, '--fail-if', 'error-screen>90%', '--out', path.join(dir, 'met')]),
    population([clean, '--fail-if', 'errors>5%']),
    population([clean, '--out', broken]),
    population([clean, '--funding', path.join(dir, 'funding.csv'), '--out', path.join(dir, 'csv-funding')]),
    population([clean, '--workers', '100000']),
    population(['generate', '--users', '10', '--out', path.join(dir, 'no-such-folder', 'users.jsonl')]),
  ]);
  expect([csvFunding.status, csvFunding.stderr.trim()]).toEqual([
    1,
    `population: --funding: no record judged: ${path.join(dir, 'funding.csv')}: a funding answer is a list of sources, which a CSV cell cannot hold: give JSON Lines or a JSON array ({"fundingSources": […]} a user)`,
  ]);
  expect([workers.status, workers.stderr.split('\n')[0]]).toEqual([2, expect.stringMatching(/^--workers 100000: at most \d+ \(\d+ cores here\)/)]);
  // Its folder is made, as the reports' and the records file's are.
  expect(unwritable.status, unwritable.stderr).toBe(0);
  expect(readFileSync(path.join(dir, 'no-such-folder', 'users.jsonl'), 'utf8').split('\n')).toHaveLength(11);
  expect([over.status, over.stderr.trim()]).toEqual([
    1,
    'population: 50 of 1,000 records (5%) could not be judged (not-json, first at line 951), more than --max-unreadable 1%: fix the export, or raise --max-unreadable',
  ]);
  expect(existsSync(path.join(dir, 'over', 'population.json'))).toBe(true);
  expect([allowed.status, allowed.stderr]).toEqual([0, '']);
  expect(crossed.status).toBe(1);
  expect(crossed.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(/^population: --fail-if error-screen>5%: [\d,]+ of 1,000 users \([\d.]+%\) meet error-screen$/),
  ]);
  expect([met.status, met.stderr]).toEqual([0, '']);
  expect([misspelt.status, misspelt.stderr.split('\n')[0]]).toEqual([
    2,
    '--fail-if errors>5%: give <outcome>><share or users>, e.g. --fail-if error-screen>5%, with an outcome of signs-in, asked-before-payment, typed-at-sign-on, error-screen',
  ]);
  expect([file.status, file.stderr.split('\n')[0]]).toEqual([2, `--out ${broken}: that is a file; give a folder for the reports`]);
});

test('one record never ends the run: one too large, one too deep and a funding answer of 40,000 sources are counted by line, and the rest judged', async () => {
  const dir = tempDir('population-gate-');
  const [first, ...rest] = users(300).map((line) => JSON.parse(line) as { user: Record<string, unknown>; company: object });
  const huge = { ...first!, user: { ...first!.user, firstName: 'A'.repeat(10 * 1024 * 1024) } };
  // Written as text: JSON.stringify itself cannot write a value nested 100,000 deep.
  const nested = JSON.stringify({ ...rest[0]!, company: { ...rest[0]!.company, businessType: 'DEEP' } }).replace(
    '"DEEP"',
    `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`,
  );
  const input = path.join(dir, 'users.jsonl');
  writeFileSync(
    input,
    [JSON.stringify(huge), ...rest.slice(1, 150).map((user) => JSON.stringify(user)), nested, ...rest.slice(150).map((user) => JSON.stringify(user))].join(
      '\n',
    ),
  );
  const source = { id: 'fs', type: 'ach', bankAccountNumber: '000123456789', bankRoutingNumber: '011000015', nickname: 'Checking' };
  const funding = path.join(dir, 'funding.jsonl');
  writeFileSync(
    funding,
    [
      { fundingSources: Array.from({ length: 40_000 }, (_, i) => ({ ...source, id: `fs-${i}` })) },
      ...Array.from({ length: 299 }, () => ({ fundingSources: [source] })),
    ]
      .map((answer) => JSON.stringify(answer))
      .join('\n'),
  );
  const run = await population([input, '--funding', funding, '--max-unreadable', '2%', '--out', path.join(dir, 'out')]);
  expect(run.status, run.stderr).toBe(0);
  const report = JSON.parse(readFileSync(path.join(dir, 'out', 'population.json'), 'utf8')) as {
    input: { payloads: number; unreadable: { problem: string; count: number; lines: number[] }[] };
    funding: { input: { payloads: number; unreadable: { problem: string; count: number; lines: number[] }[] } };
  };
  expect(report.input.payloads).toBe(298);
  expect(report.input.unreadable).toEqual([
    { problem: 'too-deep', count: 1, lines: [151] },
    { problem: 'too-large', count: 1, lines: [1] },
  ]);
  expect(report.funding.input.payloads).toBe(299);
  expect(report.funding.input.unreadable).toEqual([{ problem: 'too-large', count: 1, lines: [1] }]);
});

test('a stray CSV quote that folds the rows after it into one cell is the input cut short, not one record too large: exit 1, the rows before it judged', async () => {
  const dir = tempDir('population-gate-');
  const rows = Array.from({ length: 80_000 }, (_, i) => `c-1,u-${i + 12},${secret}`);
  const input = path.join(dir, 'stray.csv');
  writeFileSync(
    input,
    ['company.id,user.id,user.firstName', ...Array.from({ length: 10 }, (_, i) => `c-1,u-${i + 1},Ann`), `c-1,u-11,"${secret}`, ...rows].join('\n'),
  );
  const run = await population([input, '--out', path.join(dir, 'out')]);
  expect([run.status, run.stderr.trim()]).toEqual([
    1,
    expect.stringMatching(
      /^population: the input was cut short, so only the records before it were judged: .*the CSV row that starts on line 12 has a quoted cell longer than 1048576 bytes over lines 12-\d+: a stray quote/,
    ),
  ]);
  expect(run.stderr + run.stdout).not.toContain(secret);
  const report = JSON.parse(readFileSync(path.join(dir, 'out', 'population.json'), 'utf8')) as { input: { payloads: number; unreadable: unknown[] } };
  expect(report.input).toMatchObject({ payloads: 10, unreadable: [] });
});

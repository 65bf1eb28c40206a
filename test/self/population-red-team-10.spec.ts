import { spawn } from 'node:child_process';
import { openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { generatePopulation } from '../../population/generate';
import { populationRun, twoShardsMerged } from '../support/population-cli';
import { tempDir } from '../support/temp';

/**
 * The tenth outside red team's breaks of the population command (issue 52), replayed through the real command: a
 * shape shown for fewer users than k once the kept shapes were cut, a birthday judged in the machine's time zone, a
 * log in Elastic's common schema judged as users, a shard refused for the records that fell to it, and standard input
 * that is a folder. (Crafted ids that crowded the id table: test/unit/population-shared-ids.spec.ts; ids that read as
 * one another in the records file: test/unit/population-record-rows.spec.ts.)
 */

const now = '2026-11-28';
const first = (run: { status: number | null; stderr: string }) => [run.status, run.stderr.split('\n')[0]];
const users = (count: number) => [...generatePopulation({ users: count, seed: 10, now: new Date(`${now}T00:00:00Z`) })].map((user) => JSON.stringify(user));
const line = (user: object) => JSON.stringify({ ...user, company: { id: 'c' } });

test("the tenth red team's breaks, replayed: shapes of k people shown as fewer, a time zone's midnight, a log with a user, a shard's own records, a folder as standard input", async () => {
  test.setTimeout(120_000);
  const dir = tempDir('population-red-team-10-');
  const at = (name: string) => path.join(dir, name);
  // 10 people share the first name's shape Aaa'a; then 28,500 shapes of one user each make the kept shapes be cut.
  const singles: string[] = [];
  for (let n = 0; singles.length < 28_500; n++) {
    const tail = Array.from({ length: 11 }, (_, j) => ['1', "'", '-'][Math.floor(n / 3 ** j) % 3]).join('');
    if (/['1]/.test(tail)) singles.push(line({ user: { id: `s${n}`, firstName: `Z${tail}` } }));
  }
  const shared = Array.from({ length: 10 }, (_, i) => line({ user: { id: `p${i}`, firstName: "Ann'e" } }));
  writeFileSync(at('cut.jsonl'), [...shared, ...singles].join('\n'));
  // Born on a day whose midnight São Paulo's clock skipped, judged on the 18th birthday.
  const [adult] = users(1).map((text) => JSON.parse(text) as { user: Record<string, unknown> });
  writeFileSync(at('birthday.jsonl'), JSON.stringify({ ...adult, user: { ...adult!.user, dateOfBirth: '1990-10-21' } }));
  const ecs = Array.from({ length: 6 }, (_, i) =>
    JSON.stringify({ '@timestamp': '2026-01-01T10:00:00Z', event: { action: 'login' }, user: { id: `u${i}`, name: `alice${i}` }, source: { ip: '10.0.0.1' } }),
  );
  writeFileSync(at('ecs.jsonl'), ecs.join('\n'));
  // A note before each user: the first of two shards gets only the notes.
  writeFileSync(
    at('alternate.jsonl'),
    users(20)
      .flatMap((user) => ['{"note":"x"}', user])
      .join('\n'),
  );
  const [cut, utc, saoPaulo, log, whole, { shards, merged }] = await Promise.all([
    populationRun([at('cut.jsonl'), '--now', now, '--out', at('cut'), '--workers', '1']),
    populationRun([at('birthday.jsonl'), '--now', '2008-10-21', '--out', at('utc')], undefined, { TZ: 'UTC' }),
    populationRun([at('birthday.jsonl'), '--now', '2008-10-21', '--out', at('sao-paulo')], undefined, { TZ: 'America/Sao_Paulo' }),
    populationRun([at('ecs.jsonl'), '--now', now, '--out', at('ecs')]),
    populationRun([at('alternate.jsonl'), '--now', now, '--out', at('whole'), '--max-unreadable', '60%']),
    twoShardsMerged(at('alternate.jsonl'), dir, ['--now', now], ['--max-unreadable', '60%']),
  ]);
  expect(cut.status, cut.stderr).toBe(0);
  const report = JSON.parse(readFileSync(at('cut/population.json'), 'utf8')) as { fixFirst: { rule: string; shapes: { shape: string; count: number }[] }[] };
  const shapes = report.fixFirst.find((fix) => fix.rule === 'account-info/user.firstName/pattern')!.shapes;
  expect(shapes.find((one) => one.shape === "Aaa'a")?.count).toBeGreaterThanOrEqual(10);
  // The report is one `compare` reads back.
  const compared = await populationRun(['compare', at('cut/population.json'), at('cut/population.json')]);
  expect(compared.status, compared.stderr).toBe(0);
  for (const run of [utc, saoPaulo]) expect(run.stdout, run.stderr).toMatch(/Sign in, nothing asked +1 +100\.0%/);
  expect(first(log)).toEqual([1, expect.stringContaining('population: no record judged: none of its 6 records holds "company" as an object')]);
  expect([whole.status, ...shards.map((shard) => shard.status)]).toEqual([0, 0, 0]);
  expect(merged.status, merged.stderr).toBe(0);
  const outcomes = (folder: string) => (JSON.parse(readFileSync(at(`${folder}/population.json`), 'utf8')) as { outcomes: unknown }).outcomes;
  expect(outcomes('merged')).toEqual(outcomes('whole'));
  const fromFolder = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/population.ts', '-', '--now', now, '--out', at('o')], {
      stdio: [openSync(dir, 'r'), 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stderr }));
  });
  expect(first(fromFolder)[0]).toBe(2);
  expect(fromFolder.stderr).toContain('population -: standard input is a folder; give the export by name, or pipe it in');
});

test("the eleventh red team's breaks, replayed: a name in private-use characters, an export in Latin-1, joined CSVs' headers, ids a merge cannot rule out", async () => {
  const dir = tempDir('population-red-team-11-');
  const at = (name: string) => path.join(dir, name);
  const header = 'user.id,user.firstName,user.lastName,company.id,company.name\n';
  writeFileSync(at('pua.csv'), header + Array.from({ length: 5 }, (_, i) => `u${i},Ann,W\uE8C5ng,c${i},Acme Inc\n`).join(''));
  writeFileSync(
    at('latin1.csv'),
    Buffer.from(header + ['Müller', 'Möller', 'Mäller'].map((name, i) => `usr_${name},Ann,Lee,c${i},Acme Inc\n`).join(''), 'latin1'),
  );
  const part = (from: number) => Array.from({ length: 2 }, (_, i) => `u${from + i},Ann,Lee,c1,Acme Inc\n`).join('');
  writeFileSync(at('joined.csv'), header + part(1) + header + part(3));
  const [twice, ...rest] = users(20);
  writeFileSync(at('twice.jsonl'), [twice, twice, ...rest].join('\n'));
  const [pua, latin1, joined, { shards, merged }] = await Promise.all([
    populationRun([at('pua.csv'), '--now', now, '--out', at('pua')]),
    populationRun([at('latin1.csv'), '--now', now, '--out', at('latin1'), '--records-out', at('latin1-records.csv')]),
    populationRun([at('joined.csv'), '--now', now, '--out', at('joined')]),
    twoShardsMerged(at('twice.jsonl'), dir, ['--now', now]),
  ]);
  expect(pua.status, pua.stderr).toBe(0);
  const puaReport = readFileSync(at('pua/population.json'), 'utf8') + readFileSync(at('pua/population.html'), 'utf8') + pua.stdout;
  expect(puaReport).not.toMatch(/U\+E8C5|\uE8C5/);
  expect(puaReport).toContain('A□aa');
  expect(first(latin1)).toEqual([
    1,
    'population: no record judged: none of its 3 records is UTF-8 (not-utf8, first at line 2); export the file as UTF-8 (from Windows-1252 or Latin-1: iconv -f windows-1252 -t utf-8)',
  ]);
  expect(joined.stdout).toContain('4 account-information payloads judged');
  const notes = (JSON.parse(readFileSync(at('joined/population.json'), 'utf8')) as { input: { notes: string[] } }).input.notes;
  expect(notes).toContain(
    "1 row repeats the header row, its columns in this or another order (first at line 4), as where exports are joined with their headers: not judged, as no user's; the rows after each are read by it",
  );
  expect(shards.map((shard) => shard.status)).toEqual([0, 0]);
  expect(merged.status, merged.stderr).toBe(0);
  expect(merged.stdout).toContain('account-info/user.id/unique not checked exactly: no record shares its user.id with another of its shard');
});

test("the twelfth red team's breaks, replayed: UTF-8 cut between reads, columns named company, headers reordered, empty rows, generate's file, options a command does not read", async () => {
  const dir = tempDir('population-red-team-12-');
  const at = (name: string) => path.join(dir, name);
  const header = 'user.id,user.email,company.id,company.name';
  // Valid UTF-8 with a real U+FFFD in every row, read in chunks of 1 MiB: the first ends inside a character (日, 3 bytes).
  const rows = Array.from({ length: 30_000 }, (_, i) => `u${i},ann${i}@example.org,c${i},Café \uFFFD Ltd`);
  const head = Buffer.from(`${header}\n${rows.join('\n')}\n`).subarray(0, 1024 * 1024 - 4096);
  const start = `${head.toString().slice(0, head.toString().lastIndexOf('\n') + 1)}u-cut,cut@example.org,c-cut,`;
  const padded = `${start}${'x'.repeat(1024 * 1024 - 1 - Buffer.byteLength(start))}日 \uFFFD Ltd\n`;
  expect(
    Buffer.from(padded)
      .subarray(1024 * 1024 - 1, 1024 * 1024 + 2)
      .toString(),
  ).toBe('日');
  writeFileSync(at('valid.csv'), padded + rows.join('\n'));
  writeFileSync(at('company.csv'), `${header},company\nu1,ann@example.org,c1,Acme Inc,Acme\n`);
  writeFileSync(at('plain.csv'), `${header}\nu1,ann@example.org,c1,Acme Inc\nu2,bob@example.org,c2,Beta LLC\n`);
  writeFileSync(
    at('reordered.csv'),
    `${header}\nu1,ann@example.org,c1,Acme Inc\nuser.email,user.id,company.name,company.id\nbob@example.org,u2,Beta LLC,c2\n,,,\n , ,,\n`,
  );
  writeFileSync(at('victim.txt'), 'victim');
  symlinkSync('victim.txt', at('link.jsonl'));
  const [valid, company, plain, reordered, generated, merge] = await Promise.all([
    populationRun([at('valid.csv'), '--now', now, '--out', at('valid')]),
    populationRun([at('company.csv'), '--now', now, '--out', at('company')]),
    populationRun([at('plain.csv'), '--now', now, '--out', at('plain'), '--records-out', at('plain.jsonl')]),
    populationRun([at('reordered.csv'), '--now', now, '--out', at('reordered'), '--records-out', at('reordered.jsonl')]),
    populationRun(['generate', '--users', '2', '--out', at('link.jsonl')]),
    populationRun(['merge', at('x.json'), '--collect-missing-account-info']),
  ]);
  expect(valid.status, valid.stderr).toBe(0);
  expect(valid.stdout).toMatch(/[\d,]+ account-information payloads judged/);
  expect((JSON.parse(readFileSync(at('valid/population.json'), 'utf8')) as { input: { unreadable: unknown[] } }).input.unreadable).toEqual([]);
  expect(company.status, company.stderr).toBe(0);
  // The column "company" is read by no rule: the record's company is its company.* columns.
  const outcomesOf = (folder: string) => (JSON.parse(readFileSync(at(`${folder}/population.json`), 'utf8')) as { fixFirst: { rule: string }[] }).fixFirst;
  expect(outcomesOf('company').map((fix) => fix.rule)).not.toContain('account-info/company/type');
  // After a header in another order, rows are read by it; rows of nothing are no one.
  expect(reordered.stdout).toContain('2 account-information payloads judged');
  expect(readFileSync(at('reordered.jsonl'), 'utf8').replace(/"line":\d+/g, '')).toBe(readFileSync(at('plain.jsonl'), 'utf8').replace(/"line":\d+/g, ''));
  expect(plain.status).toBe(0);
  expect(generated.status, generated.stderr).toBe(0);
  expect(readFileSync(at('victim.txt'), 'utf8')).toBe('victim');
  expect(readFileSync(at('link.jsonl'), 'utf8').split('\n')).toHaveLength(3);
  expect(first(merge)[0]).toBe(2);
  expect(merge.stderr).toContain('--collect-missing-account-info: population merge does not read it');
});

test("the thirteenth red team's breaks, replayed: a Latin-1 file of every line bad, a character in three pieces, a header with unnamed columns again, a column map on JSON", async () => {
  const dir = tempDir('population-red-team-13-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('latin1.csv.gz'), gzipSync(Buffer.concat([Buffer.from('company.name\n'), Buffer.from('\xe9\n'.repeat(3_000_000), 'latin1')])));
  const euro = Buffer.from('user.id,user.firstName,company.id,company.name\nu1,Renée€,c1,Acme\nu2,Bob,c2,Beta\n');
  const cut = euro.indexOf(Buffer.from('€'));
  writeFileSync(
    at('pieces.csv.gz'),
    Buffer.concat([euro.subarray(0, cut), euro.subarray(cut, cut + 1), euro.subarray(cut + 1, cut + 2), euro.subarray(cut + 2)].map((part) => gzipSync(part))),
  );
  const part = 'user.id,company.id,company.name,,\nu1,c1,Acme,,\nu2,c2,Beta,,\n';
  writeFileSync(at('unnamed.csv'), part + part);
  writeFileSync(at('own.jsonl'), '{"user":{"id":"u1","first_name":"Ann"},"company":{"id":"c1"}}\n');
  const [latin1, pieces, unnamed, mapped] = await Promise.all([
    populationRun([at('latin1.csv.gz'), '--now', now, '--out', at('latin1'), '--workers', '1']),
    populationRun([at('pieces.csv.gz'), '--now', now, '--out', at('pieces')]),
    populationRun([at('unnamed.csv'), '--now', now, '--out', at('unnamed')]),
    populationRun([at('own.jsonl'), '--now', now, '--out', at('own'), '--column', 'first_name=user.firstName']),
  ]);
  expect(first(latin1)).toEqual([
    1,
    expect.stringContaining('population: no record judged: none of its 3,000,000 records is UTF-8 (not-utf8, first at line 2)'),
  ]);
  expect(pieces.status, pieces.stderr).toBe(0);
  expect(pieces.stdout).toContain('2 account-information payloads judged');
  expect(unnamed.stdout).toContain('4 account-information payloads judged');
  expect(first(mapped)).toEqual([1, expect.stringContaining("--column and --columns map a CSV's columns, and this input is JSON Lines")]);
});

test("the fourteenth red team's breaks, replayed: standard output on a full disk, and a JSON array's empty places", async () => {
  const dir = tempDir('population-red-team-14-');
  const at = (name: string) => path.join(dir, name);
  const toFull = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/population.ts', 'generate', '--users', '5'], {
      stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stderr }));
  });
  expect([toFull.status, toFull.stderr]).toEqual([
    2,
    'standard output could not be written (ENOSPC), so what it holds is cut short; free the space, or write to a file\n',
  ]);
  const user = (id: string) => JSON.stringify({ user: { id }, company: { id: 'c' } });
  writeFileSync(at('holes.json'), `[${user('a')},,${user('b')}]`);
  writeFileSync(at('trailing.json'), `[${user('a')},${user('b')},]`);
  const [holes, trailing] = await Promise.all([
    populationRun([at('holes.json'), '--now', now, '--out', at('holes')]),
    populationRun([at('trailing.json'), '--now', now, '--out', at('trailing')]),
  ]);
  expect(first(holes)).toEqual([1, expect.stringContaining('the JSON array has an empty place (a comma with no element before it) after element 1')]);
  expect(first(trailing)).toEqual([1, expect.stringContaining('the JSON array has a comma before its end after element 2')]);
});

import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { generatePopulation } from '../../population/generate';
import { interruptOnceRecordsOpen, populationRun } from '../support/population-cli';
import { shardKey } from '../support/shard-key';
import { tempDir } from '../support/temp';

/**
 * The third outside red team's breaks of the population command (issue 52), each replayed through the real command:
 * a record that pretends to be the reader's note, a first row that is a person, object columns, a key that is a typed
 * phrase, shards of one export with another funding input, a line built to backtrack, paths that cannot be written,
 * and a report given to compare with control characters in it.
 */

const now = '2026-11-28';
const population = (args: string[], key = shardKey) => populationRun(args, key);
const first = (run: { status: number | null; stderr: string }) => [run.status, run.stderr.split('\n')[0]];
const users = (count: number, seed = 3) =>
  [...generatePopulation({ users: count, seed, now: new Date(`${now}T00:00:00Z`) })].map((user) => JSON.stringify(user));
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? filesUnder(path.join(dir, name)) : [path.join(dir, name)]));

test("the third red team's breaks, replayed: nothing of a record in any output, every input told for what it is, nothing written where it cannot be", async () => {
  test.setTimeout(180_000);
  const dir = tempDir('population-red-team-3-');
  const at = (name: string) => path.join(dir, name);
  const secret = 'Zephyrinus Quackenbush 987-65-4321';
  writeFileSync(at('bang.jsonl'), [...users(500), JSON.stringify(`!${secret}: x`), '"!__proto__: x"', '"!constructor: x"', '"!=HYPERLINK(1): x"'].join('\n'));
  writeFileSync(at('noheader.csv'), 'Ida,Tate,ida.tate@example.com,415-667-3968,1974-03-17,12 Elm St,Springfield,IL,62701\n');
  writeFileSync(at('crm.csv'), 'name,email,company,phone\nJane Roe,jr@example.com,Acme,415-667-3968\n');
  const line1 = `p${' '.repeat(1200)}o${' '.repeat(1200)}x`;
  writeFileSync(at('redos.jsonl'), JSON.stringify({ user: { id: 'u-1' }, company: { address: { line1 } } }));
  writeFileSync(at('afile'), 'x');
  symlinkSync(at('nowhere'), at('dangling'));
  mkdirSync(at('reps'));
  symlinkSync(at('reps'), at('repslink'));
  writeFileSync(at('users.jsonl'), users(400).join('\n'));
  writeFileSync(at('fund-a.jsonl'), Array.from({ length: 400 }, () => '{"fundingSources": []}').join('\n'));
  writeFileSync(at('fund-b.jsonl'), Array.from({ length: 400 }, () => '{"fundingSources": [{"type": "card"}]}').join('\n'));
  const typed = Buffer.from('MySecretKey2026!MySecretKey2027?').toString('hex');

  const [bang, noHeader, crm, redos, underFile, dangling, linked, weak, shardA, shardB] = await Promise.all([
    population([at('bang.jsonl'), '--now', now, '--out', at('bang'), '--records-out', at('bang.csv')]),
    population([at('noheader.csv'), '--now', now, '--out', at('nh')]),
    population([at('crm.csv'), '--now', now, '--out', at('crm')]),
    population([at('redos.jsonl'), '--now', now, '--out', at('redos')]),
    population([at('users.jsonl'), '--now', now, '--out', at('afile/sub')]),
    population([at('users.jsonl'), '--now', now, '--out', at('dangling')]),
    population([at('users.jsonl'), '--now', now, '--out', at('reps'), '--records-out', at('repslink/a/b/x.csv')]),
    population([at('users.jsonl'), '--now', now, '--shard', '1/1', '--out', at('weak')], typed),
    population([at('users.jsonl'), '--now', now, '--shard', '1/2', '--funding', at('fund-a.jsonl'), '--out', at('parts')]),
    population([at('users.jsonl'), '--now', now, '--shard', '2/2', '--funding', at('fund-b.jsonl'), '--out', at('parts')]),
  ]);
  // A record that is a string, whatever it says, is a record that is not an object: it never names a problem.
  expect(bang.status, bang.stderr).toBe(0);
  const bangReport = JSON.parse(readFileSync(at('bang/population.json'), 'utf8')) as { input: { unreadable: unknown[] } };
  expect(bangReport.input.unreadable).toEqual([{ problem: 'not-an-object', count: 4, lines: [501, 502, 503, 504] }]);
  for (const file of [...filesUnder(at('bang')), at('bang.csv')]) expect(readFileSync(file, 'utf8'), file).not.toMatch(/Zephyrinus|4321|HYPERLINK/);
  expect(bang.stdout + bang.stderr).not.toMatch(/Zephyrinus|4321/);
  // A first row that is a person is named by places, never quoted; columns that name objects are no spec paths.
  expect(first(noHeader)).toEqual([1, expect.stringContaining('did you mean column 1 → ')]);
  expect(noHeader.stderr).not.toMatch(/Ida|Tate|IL\b/);
  expect(first(crm)).toEqual([1, expect.stringContaining("none of the CSV's 4 columns is a spec path")]);
  // A line built to backtrack is judged at once.
  expect(redos.status, redos.stderr).toBe(0);
  // Nothing can be written there: said before anything is read.
  expect(first(underFile)).toEqual([2, `--out ${at('afile/sub')}: ${at('afile')} is a file, so nothing can be made under it; give another path`]);
  expect(first(dangling)).toEqual([2, `--out ${at('dangling')}: ${at('dangling')} is a link to nothing; give a path that is there or can be made`]);
  expect(first(linked)).toEqual([2, expect.stringContaining(`--records-out ${at('repslink/a/b/x.csv')}: that is in the reports' folder`)]);
  expect(first(weak)).toEqual([2, expect.stringContaining('POPULATION_SHARD_KEY is a pattern, not random bytes')]);
  // Shards of one export given other funding answers are named as that.
  for (const run of [shardA, shardB]) expect(run.status, run.stderr).toBe(0);
  const merged = await population(['merge', at('parts/population-summary.1-of-2.json'), at('parts/population-summary.2-of-2.json')]);
  expect(first(merged)).toEqual([1, expect.stringContaining('read different --funding answers: judge every shard with the same --funding file')]);

  // A report given to compare is anyone's: control characters in a rule id make it no report of this tool's.
  const report = JSON.parse(readFileSync(at('bang/population.json'), 'utf8')) as { fixFirst: { rule: string }[] };
  report.fixFirst[0]!.rule = '\u001b]0;pwned\u0007\u001b[2J\u202e';
  writeFileSync(at('hostile.json'), JSON.stringify(report));
  const compared = await population(['compare', at('hostile.json'), at('bang/population.json')]);
  expect(compared.status).toBe(2);
  for (const raw of ['\u001b', '\u0007', '\u202e']) expect(compared.stdout + compared.stderr).not.toContain(raw);
});

test("the fourth red team's breaks, replayed: a column of many dots is one key no rule reads, and a typed phrase in any encoding is no key", async () => {
  const dir = tempDir('population-red-team-4-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('dots.csv'), `a${'.a'.repeat(5000)},user.id,user.firstName,company.id\nx,u-1,Ann,c-1\n`);
  writeFileSync(at('users.jsonl'), users(20).join('\n'));
  const phrase = 'correct horse battery staple xyzzy!';
  const keys = [
    Buffer.from(phrase, 'utf16le').toString('hex'),
    Buffer.from(`${phrase} é café naïve`).toString('hex'),
    `${'5c'.repeat(16)}${'ab'.repeat(16)}`.replace(/^(.{32})/, '9f3e1d77c2a84b06e5f1d2c3b4a59687'),
  ];
  const [dots, ...weak] = await Promise.all([
    population([at('dots.csv'), '--now', now, '--out', at('dots')]),
    ...keys.map((key, i) => population([at('users.jsonl'), '--now', now, '--shard', '1/1', '--out', at(`k${i}`)], key)),
  ]);
  expect(dots.status, dots.stderr).toBe(0);
  expect((JSON.parse(readFileSync(at('dots/population.json'), 'utf8')) as { input: { payloads: number } }).input.payloads).toBe(1);
  for (const run of weak) expect(first(run)).toEqual([2, expect.stringContaining('POPULATION_SHARD_KEY is a pattern, not random bytes')]);
});

test("the fifth red team's breaks, replayed: a gzip with bytes after it read to its end, lower-case first rows unquoted, paths that cannot be written, shards of records moved, wrappers rewritten, rule ids not ours, keys in other scripts", async () => {
  const dir = tempDir('population-red-team-5-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('h.csv'), 'emil,tate,emil.tate@example.com,2125550142,il\n');
  const lines = users(40);
  writeFileSync(at('a.jsonl'), [lines[0], '', ...lines.slice(1)].join('\n'));
  writeFileSync(at('b.jsonl'), ['', ...lines].join('\n'));
  writeFileSync(at('users.jsonl'), lines.join('\n'));
  const half = '9f3e1d77c2a84b06e5f1d2c3b4a59687';
  const reversed = `${half}${half.match(/../g)!.reverse().join('')}`;
  const cjk = Buffer.from('我们的合作伙伴认证分片密钥是生产').subarray(0, 32).toString('hex');
  writeFileSync(at('tail.jsonl.gz'), Buffer.concat([gzipSync(users(3000).join('\n')), Buffer.from('trailing bytes')]));
  const [header, proc, empty, shardA, shardB, whole, tail, ...keys] = await Promise.all([
    population([at('h.csv'), '--now', now, '--out', at('h')]),
    population([at('users.jsonl'), '--now', now, '--out', '/proc/partner-certify-x']),
    population([at('users.jsonl'), '--now', now, '--out', '']),
    population([at('a.jsonl'), '--now', now, '--shard', '1/2', '--out', at('parts')]),
    population([at('b.jsonl'), '--now', now, '--shard', '2/2', '--out', at('parts')]),
    population([at('users.jsonl'), '--now', now, '--out', at('whole')]),
    population([at('tail.jsonl.gz'), '--now', now, '--out', at('tail')]),
    ...[reversed, cjk].map((key, i) => population([at('users.jsonl'), '--now', now, '--shard', '1/1', '--out', at(`k${i}`)], key)),
  ]);
  expect(first(header)).toEqual([1, expect.stringContaining('did you mean column 1 → user.email, column 2 → company.address.state')]);
  expect(header.stderr).not.toMatch(/\b(emil|tate|il) →/);
  expect(first(proc)).toEqual([2, "--out /proc/partner-certify-x: that is the system's, not a file of yours; name one of yours"]);
  expect(first(empty)).toEqual([2, '--out is empty; give a folder for the reports']);
  for (const run of [shardA, shardB, whole]) expect(run.status, run.stderr).toBe(0);
  const merged = await population(['merge', at('parts/population-summary.1-of-2.json'), at('parts/population-summary.2-of-2.json')]);
  expect(first(merged)).toEqual([1, expect.stringContaining('are shards of different inputs')]);
  const summary = at('parts/population-summary.1-of-2.json');
  writeFileSync(at('compact.json'), JSON.stringify(JSON.parse(readFileSync(summary, 'utf8'))));
  const compact = await population(['merge', at('compact.json'), at('parts/population-summary.2-of-2.json')]);
  expect(first(compact)).toEqual([1, expect.stringContaining(`${at('compact.json')}: changed since it was written`)]);
  const report = JSON.parse(readFileSync(at('whole/population.json'), 'utf8')) as { fixFirst: { rule: string }[] };
  report.fixFirst[0]!.rule = 'account-info/Jane.Doe-QZX7391';
  writeFileSync(at('crafted.json'), JSON.stringify(report));
  const compared = await population(['compare', at('crafted.json'), at('whole/population.json')]);
  expect(compared.status).toBe(2);
  expect(compared.stdout + compared.stderr).not.toContain('QZX7391');
  for (const run of keys) expect(first(run)).toEqual([2, expect.stringContaining('POPULATION_SHARD_KEY is a pattern, not random bytes')]);
  expect(tail.status, tail.stderr).toBe(0);
  expect((JSON.parse(readFileSync(at('tail/population.json'), 'utf8')) as { input: unknown }).input).toMatchObject({
    payloads: 3000,
    notes: [
      `${at('tail.jsonl.gz')}: the gzip data ends before the file does: the 14 bytes after it are not gzip and were not read, as gzip itself leaves them`,
    ],
  });
});

test("the sixth red team's breaks, replayed: the records file is put in place whole or not at all, by a refused, an interrupted or a racing run; a file read whole is read only up to its bound", async () => {
  const dir = tempDir('population-red-team-6-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('users.jsonl'), users(300).join('\n'));
  writeFileSync(at('binary.bin'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)));
  writeFileSync(at('many.jsonl'), users(40_000, 5).join('\n'));
  expect((await population([at('users.jsonl'), '--now', now, '--out', at('rep'), '--records-out', at('recs.csv')])).status).toBe(0);
  const complete = readFileSync(at('recs.csv'), 'utf8');
  expect(complete.split('\n')).toHaveLength(302);
  // A run that judges nothing used to remove the file an earlier run wrote.
  const refused = await population([at('binary.bin'), '--now', now, '--out', at('rep'), '--records-out', at('recs.csv')]);
  expect(first(refused)).toEqual([1, expect.stringContaining('no record judged')]);
  expect(readFileSync(at('recs.csv'), 'utf8')).toBe(complete);
  // Interrupted once its records file is open (the event: the file appears), it leaves the earlier one as it was.
  const signal = await interruptOnceRecordsOpen([at('many.jsonl'), '--now', now, '--out', at('rep'), '--records-out', at('recs.csv')], dir, 'SIGINT');
  expect(signal).toBe('SIGINT');
  expect(readdirSync(dir).filter((name) => name.includes('.partial-'))).toEqual([]);
  expect(readFileSync(at('recs.csv'), 'utf8')).toBe(complete);
  // Two runs at once on one records file: it is one run's whole file, never a mix.
  const [a, b] = await Promise.all([
    population([at('many.jsonl'), '--now', now, '--out', at('a'), '--records-out', at('same.csv')]),
    population([at('users.jsonl'), '--now', now, '--out', at('b'), '--records-out', at('same.csv')]),
  ]);
  expect([a.status, b.status]).toEqual([0, 0]);
  expect([40_002, 302]).toContain(readFileSync(at('same.csv'), 'utf8').split('\n').length);
  // A file read whole is read only up to its bound: /dev/zero as a report to compare, a column map or a profile.
  const [compared, columns, profile] = await Promise.all([
    population(['compare', '/dev/zero', at('rep/population.json')]),
    population([at('users.jsonl'), '--now', now, '--out', at('c'), '--columns', '/dev/zero']),
    population([at('users.jsonl'), '--now', now, '--out', at('p'), '--profile', '/dev/zero']),
  ]);
  for (const run of [compared, columns, profile]) expect(first(run)).toEqual([2, expect.stringContaining('/dev/zero: larger than such a file is')]);
  // Line ends of CR alone, an ambiguous column map, two columns of one path, and a worker's death blamed on the export.
  writeFileSync(at('cr.csv'), 'user.id,user.firstName\ru1,Ann\ru2,Bob\r');
  writeFileSync(at('cols.csv'), 'uid,fn\nu1,Ann\n');
  writeFileSync(at('dup.csv'), 'user.id,user.lastName,user.lastName\nu1,Lee,Ray\n');
  const keys = Array.from({ length: 80_000 }, (_, i) => `"k${i}":[0]`).join(',');
  writeFileSync(at('heavy.jsonl'), [1, 2].map((i) => `{"user":{"id":"h${i}"},"company":{},"x":{${keys}}}`).join('\n'));
  const judge = (input: string, ...args: string[]) => population([at(input), '--now', now, '--out', at(`o-${input}`), ...args]);
  const [cr, twice, both, lacking, dup, heavy] = await Promise.all([
    judge('cr.csv'),
    judge('cols.csv', '--column', 'uid=user.id', '--column', 'uid=user.firstName'),
    judge('cols.csv', '--column', 'uid=user.id', '--column', 'fn=user.id'),
    judge('cols.csv', '--column', 'uid=user.id', '--column', 'nothere=user.firstName'),
    judge('dup.csv'),
    populationRun([at('heavy.jsonl'), '--now', now, '--out', at('o-heavy')], undefined, { PARTNER_CERTIFY_WORKER_HEAP_MB: '24' }),
  ]);
  expect(first(cr)).toEqual([1, expect.stringContaining('its lines end in a carriage return alone')]);
  expect(first(twice)).toEqual([2, '--column uid=user.firstName: uid is mapped twice, to user.id and to user.firstName; map each of your columns once']);
  expect(first(both)).toEqual([2, '--column fn=user.id: uid and fn are both mapped to user.id; map one column to each spec path']);
  expect(first(lacking)).toEqual([1, expect.stringContaining("the column map names nothere (for user.firstName), which the CSV's header does not")]);
  expect(first(dup)).toEqual([1, expect.stringContaining('columns 2 and 3 are both user.lastName, and a record would keep only the last')]);
  expect(first(heavy)).toEqual([
    1,
    expect.stringContaining('each of its 2 records ended a worker (worker-died, first at line 1): raise PARTNER_CERTIFY_WORKER_HEAP_MB'),
  ]);
});

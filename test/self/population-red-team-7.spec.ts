import { execFileSync, spawn } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { generatePopulation } from '../../population/generate';
import { interruptOnceRecordsOpen, populationRun } from '../support/population-cli';
import { tempDir } from '../support/temp';

/**
 * The seventh outside red team's breaks of the population command (issue 52), replayed through the real command:
 * tiny records by the hundred thousand, a terminal closed mid-run, report files already there as links or a folder,
 * a log judged as users, and a profile that says nothing.
 */

const now = '2026-11-28';
const first = (run: { status: number | null; stderr: string }) => [run.status, run.stderr.split('\n')[0]];
const users = (count: number) =>
  [...generatePopulation({ users: count, seed: 7, now: new Date(`${now}T00:00:00Z`) })].map((user) => JSON.stringify(user)).join('\n');

test("the seventh red team's breaks, replayed: every file whole or as it was, through no link; junk and a hollow profile refused", async () => {
  test.setTimeout(180_000);
  const dir = tempDir('population-red-team-7-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('tiny.jsonl'), '{"user":{},"company":{}}\n'.repeat(200_000));
  writeFileSync(at('users.jsonl'), users(300));
  writeFileSync(at('many.jsonl'), users(30_000));
  writeFileSync(
    at('log.jsonl'),
    Array.from({ length: 1000 }, (_, i) => JSON.stringify({ ts: i, level: 'info', msg: 'GET /v1/users 200', reqId: `r${i}` })).join('\n'),
  );
  writeFileSync(at('victim.txt'), 'VICTIM');
  mkdirSync(at('linked'));
  symlinkSync(at('victim.txt'), at('linked/population.json'));
  linkSync(at('victim.txt'), at('linked/population.html'));
  mkdirSync(at('dangling'));
  symlinkSync(at('nowhere/x'), at('dangling/population.json'));
  mkdirSync(at('folder/population.html'), { recursive: true });
  writeFileSync(at('hollow.json'), '{}');
  writeFileSync(at('yes.json'), '{"tokenExchangeUrl": "https://x.example/token", "collectMissingAccountInfo": "yes"}');
  const judge = (input: string, ...args: string[]) => populationRun([at(input), '--now', now, ...args], undefined, { PARTNER_CERTIFY_WORKER_HEAP_MB: '24' });
  const [tiny, linked, dangling, folder, log, funding, hollow, yes] = await Promise.all([
    judge('tiny.jsonl', '--out', at('tiny'), '--records-out', at('tiny.csv')),
    judge('users.jsonl', '--out', at('linked')),
    judge('users.jsonl', '--out', at('dangling')),
    judge('users.jsonl', '--out', at('folder')),
    judge('log.jsonl', '--out', at('log')),
    judge('users.jsonl', '--out', at('funding'), '--funding', at('users.jsonl')),
    judge('users.jsonl', '--out', at('hollow'), '--profile', at('hollow.json')),
    judge('users.jsonl', '--out', at('yes'), '--profile', at('yes.json')),
  ]);
  // 200,000 records of a dozen bytes, on the smallest heap: batches of at most 16,384 records, and no worker lost.
  expect(tiny.status, tiny.stderr).toBe(0);
  expect(readFileSync(at('tiny.csv'), 'utf8').split('\n')).toHaveLength(200_002);
  expect(JSON.stringify(JSON.parse(readFileSync(at('tiny/population.json'), 'utf8')))).not.toContain('were replaced');
  // Links already where the report goes are replaced, never followed; a folder there is refused before reading.
  for (const run of [linked, dangling]) expect(run.status, run.stderr).toBe(0);
  expect(readFileSync(at('victim.txt'), 'utf8')).toBe('VICTIM');
  expect(JSON.parse(readFileSync(at('linked/population.json'), 'utf8'))).toHaveProperty('outcomes');
  expect(JSON.parse(readFileSync(at('dangling/population.json'), 'utf8'))).toHaveProperty('outcomes');
  expect(first(folder)).toEqual([2, `--out ${at('folder')}: its population.html is a folder, where the report would go; move it away, or give another folder`]);
  // Records that hold no object of an answer are no export of them.
  expect(first(log)).toEqual([
    1,
    expect.stringContaining('none of its 1,000 records holds "user" or "company" as an object, which every account-information answer does'),
  ]);
  expect(first(funding)).toEqual([1, expect.stringContaining('--funding: no record judged: none of its 300 records holds "fundingSources" as a list')]);
  expect(first(hollow)).toEqual([2, `--profile ${at('hollow.json')}: not a partner's profile (it has no "tokenExchangeUrl"); give partners/<name>.json`]);
  expect(first(yes)).toEqual([2, `--profile ${at('yes.json')}: "collectMissingAccountInfo" is "yes"; write true or false`]);
  // A terminal closed once the records file is open: its partial file goes, and an earlier file stays as it was.
  writeFileSync(at('recs.csv'), 'earlier\n');
  const signal = await interruptOnceRecordsOpen([at('many.jsonl'), '--now', now, '--out', at('hup'), '--records-out', at('recs.csv')], dir, 'SIGHUP');
  expect(signal).toBe('SIGHUP');
  expect(readdirSync(dir).filter((name) => name.includes('.partial-'))).toEqual([]);
  expect(readFileSync(at('recs.csv'), 'utf8')).toBe('earlier\n');
});

test("the eighth and ninth red teams' breaks, replayed: a records file that is standard input's, file names with escape sequences, a format given, a log of strings, gates on a shard", async () => {
  const dir = tempDir('population-red-team-8-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('users.jsonl'), users(50));
  const before = readFileSync(at('users.jsonl'));
  const fromStdin = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/population.ts', '-', '--now', now, '--out', at('o1'), '--records-out', at('users.jsonl')],
      {
        stdio: [openSync(at('users.jsonl'), 'r'), 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stderr }));
  });
  expect(first(fromStdin)).toEqual([2, `--records-out ${at('users.jsonl')}: that is what standard input reads, which it would overwrite; name another file`]);
  expect(readFileSync(at('users.jsonl')).equals(before)).toBe(true);
  const [named, forced] = await Promise.all([
    populationRun([at('miss\u001b]0;TITLE\u0007\u202e.jsonl'), '--now', now, '--out', at('o2')]),
    populationRun([at('users.jsonl'), '--now', now, '--out', at('o3'), '--format', 'csv']),
  ]);
  expect(first(named)).toEqual([2, `population: no such file ${at('miss\\u001B]0;TITLE\\u0007\\u202E.jsonl')}`]);
  expect(first(forced)).toEqual([1, expect.stringContaining('(read as CSV, as --format says; a CSV needs a header)')]);
  // The ninth round's: a log whose "user" is a string, an input named with an escape sequence that the report names,
  // and gates a shard would have dropped.
  writeFileSync(at('log.jsonl'), '{"user":"alice"}\n{"user":"bob","company":[]}\n');
  const cutName = at('cut\u001b]0;T\u0007\u202e.jsonl.gz');
  const gzipped = gzipSync(users(50));
  writeFileSync(cutName, gzipped.subarray(0, Math.floor(gzipped.length * 0.6)));
  const [log, cut, gated] = await Promise.all([
    populationRun([at('log.jsonl'), '--now', now, '--out', at('o4')]),
    populationRun([cutName, '--now', now, '--out', at('o5')]),
    populationRun([at('users.jsonl'), '--now', now, '--out', at('o6'), '--shard', '1/2', '--fail-if', 'error-screen>1%']),
  ]);
  expect(first(log)).toEqual([1, expect.stringContaining('none of its 2 records holds "user" or "company" as an object')]);
  expect(cut.status).toBe(1);
  const report = readFileSync(at('o5/population.json'), 'utf8') + readFileSync(at('o5/population.html'), 'utf8');
  expect(report).toContain('cut\\u001B]0;T\\u0007\\u202E.jsonl.gz');
  for (const raw of ['\u001b', '\u0007', '\u202e']) expect(report).not.toContain(raw);
  expect(first(gated)).toEqual([2, '--fail-if and --compare judge the whole input: give them to population merge, not to a --shard']);
});

test('what the ninth red team left, mended: pipes where files go, shards that differ in --funding, loose numbers, a missing comma, other settings compared', async () => {
  const dir = tempDir('population-red-team-9-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('users.jsonl'), users(40));
  writeFileSync(at('funding.jsonl'), '{"fundingSources":[]}\n');
  writeFileSync(at('funding-2.jsonl'), '{"fundingSources":[]}\n{"fundingSources":[]}\n');
  mkdirSync(at('piped'));
  execFileSync('mkfifo', [at('pipe.csv'), at('piped/population.json')]);
  writeFileSync(at('array.json'), `[\n${users(2).replace('\n', '\n  ')}\n]\n`);
  const [pipe, pipedOut, heap, k, comma, one, two, strict] = await Promise.all([
    populationRun([at('users.jsonl'), '--now', now, '--out', at('o1'), '--records-out', at('pipe.csv')]),
    populationRun([at('users.jsonl'), '--now', now, '--out', at('piped')]),
    populationRun([at('users.jsonl'), '--now', now, '--out', at('o2')], undefined, { PARTNER_CERTIFY_WORKER_HEAP_MB: 'abc' }),
    populationRun([at('users.jsonl'), '--now', now, '--out', at('o3'), '--k', '0x5']),
    populationRun([at('array.json'), '--now', now, '--out', at('o4')]),
    populationRun([at('users.jsonl'), '--now', now, '--out', at('shards'), '--shard', '1/2', '--funding', at('funding.jsonl')]),
    populationRun([at('users.jsonl'), '--now', now, '--out', at('shards'), '--shard', '2/2', '--funding', at('funding-2.jsonl')]),
    populationRun([at('users.jsonl'), '--now', now, '--out', at('strict'), '--invalid-optional', 'dropped']),
  ]);
  expect(first(pipe)).toEqual([2, `--records-out ${at('pipe.csv')}: that is a named pipe, which the file would replace; name a .csv or a .jsonl file`]);
  expect(first(pipedOut)).toEqual([
    2,
    `--out ${at('piped')}: its population.json is a named pipe, where the report would go; move it away, or give another folder`,
  ]);
  expect(first(heap)).toEqual([2, 'PARTNER_CERTIFY_WORKER_HEAP_MB=abc: give whole megabytes, 24 or more (64 unless set), or leave it unset']);
  expect(first(k)).toEqual([2, '--k 0x5: give a whole number of 1 or more']);
  expect(first(comma)).toEqual([
    1,
    `population: no record judged: ${at('array.json')}: a comma is missing after element 1 of the JSON array: another value follows it`,
  ]);
  expect([one.status, two.status]).toEqual([0, 0]);
  const merged = await populationRun(['merge', at('shards/population-summary.1-of-2.json'), at('shards/population-summary.2-of-2.json'), '--out', at('m')]);
  expect(first(merged)).toEqual([
    1,
    `population merge: ${at('shards/population-summary.1-of-2.json')} and ${at('shards/population-summary.2-of-2.json')} read different --funding answers: judge every shard with the same --funding file`,
  ]);
  expect(existsSync(at('m'))).toBe(false);
  expect(strict.status).toBe(0);
  const compared = await populationRun([at('users.jsonl'), '--now', now, '--out', at('o5'), '--compare', at('strict/population.json')]);
  expect(compared.stdout).toContain(
    "judged with other settings (invalidOptional dropped, now error-screen): part of what moved is the settings', not the export's",
  );
});

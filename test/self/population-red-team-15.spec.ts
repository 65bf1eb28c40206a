import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { generatePopulation } from '../../population/generate';
import { populationRun } from '../support/population-cli';
import { tempDir } from '../support/temp';

/**
 * The fifteenth outside red team's breaks of the population command (issue 52) and those after it, replayed through
 * the real command (the rest of each round in unit tests, named in each test).
 */

const now = '2026-11-28';
const first = (run: { status: number | null; stderr: string }) => [run.status, run.stderr.split('\n')[0]];
const users = (count: number) => [...generatePopulation({ users: count, seed: 10, now: new Date(`${now}T00:00:00Z`) })].map((user) => JSON.stringify(user));

/** The command with its standard streams given (files opened by the caller): its exit code and standard error. */
function withStreams(args: string[], stdio: [number | 'ignore' | 'pipe', number | 'ignore' | 'pipe']) {
  return new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/population.ts', ...args], { stdio: [...stdio, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

test("the fifteenth red team's breaks, replayed: generate's users cut short by their reader, and seeds past its 32 bits", async () => {
  // (The others are unit tests: a gzip header's fields at a read's edge and data that is no deflate, test/unit/gunzip.spec.ts;
  // a share exactly at its bound, population-gate.spec.ts; ids told apart in CSV, population-record-rows.spec.ts; memory
  // of a batch halved handed out once, population-batches.spec.ts and population-worker-death.spec.ts.)
  const cutShort = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/population.ts', 'generate', '--users', '100000'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('close', resolve);
  });
  expect(cutShort).toBe(141);
  const [whole, seeds] = await Promise.all([populationRun(['generate', '--users', '3']), populationRun(['generate', '--users', '3', '--seed', '4294967297'])]);
  expect([whole.status, whole.stdout.trim().split('\n')]).toEqual([0, [expect.any(String), expect.any(String), expect.any(String)]]);
  expect(first(seeds)).toEqual([2, '--seed 4294967297: give a whole number from 1 to 4,294,967,295']);
});

test("the sixteenth red team's breaks, replayed: a NUL in an early record, generate before 1900, a line break in an option's value or a file's name", async () => {
  const dir = tempDir('population-red-team-16-');
  const at = (name: string) => path.join(dir, name);
  const lines = users(200);
  lines[2] = lines[2]!.replace('"firstName":"', '"firstName":"\0');
  writeFileSync(at('nul.jsonl'), lines.join('\n'));
  const forged = '5\npopulation: report written, exit 0';
  const [nul, early, k, named] = await Promise.all([
    populationRun([at('nul.jsonl'), '--now', now, '--out', at('nul')]),
    populationRun(['generate', '--users', '3', '--now', '0099-06-15']),
    populationRun([at('nul.jsonl'), '--now', now, '--out', at('k'), '--k', forged]),
    populationRun([at('nl\nmissing.jsonl'), '--now', now, '--out', at('named')]),
  ]);
  expect(nul.status, nul.stderr).toBe(0);
  expect(nul.stdout).toContain('199 account-information payloads judged');
  expect(nul.stdout).toMatch(/Unreadable records: 1 \(/);
  expect(first(early)).toEqual([2, '--now 0099-06-15: give a date from 1900-01-01 on']);
  expect(first(k)).toEqual([2, '--k 5\\u000Apopulation: report written, exit 0: give a whole number of 1 or more']);
  expect(named.status).toBe(2);
  expect(named.stderr.split('\n')[0]).toMatch(/^population: no such file .*nl\\u000Amissing\.jsonl$/);
  expect(named.stderr).not.toMatch(/^missing\.jsonl/m);
});

test("the seventeenth red team's breaks, replayed: standard input or a merge's summary that is where the report goes, and /dev/stdout as generate's file", async () => {
  const dir = tempDir('population-red-team-17-');
  const at = (name: string) => path.join(dir, name);
  mkdirSync(at('o'));
  writeFileSync(at('o/population.json'), users(50).join('\n'));
  const export_ = readFileSync(at('o/population.json'), 'utf8');
  const stdin = openSync(at('o/population.json'), 'r');
  const fromStdin = await withStreams(['-', '--now', now, '--out', at('o')], [stdin, 'ignore']);
  closeSync(stdin);
  expect(first(fromStdin)).toEqual([2, `--out ${at('o')}: its population.json would overwrite what standard input reads; give another folder`]);
  expect(readFileSync(at('o/population.json'), 'utf8')).toBe(export_);
  const summary = at('o/population.html');
  copyFileSync(at('o/population.json'), summary);
  const merged = await populationRun(['merge', summary, '--out', at('o')]);
  expect(first(merged)).toEqual([2, `--out ${at('o')}: its population.html would overwrite the input ${summary}; give another folder`]);
  // Standard output a file: /dev/stdout is then a link to a file, which the users' file would have replaced.
  const output = openSync(at('stdout.txt'), 'w');
  const toDevStdout = await withStreams(['generate', '--users', '3', '--out', '/dev/stdout'], ['ignore', output]);
  closeSync(output);
  expect(first(toDevStdout)).toEqual([2, "--out /dev/stdout: that is the system's, not a file of yours; leave --out out for standard output"]);
  const records = await populationRun([at('o/population.json'), '--now', now, '--out', at('r'), '--records-out', '/proc/self/cwd/x.csv']);
  expect(first(records)).toEqual([2, "--records-out /proc/self/cwd/x.csv: that is the system's, not a file of yours; name one of yours"]);
});

/**
 * The population check (DESIGN §7) on N generated users (1,000,000 unless BENCH_POPULATION says): its wall time as a
 * user runs it (`npm run population`, reading the file included), users per second, peak memory, and the ratio to
 * JSON.parse of the same lines alone, on one thread, in the same run. Alone: `npx tsx scripts/bench-population.ts`.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface PopulationFigures {
  users: number;
  megabytes: number;
  jsonParseMs: number;
  wallMs: number;
  usersPerSecond: number;
  peakMemoryMB: number;
  /** wallMs / jsonParseMs: issue 42's goal is 5 or less. */
  ratioToJsonParse: number;
}

const cli = [path.resolve('node_modules/tsx/dist/cli.mjs'), path.resolve('scripts/population.ts')];

/** Every line of the file through JSON.parse, read in 1 MiB chunks: the least any reader of it does. */
function jsonParseAll(file: string): number {
  const t0 = performance.now();
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(1 << 20);
  let rest = '';
  for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
    const lines = (rest + chunk.toString('utf8', 0, read)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) if (line) JSON.parse(line);
  }
  if (rest) JSON.parse(rest);
  closeSync(fd);
  return performance.now() - t0;
}

export function populationFigures(users = Number(process.env.BENCH_POPULATION ?? 1_000_000)): PopulationFigures {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-population-'));
  try {
    const file = path.join(dir, 'users.jsonl');
    spawnSync(process.execPath, [...cli, 'generate', '--users', String(users), '--seed', '1', '--out', file], { stdio: 'ignore' });
    const jsonParseMs = jsonParseAll(file);
    const t0 = performance.now();
    const run = spawnSync(process.execPath, [...cli, file, '--out', path.join(dir, 'report')], { encoding: 'utf8' });
    const wallMs = performance.now() - t0;
    if (run.status !== 0) throw new Error(`the population check failed: ${run.stderr}`);
    const peak = /peak memory (\d+) MB/.exec(run.stdout);
    return {
      users,
      megabytes: Math.round(statSync(file).size / 1e6),
      jsonParseMs: Math.round(jsonParseMs),
      wallMs: Math.round(wallMs),
      usersPerSecond: Math.round(users / (wallMs / 1000)),
      peakMemoryMB: Number(peak?.[1] ?? NaN),
      ratioToJsonParse: Number((wallMs / jsonParseMs).toFixed(2)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printPopulation(figures: PopulationFigures) {
  const { users, megabytes, jsonParseMs, wallMs, usersPerSecond, peakMemoryMB, ratioToJsonParse } = figures;
  console.log(`\npopulation: ${users.toLocaleString('en-US')} generated users (${megabytes} MB of JSON Lines), \`npm run population\` as a user runs it\n`);
  console.log(
    `wall time ${(wallMs / 1000).toFixed(1)} s (goal ≤ 10 s), ${usersPerSecond.toLocaleString('en-US')} users/s, peak memory ${peakMemoryMB} MB (goal ≤ 300)`,
  );
  console.log(`JSON.parse of the same lines alone, one thread: ${(jsonParseMs / 1000).toFixed(1)} s; the check takes ${ratioToJsonParse}× that (goal ≤ 5)`);
}

if (require.main === module) printPopulation(populationFigures());

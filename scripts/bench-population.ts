/**
 * The population check (DESIGN §7) on N generated users (1,000,000 unless BENCH_POPULATION says): its wall time as a
 * user runs it, reading the file included, installed (`npx partner-certify population`: the bench builds dist/) and in
 * a clone (`npm run population`, under tsx); users per second, peak memory, and the ratio to JSON.parse of the same
 * lines alone, on one thread, in the same run; installed again with the records file (`--records-out`). Alone: `npx tsx scripts/bench-population.ts`.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Way {
  way: string;
  wallMs: number;
  usersPerSecond: number;
  peakMemoryMB: number;
  /** wallMs / jsonParseMs: issue 42's goal is 5 or less. */
  ratioToJsonParse: number;
}
export interface PopulationFigures {
  users: number;
  megabytes: number;
  jsonParseMs: number;
  ways: Way[];
}

const cloned = [path.resolve('node_modules/tsx/dist/cli.mjs'), path.resolve('scripts/population.ts')];
const installed = [path.resolve('dist/scripts/cli.js'), 'population'];

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
    spawnSync(process.execPath, [...cloned, 'generate', '--users', String(users), '--seed', '1', '--out', file], { stdio: 'ignore' });
    const jsonParseMs = jsonParseAll(file);
    spawnSync('npm', ['run', 'build'], { stdio: 'ignore' });
    const ways = (
      [
        ['installed', installed, []],
        ['in a clone', cloned, []],
        // The partner's records file (--records-out), a row a user: what it adds.
        ['+ records', installed, ['--records-out', path.join(dir, 'records.csv')]],
      ] as const
    ).map(([way, command, extra]): Way => {
      const t0 = performance.now();
      const run = spawnSync(process.execPath, [...command, file, '--out', path.join(dir, 'report'), ...extra], { encoding: 'utf8' });
      const wallMs = performance.now() - t0;
      if (run.status !== 0) throw new Error(`the population check failed ${way}: ${run.stderr}`);
      const peak = /peak memory (\d+) MB/.exec(run.stdout);
      return {
        way,
        wallMs: Math.round(wallMs),
        usersPerSecond: Math.round(users / (wallMs / 1000)),
        peakMemoryMB: Number(peak?.[1] ?? NaN),
        ratioToJsonParse: Number((wallMs / jsonParseMs).toFixed(2)),
      };
    });
    return { users, megabytes: Math.round(statSync(file).size / 1e6), jsonParseMs: Math.round(jsonParseMs), ways };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printPopulation({ users, megabytes, jsonParseMs, ways }: PopulationFigures) {
  console.log(`\npopulation: ${users.toLocaleString('en-US')} generated users (${megabytes} MB of JSON Lines), the file read included\n`);
  console.log(`${'how'.padEnd(12)} ${'wall time'.padStart(10)} ${'users/s'.padStart(9)} ${'peak memory'.padStart(12)} ${'× JSON.parse'.padStart(13)}`);
  for (const { way, wallMs, usersPerSecond, peakMemoryMB, ratioToJsonParse } of ways) {
    const cells = [`${(wallMs / 1000).toFixed(1)} s`.padStart(10), usersPerSecond.toLocaleString('en-US').padStart(9), `${peakMemoryMB} MB`.padStart(12)];
    console.log(`${way.padEnd(12)} ${cells.join(' ')} ${`${ratioToJsonParse}×`.padStart(13)}`);
  }
  console.log(`JSON.parse of the same lines alone, one thread: ${(jsonParseMs / 1000).toFixed(1)} s (goals: ≤ 10 s, ≤ 300 MB, ≤ 5× JSON.parse)`);
}

if (require.main === module) printPopulation(populationFigures());

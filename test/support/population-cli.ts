import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { watch } from 'node:fs';
import path from 'node:path';
import { shardKey } from './shard-key';

const cli = [path.resolve('node_modules/tsx/dist/cli.mjs'), path.resolve('scripts/population.ts')];

/**
 * `population` with `args`, run as a user runs it, without blocking this event loop: runs started together go on at
 * once (each mostly waits on its process's start). POPULATION_SHARD_KEY is `key`; `env` adds to the environment.
 */
export const populationRun = (args: string[], key = shardKey, env: Record<string, string> = {}) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, POPULATION_SHARD_KEY: key, ...env } });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

/**
 * `population` with `args` (its `--records-out` a file in `dir`), sent `signal` once its records file is open (the
 * event: the partial file appears in `dir`); resolves to the signal it ended by.
 */
export async function interruptOnceRecordsOpen(args: string[], dir: string, signal: NodeJS.Signals): Promise<string | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...cli.slice(1), ...args], { stdio: 'ignore' });
  const watcher = watch(dir);
  await new Promise<void>((resolve) => watcher.on('change', (_, name) => String(name).includes('.partial-') && resolve()));
  watcher.close();
  child.kill(signal);
  const [, ended] = (await once(child, 'exit')) as [number | null, string | null];
  return ended;
}

/**
 * `input` judged as two shards (with `args`) into `dir`/shards, both at once, then merged into `dir`/merged with
 * `mergeArgs`: the shards' runs and the merge's.
 */
export async function twoShardsMerged(input: string, dir: string, args: string[], mergeArgs: string[] = []) {
  const shards = await Promise.all(['1/2', '2/2'].map((shard) => populationRun([input, ...args, '--out', path.join(dir, 'shards'), '--shard', shard])));
  const summaries = ['1-of-2', '2-of-2'].map((part) => path.join(dir, 'shards', `population-summary.${part}.json`));
  const merged = await populationRun(['merge', ...summaries, '--out', path.join(dir, 'merged'), ...mergeArgs]);
  return { shards, merged };
}

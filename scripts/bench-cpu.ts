/**
 * The CPU time of a whole process tree. bash's `times` counts only the children it reaped, and Chromium's
 * renderers never reach it (a reference certification: 12.7 CPU-s by `times`, 23.6 in a cgroup). A cgroup of
 * its own (cgroup v1's cpuacct, or v2) counts every process the command started, wherever they were reparented;
 * it needs root on Linux, and without it the figure is `times`', said so.
 */
import { mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import path from 'node:path';

export interface CpuAccount {
  /** Shell words that put the shell running the command into the group. */
  join: string;
  /** The group's CPU time so far, in ms; undefined without a group. */
  read(): number | undefined;
  /** How the figure was taken, for the printed table. */
  source: 'cgroup' | 'times';
  dispose(): void;
}

const groups = [
  { root: '/sys/fs/cgroup/cpuacct', usage: (dir: string) => Number(readFileSync(path.join(dir, 'cpuacct.usage'), 'utf8')) / 1e6 },
  {
    root: '/sys/fs/cgroup/unified',
    usage: (dir: string) => Number(/usage_usec (\d+)/.exec(readFileSync(path.join(dir, 'cpu.stat'), 'utf8'))?.[1]) / 1e3,
  },
];

let made = 0;

/** A fresh group for one command, or `times`' account where none can be made. */
export function cpuAccount(): CpuAccount {
  for (const { root, usage } of groups) {
    const dir = path.join(root, `partner-certify-bench-${process.pid}-${made++}`);
    try {
      mkdirSync(dir);
      usage(dir);
    } catch {
      continue;
    }
    return {
      join: `echo $$ > '${path.join(dir, 'cgroup.procs')}';`,
      read: () => usage(dir),
      source: 'cgroup',
      // A group is removed once empty; a process still exiting keeps it a moment longer.
      dispose: () => {
        for (let tries = 0; tries < 50; tries++) {
          try {
            return rmdirSync(dir);
          } catch {
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
          }
        }
      },
    };
  }
  return { join: '', read: () => undefined, source: 'times', dispose: () => undefined };
}

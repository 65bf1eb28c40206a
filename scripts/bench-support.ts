/** What the bench's parts share: the bundled sandbox, and timed nested Playwright runs against it. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSandbox, sandboxHost } from '../sandbox/sandbox';
import { cpuAccount, type CpuAccount } from './bench-cpu';

export const sandboxOrigin = 'http://127.0.0.1:4400';
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Starts the bundled sandbox in this process unless one already answers; the nested runs reuse it
 * (reuseExistingServer), so its request counter sees them. Returns how to stop what was started.
 */
export async function ensureSandbox(): Promise<() => Promise<void>> {
  const sandbox = await buildSandbox();
  const running = await fetch(`${sandboxOrigin}/health`).then(
    () => true,
    () => false,
  );
  if (running) return async () => {};
  for (const { server, port } of sandbox) await server.listen({ host: sandboxHost, port });
  return async () => void (await Promise.all(sandbox.map(({ server }) => server.close())));
}

/** What a whole run cost: its wall time, and the CPU time of every process it started (scripts/bench-cpu.ts). */
export interface Cost {
  wallMs: number;
  cpuMs: number;
  /** "cgroup": every process; "times": only those bash reaped, Chromium's renderers not among them. */
  cpuSource: CpuAccount['source'];
}

/** What a nested run may do beside costing: read what it wrote, and end with a code that is not a failure. */
export interface RunOptions {
  /** Reads the run's reports (its CERTIFICATION_REPORT_DIR) before they are removed. */
  read?: (reports: string) => void;
  /** The exit codes that are the run's answer, not its failure (a partner NOT CERTIFIED exits 1). */
  exitCodes?: readonly number[];
}

/**
 * A nested `playwright test` in the clone at `cwd` with `args`, with that clone's certification reporter as a
 * certification run has it (it hands the coordinator the tests the run chose, so each partner's probes start
 * together) and dot for the rest. Asynchronous on purpose: a sandbox in this process must keep answering.
 */
export async function wholeRun(cwd: string, args: readonly string[], env: Record<string, string> = {}, options: RunOptions = {}): Promise<Cost> {
  // Each run's reports and output go to a folder of its own, removed after it.
  const reports = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const log = path.join(reports, 'run.log');
  const command = [
    process.execPath,
    path.join(cwd, 'node_modules/@playwright/test/cli.js'),
    'test',
    `--reporter=${path.join(cwd, 'reports/certification-reporter.ts')},dot`,
    ...args,
  ]
    .map((word) => `'${word.replaceAll("'", `'\\''`)}'`)
    .join(' ');
  const account = cpuAccount();
  try {
    const started = performance.now();
    const child = spawn('bash', ['-c', `${account.join} ${command} >'${log}' 2>&1; status=$?; times; exit $status`], {
      cwd,
      env: { ...process.env, ...env, CERTIFICATION_REPORT_DIR: reports },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const wallMs = performance.now() - started;
    const failed = (why: string) => new Error(`the certification of ${args.join(' ')} in ${cwd} ${why}:\n${readFileSync(log, 'utf8').slice(-3000)}`);
    if (!(options.exitCodes ?? [0]).includes(status ?? -1)) throw failed(`exited ${status}`);
    try {
      options.read?.(reports);
    } catch (error) {
      throw failed(`left no report to read (${error instanceof Error ? error.message : String(error)})`);
    }
    const seconds = (text: string) => [...text.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, m, s]) => sum + Number(m) * 60 + Number(s), 0);
    return { wallMs, cpuMs: account.read() ?? seconds(out.trim().split('\n').at(-1) ?? '') * 1000, cpuSource: account.source };
  } finally {
    account.dispose();
    rmSync(reports, { recursive: true, force: true });
  }
}

/** A nested run of `projects` in this clone, limited to `files` (none: every suite), as a thunk for `timed`. */
export const playwright =
  (files: string[], projects: string | readonly string[] = 'reference', env: Record<string, string> = {}) =>
  async () => {
    const projectArgs = (typeof projects === 'string' ? [projects] : projects).map((project) => `--project=${project}`);
    await wholeRun(process.cwd(), [...projectArgs, ...files], env);
  };

export const httpSuites = ['suites/token-exchange.spec.ts', 'suites/account-info.spec.ts', 'suites/funding-sources.spec.ts'];

/** Median wall time of `runs` runs. */
export async function timed(run: () => Promise<unknown>, runs: number): Promise<number> {
  const walls: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await run();
    walls.push(performance.now() - t0);
  }
  return Math.round(median(walls));
}

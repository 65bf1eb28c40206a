/** What the bench's parts share: the bundled sandbox, and timed nested Playwright runs against it. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSandbox, sandboxHost } from '../sandbox/sandbox';

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

/**
 * A nested `playwright test` of `projects`, limited to `files` (none: every suite), with the certification
 * reporter as a certification run has it (it also plans the run: each partner's probes start together) and
 * dot for the rest. Asynchronous on purpose: a sandbox in this process must keep answering.
 */
export const playwright =
  (files: string[], projects: string | readonly string[] = 'reference', env: Record<string, string> = {}) =>
  async () => {
    const projectArgs = (typeof projects === 'string' ? [projects] : projects).map((project) => `--project=${project}`);
    // The reports are not read: each run's go to a folder of its own, removed after it.
    const reports = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
    const child = spawn(
      process.execPath,
      [
        path.resolve('node_modules/@playwright/test/cli.js'),
        'test',
        ...projectArgs,
        `--reporter=${path.resolve('reports/certification-reporter.ts')},dot`,
        ...files,
      ],
      {
        stdio: 'ignore',
        env: { ...process.env, ...env, CERTIFICATION_REPORT_DIR: reports },
      },
    );
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    rmSync(reports, { recursive: true, force: true });
    if (status !== 0) throw new Error(`the certification of ${projectArgs.join(' ')} failed; run it alone to see why`);
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

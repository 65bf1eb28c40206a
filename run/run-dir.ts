import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The run's private folder (0700, outside every output folder): its channel's socket (run/channel.ts), the traces
 * browser probes record before their tests keep them masked, and the outcome the command reads (run/outcome.ts).
 * CERTIFY_RUN_DIR names it: the one environment variable that carries the run, set by the command that starts
 * the run (scripts/certify.ts), or by the run's coordinator for its workers. Whoever made it removes it.
 */
export const runDirVariable = 'CERTIFY_RUN_DIR';

/** The run's folder, as a worker or the command finds it; undefined outside a run. */
export const runDirOf = (env: NodeJS.ProcessEnv = process.env): string | undefined => env[runDirVariable] || undefined;

/** A new private folder for a run; `removeOnExit` removes it as this process exits. */
export function makeRunDir({ removeOnExit }: { removeOnExit: boolean }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'partner-certify-run-'));
  if (removeOnExit) process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A folder of the run's folder, made on first use. */
export function runSubfolder(runDir: string, name: string): string {
  const dir = path.join(runDir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

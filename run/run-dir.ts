import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * What one run's processes share, outside every output folder: a private temporary folder (0700, files
 * 0600) that the run's main process creates and removes when it exits; CERTIFY_RUN_DIR tells the workers
 * where it is. It holds the vault of secrets (`vault/`), the run's plan (`plan.json`) and the probe
 * outcomes a partner's worker leaves for the one that follows it (`left/<project>/`).
 */
const variable = 'CERTIFY_RUN_DIR';

/** In the run's main process (playwright.config.ts): a fresh folder, removed when the process exits. */
export function openRunDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'partner-certify-run-'));
  env[variable] = dir;
  env[startedVariable] = new Date().toISOString();
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  // Playwright stops the run on Ctrl-C; the certification then says the run was interrupted.
  process.once('SIGINT', () => writeFileSync(path.join(dir, interruptedFile), '', { mode: 0o600 }));
  return dir;
}

const startedVariable = 'CERTIFY_RUN_STARTED';
const interruptedFile = 'interrupted';

/** When the run's main process opened its folder, and whether Ctrl-C stopped it since. */
export function runClock(env: NodeJS.ProcessEnv = process.env): { startedAt: Date; interrupted: boolean } {
  const root = env[variable];
  const started = env[startedVariable];
  return { startedAt: started ? new Date(started) : new Date(), interrupted: root !== undefined && existsSync(path.join(root, interruptedFile)) };
}

/** A folder of the run's shared folder, created on first use; undefined outside a run (self-tests, the bench). */
export function runFolder(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const root = env[variable];
  if (!root) return undefined;
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * The probes each partner's tests will run, by project name; and, for a partner on a platform another
 * partner of the run shares, the partner whose tests run the platform's checks, once for all of them.
 */
export interface RunPlan {
  probes?: Record<string, readonly string[]>;
  platformJudgedBy: Record<string, string>;
  /** The tests the run chose, by project, as the certification reporter saw them: those that never ran did not finish. */
  tests?: Record<string, readonly PlannedTest[]>;
  /** Where the certification reporter was told to write, when it runs (reports/certification-teardown.ts writes there). */
  reporter?: { outputDir: string; historyDir: string; compare?: string };
}

/** A test the run chose, as the certification reporter saw it when the run began. */
export interface PlannedTest {
  id: string;
  title: string;
  annotations: readonly { type: string; description?: string }[];
}

/**
 * Written before any test by the preflight (which partner judges each platform), then, when it runs, by the
 * certification reporter, the one process that sees the run's tests after `-g`, `file:line`, `--shard` and
 * `--last-failed` have chosen them; read by each partner's worker, which starts those probes at once.
 * Without the reporter's (another reporter) workers run each probe when its test comes.
 */
export function writeRunPlan(plan: RunPlan, env: NodeJS.ProcessEnv = process.env): void {
  writeRunJson(planFile, plan, env);
}

/** The run's plan, when the preflight or the certification reporter wrote one. */
export function readRunPlan(env: NodeJS.ProcessEnv = process.env): RunPlan | undefined {
  return readRunJson<RunPlan | undefined>(planFile, undefined, env);
}

const planFile = 'plan.json';

/** The probes the plan gives this project, or undefined when the run has no plan. */
export function plannedProbes(project: string, env: NodeJS.ProcessEnv = process.env): ReadonlySet<string> | undefined {
  const probes = readRunPlan(env)?.probes;
  return probes && new Set(probes[project] ?? []);
}

/** The partner whose tests run the platform's checks for this one, when that is another partner of the run. */
export function platformJudgedBy(project: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const judgedBy = readRunPlan(env)?.platformJudgedBy?.[project];
  return judgedBy === project ? undefined : judgedBy;
}

/**
 * Written by the preflight (fixtures/preflight.ts), before the run begins: each partner's platform credentials
 * that the platform refused (probes/platform-setup.ts). Such a partner judges the platform for no one.
 */
export function writeSetupProblems(problems: Record<string, readonly string[]>, env: NodeJS.ProcessEnv = process.env): void {
  writeRunJson(setupFile, problems, env);
}

/** The partners whose platform set-up failed, with why; none when the preflight did not run. */
export function readSetupProblems(env: NodeJS.ProcessEnv = process.env): Record<string, readonly string[]> {
  return readRunJson<Record<string, readonly string[]>>(setupFile, {}, env);
}

const setupFile = 'setup.json';

/** A JSON file of the run's folder, or `fallback` when it is missing or unreadable. */
export function readJsonFile<T>(file: string, fallback: T): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return fallback;
  }
}

/** A JSON file of the run's folder (0600), for the run's main process to read later; nothing outside a run. */
export function writeRunJson(name: string, value: unknown, env: NodeJS.ProcessEnv = process.env): void {
  const root = env[variable];
  if (root) writeFileSync(path.join(root, name), JSON.stringify(value), { mode: 0o600 });
}

/** A JSON file of the run's folder, or `fallback` outside a run or when the file is missing or unreadable. */
export function readRunJson<T>(name: string, fallback: T, env: NodeJS.ProcessEnv = process.env): T {
  const root = env[variable];
  return root ? readJsonFile(path.join(root, name), fallback) : fallback;
}

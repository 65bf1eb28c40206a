import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Certification } from '../../reports/certification';
import path from 'node:path';
import { tempDir } from './temp';

/** This process's environment without the worker's own TEST_*, PW_* and PLAYWRIGHT_* variables: what a nested run starts from. */
export const parentEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(TEST_|PW_|PLAYWRIGHT_)/.test(name)));

export interface NestedRun {
  code: number | null;
  /** The run's own folder: test-results/, report.json, and whatever else the reporters were told to write there. */
  out: string;
  stdout: string;
  stderr: string;
  /** Playwright's JSON report, when the run got as far as writing one. */
  report?: { stats: { expected: number; unexpected: number; skipped: number; flaky: number }; suites: unknown[] };
}

/**
 * Runs `playwright test` in a child process, as a partner engineer would, with its own output folder so
 * it cannot disturb the run it is nested in. The worker's own TEST_* variables are not passed on.
 * The certification is written into `<out>/certification`, and Playwright's JSON reporter always runs; `reporters` adds
 * `html` into `<out>/html-report`, `junit` into `<out>/junit.xml`, `blob` into `<out>/blob-report`. The certification
 * reporter runs first unless `certification` is false (the certification is then written without it).
 */
/**
 * Runs node with `args` in a child process, from this process's environment (parentEnv) and `env`, without
 * blocking this event loop: a partner the test serves in this process goes on answering.
 */
export async function runNode(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { env: { ...parentEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

export async function runPlaywright(
  args: string[],
  env: Record<string, string>,
  { reporters = [], certification = true }: { reporters?: ('list' | 'certification' | 'html' | 'junit' | 'blob')[]; certification?: boolean } = {},
): Promise<NestedRun> {
  const reporterPaths = { list: 'list', certification: path.resolve('reports/certification-reporter.ts'), html: 'html', junit: 'junit', blob: 'blob' };
  // The certification reporter first, as in playwright.config.ts, unless left out.
  const others = reporters.filter((name) => name !== 'certification').map((name) => reporterPaths[name]);
  const reporter = [...(certification ? [reporterPaths.certification] : []), 'json', ...others].join(',');
  return runPlaywrightWith([`--reporter=${reporter}`, ...args], env);
}

/**
 * `playwright test` with exactly `args` (the reporters they name, or the configured ones), in an output folder of
 * its own: the certification, the test results and every reporter's file (HTML, JUnit, JSON, blob) go there.
 */
export async function runPlaywrightWith(args: string[], env: Record<string, string> = {}): Promise<NestedRun> {
  const out = tempDir('nested-run-');
  const reportFile = path.join(out, 'report.json');
  // Playwright's CLI straight from node: `npx` would add npm's own warnings to stderr.
  const { code, stdout, stderr } = await runNode(
    [path.resolve('node_modules/@playwright/test/cli.js'), 'test', `--output=${path.join(out, 'test-results')}`, ...args],
    {
      CERTIFICATION_REPORT_DIR: path.join(out, 'certification'),
      PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(out, 'html-report'),
      PLAYWRIGHT_HTML_OPEN: 'never',
      PLAYWRIGHT_JUNIT_OUTPUT_FILE: path.join(out, 'junit.xml'),
      PLAYWRIGHT_BLOB_OUTPUT_DIR: path.join(out, 'blob-report'),
      ...env,
      PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile,
    },
  );
  let report: NestedRun['report'];
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8')) as NestedRun['report'];
  } catch {
    report = undefined;
  }
  return { code, out, stdout, stderr, ...(report ? { report } : {}) };
}

interface ReportSuite {
  suites?: ReportSuite[];
  specs?: { title: string; tests: { annotations: { type: string; description?: string }[] }[] }[];
}

/** Why each skipped test of a nested run was skipped, by test title. */
export function skipReasons(report: NestedRun['report']): Record<string, string> {
  const reasons: Record<string, string> = {};
  const walk = (suite: ReportSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) for (const { type, description } of test.annotations) if (type === 'skip') reasons[spec.title] = description ?? '';
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of (report?.suites ?? []) as ReportSuite[]) walk(suite);
  return reasons;
}

/** The certification a nested run wrote for a project. */
export const readCertification = (run: { out: string }, project: string) =>
  JSON.parse(readFileSync(path.join(run.out, 'certification', project, 'certification.json'), 'utf8')) as Certification;

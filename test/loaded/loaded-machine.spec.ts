import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { debianChromiums } from '../../fixtures/browser';
import type { Certification } from '../../reports/certification';
import { runPlaywright, type NestedRun } from '../support/run-playwright';

/**
 * A verdict does not depend on the machine's load, nor on which of Debian's Chromium builds runs. The reference
 * partner is certified as the machine is, in the browser the harness picks (fixtures/browser.ts: Chromium's
 * headless shell); then with every core kept busy by a CPU-bound process for the length of the run (on a 2-core
 * machine: 2 busy loops beside Chromium, the sandbox and the run's own worker); then in Debian's full Chromium.
 * Each gives the same verdict, the same rule outcomes and the same findings. This project runs after the
 * self-tests, so its load slows no other test past its deadline.
 */

// One after another in one worker: the busy loops must load no other run, and the other runs are the machine as it is.
test.describe.configure({ mode: 'default' });

const busyLoops = (count: number): ChildProcess[] => Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));

async function certify(env: Record<string, string> = {}): Promise<{ run: NestedRun; certification: Certification; seconds: number }> {
  const started = Date.now();
  const run = await runPlaywright(['--project=reference'], env, { reporters: ['certification'] });
  const certification = JSON.parse(readFileSync(path.join(run.out, 'certification', 'reference', 'certification.json'), 'utf8')) as Certification;
  return { run, certification, seconds: (Date.now() - started) / 1000 };
}

/** What a verdict rests on, without what varies from run to run (times, ids, tokens in messages). */
const judged = (cert: Certification) => ({
  verdict: cert.verdict,
  platform: cert.platform?.verdict,
  rules: cert.rules.map((rule) => `${rule.id}: ${rule.outcome}`),
  findings: cert.findings.map((finding) => `${finding.rule} ${finding.field}: ${finding.outcome}`).sort(),
  incomplete: cert.incomplete,
});

// Certified once as the machine is, in the browser the harness picks: both tests compare with it.
let asItIs: ReturnType<typeof certify> | undefined;
const idleRun = () => (asItIs ??= certify());

test('the reference partner gets the same verdict and findings with every core kept busy', async () => {
  test.setTimeout(420_000);
  const idle = await idleRun();
  const loops = busyLoops(cpus().length);
  let loaded: Awaited<ReturnType<typeof certify>>;
  try {
    loaded = await certify();
  } finally {
    for (const loop of loops) loop.kill();
  }
  console.log(`reference certification: ${idle.seconds.toFixed(1)} s as the machine was, ${loaded.seconds.toFixed(1)} s with ${loops.length} busy loops`);
  expect(idle.certification.verdict, idle.certification.summary).toBe('CERTIFIED');
  expect(judged(loaded.certification)).toEqual(judged(idle.certification));
  expect(loaded.run.code).toBe(0);
});

// The harness prefers the headless shell, Chromium's own headless build, for its CPU: the checks must read the same
// in the full browser, whose code the shell does not share above the engine (frame-ancestors, postMessage's
// target origin, cookies and storage are the engine's).
const fullChromium = debianChromiums.at(-1)!;
test("the reference partner gets the same verdict and findings in Debian's full Chromium as in the browser the harness picks", async () => {
  test.skip(!existsSync(fullChromium), `there is no ${fullChromium} to compare with (.ci/run installs it)`);
  test.setTimeout(300_000);
  const picked = await idleRun();
  const full = await certify({ CHROMIUM_PATH: fullChromium });
  console.log(`reference certification: ${picked.seconds.toFixed(1)} s in the browser the harness picks, ${full.seconds.toFixed(1)} s in ${fullChromium}`);
  expect(picked.certification.verdict, picked.certification.summary).toBe('CERTIFIED');
  expect(judged(full.certification)).toEqual(judged(picked.certification));
  expect(full.run.code).toBe(0);
});

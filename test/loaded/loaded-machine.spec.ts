import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Certification } from '../../reports/certification';
import { runPlaywright, type NestedRun } from '../support/run-playwright';

/**
 * A verdict does not depend on the machine's load. The reference partner is certified twice, once as the
 * machine is, then with every core kept busy by a CPU-bound process for the length of the run (on a
 * 2-core machine: 2 busy loops beside Chromium, the sandbox and the run's own worker). Both give the
 * same verdict, the same rule outcomes and the same findings. This project runs after the self-tests,
 * so its load slows no other test past its deadline.
 */

const busyLoops = (count: number): ChildProcess[] => Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));

async function certify(): Promise<{ run: NestedRun; certification: Certification; seconds: number }> {
  const started = Date.now();
  const run = await runPlaywright(['--project=reference'], {}, { reporters: ['certification'] });
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

test('the reference partner gets the same verdict and findings with every core kept busy', async () => {
  test.setTimeout(420_000);
  const idle = await certify();
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

import type { FullConfig } from '@playwright/test/reporter';
import { coordinator } from '../run/coordinator';
import { reportDirsOf } from './report-dirs';
import { certifyRun } from './write-run';

/**
 * Playwright's globalTeardown, once every test has ended or the run was stopped: the run's coordinator writes the
 * certification from what the workers said (run/coordinator.ts), and a run that did not certify every partner fails
 * here, naming who (`Error: not certified: …`), whatever reporters the command names.
 */
export default async function globalTeardown(config: FullConfig): Promise<void> {
  const run = coordinator();
  const outcome = await run.finish(config, certifyRun(config, reportDirsOf(run.reporterOptions)));
  const failure = run.failure(outcome);
  if (failure) throw failure;
}

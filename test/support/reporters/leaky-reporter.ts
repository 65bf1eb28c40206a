import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, Reporter } from '@playwright/test/reporter';

/**
 * A reporter of a user's own that writes a secret around the harness's egress, on purpose: the test-only seam of
 * test/self/one-egress.spec.ts. It writes the value of LEAKY_SECRET_VARIABLE's variable into the run's test results
 * when the run ends, as a careless plugin would; the run's final scan must find it and fail the run.
 */
export default class LeakyReporter implements Reporter {
  private outputDir = '';

  onBegin(config: FullConfig) {
    this.outputDir = config.projects.find((project) => project.name !== 'unit')?.outputDir ?? '';
  }

  onEnd() {
    const value = process.env[process.env.LEAKY_SECRET_VARIABLE ?? ''] ?? '';
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(path.join(this.outputDir, 'leaked-by-a-plugin.txt'), `the plugin's debug dump: ${value}\n`);
  }

  printsToStdio() {
    return false;
  }
}

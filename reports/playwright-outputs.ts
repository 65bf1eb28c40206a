import path from 'node:path';
import type { FullConfig } from '@playwright/test/reporter';

/**
 * Where this run's Playwright reporters write, as they resolve it: an option, relative to the configuration's
 * folder, then their environment variable, relative to the working folder, then their default. The HTML and
 * blob reports hold every partner's tests, and Playwright's own record of what a probe's browser did (a
 * `route.fetch` of the platform's sign-on URL, with its token); JSON and JUnit hold what the workers masked.
 */
export function playwrightOutputs(config: Pick<FullConfig, 'reporter' | 'configFile' | 'rootDir'>, env: NodeJS.ProcessEnv = process.env): string[] {
  const configDir = path.dirname(config.configFile ?? path.join(config.rootDir, 'playwright.config.ts'));
  const outputs = new Set<string>();
  const add = (option: string | undefined, variable: string | undefined, fallback?: string) => {
    if (option !== undefined) outputs.add(path.resolve(configDir, option));
    else if (variable !== undefined) outputs.add(path.resolve(variable));
    else if (fallback !== undefined) outputs.add(path.resolve(configDir, fallback));
  };
  for (const [name, raw] of config.reporter) {
    const options = (raw ?? {}) as Record<string, string | undefined>;
    if (name === 'html') add(options.outputFolder, env.PLAYWRIGHT_HTML_OUTPUT_DIR, 'playwright-report');
    if (name === 'blob') add(options.outputFile ?? options.outputDir, env.PLAYWRIGHT_BLOB_OUTPUT_FILE ?? env.PLAYWRIGHT_BLOB_OUTPUT_DIR, 'blob-report');
    if (name === 'json') add(options.outputFile, env.PLAYWRIGHT_JSON_OUTPUT_FILE);
    if (name === 'junit') add(options.outputFile, env.PLAYWRIGHT_JUNIT_OUTPUT_FILE);
  }
  return [...outputs];
}

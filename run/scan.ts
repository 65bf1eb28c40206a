import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test/reporter';
import { filesUnder, secretFinder } from '../redaction/files';
import type { Secret } from '../redaction/secrets';
import { runWide, type Vault } from '../redaction/vault';

/**
 * The run's final scan, as its process exits, after every reporter wrote: a detector, never a second masking. It
 * reads every file written since the run began in Playwright's output folders (the test results, the HTML, blob,
 * JSON and JUnit reports, traces and zips opened), where reporters and plugins write what they were handed, and
 * names each one that holds a value the run must never let out (`scanned`). Nothing the egress (run/egress.ts) let
 * out should hold one: a file named here was written around it, or is a harness bug, and the run fails on it. The
 * certification files are the egress's own, written from data it masked with everything the run knew by then.
 */
export function scanOutputs(config: FullConfig, secrets: readonly Secret[], { since }: { since: Date }): string[] {
  if (secrets.length === 0) return [];
  const holdsSecret = secretFinder(secrets);
  const roots = new Set([...config.projects.map((project) => project.outputDir), ...playwrightOutputs(config)]);
  const files = new Set([...roots].flatMap(filesUnder));
  const found: string[] = [];
  for (const file of files) {
    try {
      // Older files were another run's (2 s earlier, for file systems that store coarse times).
      if (statSync(file).mtimeMs < since.getTime() - 2000) continue;
      if (holdsSecret(readFileSync(file)))
        found.push(`${path.relative(process.cwd(), file) || file} holds a secret of this run: delete it before sharing it, and report this harness bug`);
    } catch (error) {
      found.push(`${file} could not be scanned (${error instanceof Error ? error.message : String(error)}): check it before sharing it`);
    }
  }
  return found;
}

/**
 * What the scan looks for: the harness's own secrets (the signing key), and every partner's value with a secret's
 * entropy, from its profile or learned (a client secret, a key, a code, a token): it can occur in an output only as
 * that secret. A partner's value that may be a word ("{partnerName}" in a URL's query, a token reading "rule") is
 * masked in that partner's artifacts, but is no leak where it is ordinary text of another's.
 */
export const scanned = (vault: Vault): Secret[] =>
  vault.all().filter((secret) => (secret.partner === undefined ? !secret.ordinary && !secret.queryName : runWide(secret)));

/**
 * Where this run's Playwright reporters write, as they resolve it: an option, relative to the configuration's
 * folder, then their environment variable, relative to the working folder, then their default.
 */
function playwrightOutputs(config: Pick<FullConfig, 'reporter' | 'configFile' | 'rootDir'>, env: NodeJS.ProcessEnv = process.env): string[] {
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

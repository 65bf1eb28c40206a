import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Every file under `dirs`, with the SHA-256 of its bytes, by path. */
export function hashesUnder(dirs: readonly string[]): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const dir of dirs)
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
      if (entry.isFile()) {
        const file = path.join(entry.parentPath, entry.name);
        hashes[file] = createHash('sha256').update(readFileSync(file)).digest('hex');
      }
  return hashes;
}

/**
 * A reporter of a user's own, last of the run's: once every reporter has written (its onExit comes after every
 * onEnd), it hashes the run's outputs (its test results, the HTML and blob reports and the certification, where
 * test/support/run-playwright.ts sends them) into HASHES_FILE, so a test can compare them with the same folders
 * after the process exits. It also keeps, in ATTACHMENTS_FILE, every attachment handed to it as each test ended
 * (a file's bytes as they were then): what a reporter of the user's own is handed.
 */
export default class HashingReporter implements Reporter {
  private out = '';
  private readonly handed: { name: string; copy?: string; body?: string }[] = [];

  onBegin(config: FullConfig) {
    this.out = path.dirname(config.projects[0]!.outputDir);
  }

  onTestEnd(_test: TestCase, result: TestResult) {
    for (const { name, path: file, body } of result.attachments)
      this.handed.push({ name, ...(file ? { copy: readFileSync(file).toString('base64') } : {}), ...(body ? { body: body.toString() } : {}) });
  }

  async onExit() {
    const dirs = ['html-report', 'test-results', 'blob-report', 'certification'].map((name) => path.join(this.out, name));
    writeFileSync(process.env.HASHES_FILE!, JSON.stringify(hashesUnder(dirs)));
    writeFileSync(process.env.ATTACHMENTS_FILE!, JSON.stringify(this.handed));
  }

  printsToStdio() {
    return false;
  }
}

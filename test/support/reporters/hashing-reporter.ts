import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

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
 * onEnd), it hashes the folders HASHED_DIRS names into HASHES_FILE, so a test can compare them with the same folders
 * after the process exits. It also keeps, in ATTACHMENTS_FILE, the text of every attachment handed to it as each test
 * ended (traces unzipped by the test): what a reporter of the user's own is handed.
 */
export default class HashingReporter implements Reporter {
  private readonly handed: { name: string; copy?: string; body?: string }[] = [];

  onTestEnd(_test: TestCase, result: TestResult) {
    for (const { name, path: file, body } of result.attachments)
      this.handed.push({ name, ...(file ? { copy: readFileSync(file).toString('base64') } : {}), ...(body ? { body: body.toString() } : {}) });
  }

  async onExit() {
    const dirs = (process.env.HASHED_DIRS ?? '').split(path.delimiter).filter(Boolean);
    writeFileSync(process.env.HASHES_FILE!, JSON.stringify(hashesUnder(dirs)));
    writeFileSync(process.env.ATTACHMENTS_FILE!, JSON.stringify(this.handed));
  }

  printsToStdio() {
    return false;
  }
}

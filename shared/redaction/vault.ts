import { appendFileSync, closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Exchange } from '../../checks/evidence';
import { secretsOf, shortestSecret, type Secret } from './redact';
import { runFolder } from '../run-dir';

/**
 * The secrets of one run, shared by its processes: each worker adds every secret its exchanges carried
 * (codes, tokens, credentials), so a partner that echoes a token issued to another worker is masked
 * there too, and the reporter masks them in what Playwright stores (steps, errors, traces).
 *
 * It lives in the run's private folder (shared/run-dir.ts): one file every process appends its lines to
 * (each line one write, so lines never interleave) and reads from where it stopped, so asking for the
 * secrets costs one stat, not one per process: a 40-partner run's reporter spent 5 s listing and sizing
 * the files of a file per process.
 */
export class Vault {
  /** Every secret this process knows, in the order it became known: each array secrets() hands out starts with the last. */
  private readonly known = new Map<string, Secret>();
  private readonly file: string | undefined;
  /** How much of the file has been read: it only grows. */
  private read = 0;
  private cache: Secret[] | undefined;

  constructor(base: readonly Secret[] = [], { dir = runFolder('vault') }: { dir?: string | undefined } = {}) {
    for (const secret of base) this.remember(secret);
    this.file = dir ? path.join(dir, 'secrets.jsonl') : undefined;
    if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Remembers every secret these exchanges carried, here and for the run's other processes. */
  learn(exchanges: readonly Exchange[]): void {
    this.learnSecrets(secretsOf(exchanges));
  }

  /** Remembers values the harness handed out itself, such as the codes a code source gave. */
  add(values: readonly string[]): void {
    this.learnSecrets(values.filter((value) => value.length >= shortestSecret).map((value) => ({ value })));
  }

  private learnSecrets(secrets: readonly Secret[]): void {
    const fresh = secrets.filter((secret) => !this.known.has(secret.value));
    if (fresh.length === 0) return;
    for (const secret of fresh) this.remember(secret);
    if (this.file) appendFileSync(this.file, fresh.map((secret) => `${JSON.stringify(secret)}\n`).join(''), { mode: 0o600 });
  }

  /**
   * Every secret of the run so far: this process's, and what the others have added to the vault since the
   * last call (only the file's new bytes are read). The same array while nothing changed, so its
   * matcher is built once.
   */
  secrets(): readonly Secret[] {
    const size = this.file ? safeSize(this.file) : 0;
    if (this.file && size > this.read) {
      const text = safeRead(this.file, this.read, size);
      const complete = text.lastIndexOf('\n') + 1; // a line still being written is read next time
      this.read += Buffer.byteLength(text.slice(0, complete));
      for (const line of text.slice(0, complete).split('\n')) {
        const secret = parsed(line);
        if (secret && !this.known.has(secret.value)) this.remember(secret);
      }
    }
    return (this.cache ??= [...this.known.values()]);
  }

  private remember(secret: Secret): void {
    if (this.known.has(secret.value)) return;
    this.known.set(secret.value, secret);
    this.cache = undefined;
  }
}

const safeSize = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};
function safeRead(file: string, from: number, to: number): string {
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(to - from);
      readSync(fd, buffer, 0, buffer.length, from);
      return buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}
function parsed(line: string): Secret | undefined {
  try {
    const value = JSON.parse(line) as Secret;
    return typeof value?.value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

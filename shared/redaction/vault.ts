import { appendFileSync, closeSync, mkdirSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Exchange } from '../../checks/evidence';
import { secretsOf, shortestSecret, type Secret } from './redact';
import { runFolder } from '../run-dir';

/**
 * The secrets of one run, shared by its processes: each worker adds every secret its exchanges carried
 * (codes, tokens, credentials), so a partner that echoes a token issued to another worker is masked
 * there too, and the reporter masks them in what Playwright stores (steps, errors, traces).
 *
 * It lives in the run's private folder (shared/run-dir.ts), a file per process.
 */
export class Vault {
  private readonly known = new Map<string, Secret>();
  private readonly others = new Map<string, Secret>();
  /** Every secret in the order it became known, so each array secrets() hands out starts with the last. */
  private readonly all: Secret[] = [];
  private readonly file: string | undefined;
  /** How much of each other process's file has been read: files only grow. */
  private readonly read = new Map<string, number>();
  private cache: Secret[] | undefined;

  constructor(base: readonly Secret[] = [], { dir = runFolder('vault'), name = String(process.pid) }: { dir?: string | undefined; name?: string } = {}) {
    for (const secret of base) this.remember(this.known, secret);
    this.file = dir ? path.join(dir, `${name}.jsonl`) : undefined;
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
    for (const secret of fresh) this.remember(this.known, secret);
    if (this.file) appendFileSync(this.file, fresh.map((secret) => `${JSON.stringify(secret)}\n`).join(''), { mode: 0o600 });
  }

  /**
   * Every secret of the run so far: this process's, and what the others have added to the vault since the
   * last call (only the new bytes of each file are read). The same array while nothing changed, so its
   * matcher is built once.
   */
  secrets(): readonly Secret[] {
    if (this.file) {
      const dir = path.dirname(this.file);
      for (const name of safeList(dir)) {
        const file = path.join(dir, name);
        if (file === this.file) continue;
        const size = safeSize(file);
        const from = this.read.get(file) ?? 0;
        if (size <= from) continue;
        const text = safeRead(file, from, size);
        const complete = text.lastIndexOf('\n') + 1; // a line still being written is read next time
        this.read.set(file, from + Buffer.byteLength(text.slice(0, complete)));
        for (const line of text.slice(0, complete).split('\n')) {
          const secret = parsed(line);
          if (secret && !this.known.has(secret.value) && !this.others.has(secret.value)) this.remember(this.others, secret);
        }
      }
    }
    return (this.cache ??= [...this.all]);
  }

  private remember(where: Map<string, Secret>, secret: Secret): void {
    if (where.has(secret.value)) return;
    where.set(secret.value, secret);
    this.all.push(secret);
    this.cache = undefined;
  }
}

const safeList = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
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

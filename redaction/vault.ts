import { appendFileSync, closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Exchange } from '../checks/evidence';
import { guessability, minimumBits } from '../checks/token-entropy';
import { secretsOf, shortestSecret, type Secret } from './secrets';

/** A secret and whose it is: a partner's (its project name), or, without `partner`, the harness's own. */
export type ScopedSecret = Secret & { partner?: string };

/**
 * The secrets of one run, shared by its processes: each worker adds every secret its exchanges carried
 * (codes, tokens, credentials), so a partner that echoes a token issued to another of its probes is
 * masked there too, and the reporter masks them in what Playwright stores (steps, errors, traces).
 *
 * Each secret is a partner's, or the harness's own (the signing key): a value learned from one partner
 * masks that partner's artifacts only, so a partner whose token is "NOT CERTIFIED" or another partner's
 * name cannot rewrite another partner's report. `secrets(partner)` is the harness's and that partner's.
 * The run's main process, which writes the files that stay, masks a partner's files with that partner's, then
 * with `runWideSecrets()`: every partner's with a secret's entropy, which can occur in another partner's files
 * only as that secret: a code one profile was issued, echoed by the same server under another profile, is
 * masked there too. The workers keep to their own partner's, whose lists grow all run long.
 *
 * It lives in the run's private folder (run/run-dir.ts): one file every process appends its lines to
 * (each line one write, so lines never interleave) and reads from where it stopped, so asking for the
 * secrets costs one stat, not one per process: a 40-partner run's reporter spent 5 s listing and sizing
 * the files of a file per process.
 */
export class Vault {
  /** Every secret this process knows, in the order it became known. */
  private readonly known = new Map<string, ScopedSecret>();
  /**
   * The secrets of each scope (a partner, or `allScopes`), made when first asked for: each new secret of a
   * scope makes a new array that starts with the last, so its matcher only adds the new ones.
   */
  private readonly views = new Map<string, readonly Secret[]>();
  private readonly file: string | undefined;
  /** The partner this process learns for (a partner's worker); undefined in the reporter. */
  private readonly partner: string | undefined;
  /** How much of the file has been read: it only grows. */
  private read = 0;

  /** `dir`: the folder the run's processes share it in (the run's `vault` folder); without one, this process's alone. */
  constructor(base: readonly ScopedSecret[] = [], { dir, partner }: { dir?: string | undefined; partner?: string } = {}) {
    this.partner = partner;
    for (const secret of base) this.remember(secret);
    this.file = dir ? path.join(dir, 'secrets.jsonl') : undefined;
    if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Remembers every secret these exchanges carried, as this process's partner's, here and for the run's other processes. */
  learn(exchanges: readonly Exchange[]): void {
    this.learnSecrets(secretsOf(exchanges));
  }

  /** Remembers values the harness handed out itself, such as the codes a code source gave. */
  add(values: readonly string[]): void {
    this.learnSecrets(values.filter((value) => value.length >= shortestSecret).map((value) => ({ value })));
  }

  private learnSecrets(secrets: readonly Secret[]): void {
    const fresh = secrets
      .map((secret): ScopedSecret => (this.partner === undefined ? secret : { ...secret, partner: this.partner }))
      .filter((secret) => !this.known.has(keyOf(secret)));
    if (fresh.length === 0) return;
    for (const secret of fresh) this.remember(secret);
    if (this.file) appendFileSync(this.file, fresh.map((secret) => `${JSON.stringify(secret)}\n`).join(''), { mode: 0o600 });
  }

  /**
   * The secrets of one partner's artifacts: the harness's own and that partner's (by default the partner this
   * process learns for; `allScopes` for every partner's, in what no partner owns alone). Includes what the
   * others have added to the vault since the last call (only the file's new bytes are read). The same
   * array while nothing of the scope changed, so its matcher is built once.
   */
  secrets(scope: string = this.partner ?? allScopes): readonly Secret[] {
    return this.view(scope);
  }

  /**
   * Every partner's secrets with a secret's entropy (`runWide`): one list for the whole run, so one matcher,
   * which the run's main process applies after a partner's own (writing each partner's list of every
   * partner's values made a 10-partner run's report writing take twice as long).
   */
  runWideSecrets(): readonly Secret[] {
    return this.view(runWideView);
  }

  private view(key: string): readonly Secret[] {
    this.readFile();
    let view = this.views.get(key);
    if (!view) {
      view = [...this.known.values()].filter((secret) => inView(secret, key));
      this.views.set(key, view);
    }
    return view;
  }

  private readFile(): void {
    const size = this.file ? safeSize(this.file) : 0;
    if (!this.file || size <= this.read) return;
    const text = safeRead(this.file, this.read, size);
    const complete = text.lastIndexOf('\n') + 1; // a line still being written is read next time
    this.read += Buffer.byteLength(text.slice(0, complete));
    for (const line of text.slice(0, complete).split('\n')) {
      const secret = parsed(line);
      if (secret) this.remember(secret);
    }
  }

  private remember(secret: ScopedSecret): void {
    const key = keyOf(secret);
    if (this.known.has(key)) return;
    this.known.set(key, secret);
    for (const [key, view] of this.views) if (inView(secret, key)) this.views.set(key, [...view, secret]);
  }
}

/** The scope of every partner's secrets together: for what belongs to no one partner (a global error). */
export const allScopes = '*';
const inScope = (secret: ScopedSecret, scope: string) => scope === allScopes || secret.partner === undefined || secret.partner === scope;
const runWideView = '\u0000run-wide';
const inView = (secret: ScopedSecret, key: string) => (key === runWideView ? runWide(secret) : inScope(secret, key));

/**
 * A value with a secret's entropy (at least 128 bits by the guessing estimate, in a token's alphabet, letters and
 * digits both): it can occur in another partner's files only as that secret, so masking it there rewrites nothing.
 * Words, spaces and short values stay their partner's alone.
 */
export const runWide = (secret: Secret): boolean =>
  !secret.queryName && !secret.ordinary && /\d/.test(secret.value) && /[a-z]/i.test(secret.value) && entropic(secret.value);
const entropic = (value: string) => {
  const { alphabet, bits } = guessability([value]);
  return alphabet !== 'printable' && bits >= minimumBits;
};
// A partner's secret and the same value of another partner's are two secrets: each masks its own artifacts.
const keyOf = (secret: ScopedSecret) => `${secret.partner ?? ''}\u0000${secret.queryName ? '?' : secret.ordinary ? '~' : ''}${secret.value}`;

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
function parsed(line: string): ScopedSecret | undefined {
  try {
    const value = JSON.parse(line) as ScopedSecret;
    return typeof value?.value === 'string' && (value.partner === undefined || typeof value.partner === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

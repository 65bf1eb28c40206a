import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Exchange } from '../checks/evidence';
import { secretsOf, type Secret } from './redact';

/**
 * The secrets of one run, shared by its processes: each worker adds every secret its exchanges carried
 * (codes, tokens, credentials), so a partner that echoes a token issued to another worker is masked
 * there too, and the reporter masks them in what Playwright stores (steps, errors, traces).
 *
 * It lives outside every output folder, in a private temporary folder (0700, files 0600) that the run's
 * main process creates and removes when it exits; CERTIFY_VAULT_DIR tells the workers where it is.
 */
const variable = 'CERTIFY_VAULT_DIR';

/** In the run's main process (playwright.config.ts): a fresh vault, removed when the process exits. */
export function openRunVault(env: NodeJS.ProcessEnv = process.env): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'partner-certify-vault-'));
  env[variable] = dir;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export class Vault {
  private readonly known = new Map<string, Secret>();
  private readonly file: string | undefined;
  private cache: Secret[] | undefined;
  private othersSeen = 0;

  constructor(base: readonly Secret[] = [], dir: string | undefined = process.env[variable]) {
    for (const secret of base) this.known.set(secret.value, secret);
    this.file = dir ? path.join(dir, `${process.pid}.jsonl`) : undefined;
    if (this.file) mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
  }

  /** Remembers every secret these exchanges carried, here and for the run's other processes. */
  learn(exchanges: readonly Exchange[]): void {
    this.learnSecrets(secretsOf(exchanges));
  }

  private learnSecrets(secrets: readonly Secret[]): void {
    const fresh = secrets.filter((secret) => !this.known.has(secret.value));
    if (fresh.length === 0) return;
    for (const secret of fresh) this.known.set(secret.value, secret);
    this.cache = undefined;
    if (this.file) appendFileSync(this.file, fresh.map((secret) => `${JSON.stringify(secret)}\n`).join(''), { mode: 0o600 });
  }

  /** Remembers values the harness handed out itself, such as the codes a code source gave. */
  add(values: readonly string[]): void {
    this.learnSecrets(values.filter((value) => value.length >= 6).map((value) => ({ value })));
  }

  /** Every secret of the run so far: this process's, and what the others have written to the vault. */
  secrets(): readonly Secret[] {
    const dir = this.file && path.dirname(this.file);
    const others = new Map<string, Secret>();
    if (dir) {
      for (const name of safeList(dir)) {
        if (name === path.basename(this.file ?? '')) continue;
        for (const line of safeRead(path.join(dir, name)).split('\n')) {
          const secret = parsed(line);
          if (secret && !this.known.has(secret.value)) others.set(secret.value, secret);
        }
      }
    }
    // Secrets are only ever added, so the same count is the same set: the array (and its matcher) is reused.
    if (!this.cache || others.size !== this.othersSeen) this.cache = [...this.known.values(), ...others.values()];
    this.othersSeen = others.size;
    return this.cache;
  }
}

const safeList = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
const safeRead = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};
function parsed(line: string): Secret | undefined {
  try {
    const value = JSON.parse(line) as Secret;
    return typeof value?.value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

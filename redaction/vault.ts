import type { Exchange } from '../checks/evidence';
import { guessability, minimumBits } from '../checks/token-entropy';
import { secretsOf, shortestSecret, type Secret } from './secrets';

/** A secret and whose it is: a partner's (its project name), or, without `partner`, the harness's own. */
export type ScopedSecret = Secret & { partner?: string };

/**
 * The secrets one process knows: the profiles' (handed in), and every secret the run's exchanges carried
 * (codes, tokens, credentials), so a partner that echoes a token issued to another of its probes is masked
 * there too.
 *
 * Each secret is a partner's, or the harness's own (the signing key): a value learned from one partner masks
 * that partner's artifacts only, so a partner whose token is "NOT CERTIFIED" or another partner's name cannot
 * rewrite another partner's report, with one exception: a value with a secret's entropy (`runWide`) can occur
 * in another partner's files only as that secret, so it masks every partner's (a code one profile was issued,
 * echoed by the same server under another profile). `masking(partner)` is what that partner's artifacts are
 * masked with: the harness's, the partner's own, and every partner's run-wide ones.
 *
 * The run's processes share it through the run's channel (run/channel.ts), in memory: what this process
 * learns goes to `onLearn`, and what the others learned comes back through `receive`. Nothing is on disk.
 */
export class Vault {
  /** Every secret this process knows, in the order it became known. */
  private readonly known = new Map<string, ScopedSecret>();
  /**
   * The secrets of each view, made when first asked for: each new secret of a view makes a new array that
   * starts with the last, so its matcher (redaction/redact.ts) only adds the new ones.
   */
  private readonly views = new Map<string, readonly Secret[]>();

  constructor(
    base: readonly ScopedSecret[] = [],
    private readonly options: {
      /** The partner this process learns for (a partner's worker); undefined in the run's main process. */
      partner?: string;
      /** Where what this process learns goes, for the run's other processes. */
      onLearn?: (fresh: readonly ScopedSecret[]) => void;
    } = {},
  ) {
    for (const secret of base) this.remember(secret);
  }

  /** Remembers every secret these exchanges carried, as this process's partner's. */
  learn(exchanges: readonly Exchange[]): void {
    this.learnSecrets(secretsOf(exchanges));
  }

  /** Remembers values the harness met itself, such as the codes a code source gave. */
  add(values: readonly string[]): void {
    this.learnSecrets(values.filter((value) => value.length >= shortestSecret).map((value) => ({ value })));
  }

  /** Remembers what another process of the run learned (each already scoped); returns those it did not know. */
  receive(secrets: readonly ScopedSecret[]): ScopedSecret[] {
    return secrets.filter((secret) => this.remember(secret));
  }

  private learnSecrets(secrets: readonly Secret[]): void {
    const { partner, onLearn } = this.options;
    const fresh = secrets
      .map((secret): ScopedSecret => (partner === undefined ? secret : { ...secret, partner }))
      .filter((secret) => !this.known.has(keyOf(secret)));
    if (fresh.length === 0) return;
    for (const secret of fresh) this.remember(secret);
    onLearn?.(fresh);
  }

  /**
   * What one partner's artifacts are masked with, beside `runWide()`: the harness's own secrets and the partner's.
   * Without a partner (what is every partner's: the fleet overview, the run's own lines), the harness's only. The
   * same array while nothing of the view changed, so its matcher is built once.
   */
  masking(partner: string | undefined = this.options.partner): readonly Secret[] {
    return this.view(partner ?? runView);
  }

  /**
   * Every partner's secrets with a secret's entropy, which mask every partner's artifacts (with the run's ordinary
   * text, whose fragments are spared): one list for the run, so
   * one matcher, whichever partner's files are written (ten partners' lists of every partner's values made a fleet's
   * reports take twice as long to write).
   */
  runWide(): readonly Secret[] {
    return this.view(runWideView);
  }

  /** Every secret known, with its scope: what the run's final scan looks for (run/scan.ts). */
  all(): readonly ScopedSecret[] {
    return [...this.known.values()];
  }

  private view(key: string): readonly Secret[] {
    let view = this.views.get(key);
    if (!view) {
      view = [...this.known.values()].filter((secret) => inView(secret, key));
      this.views.set(key, view);
    }
    return view;
  }

  private remember(secret: ScopedSecret): boolean {
    const key = keyOf(secret);
    if (this.known.has(key)) return false;
    this.known.set(key, secret);
    for (const [scope, view] of this.views) if (inView(secret, scope)) this.views.set(scope, [...view, secret]);
    return true;
  }
}

const runView = '\u0000run';
const runWideView = '\u0000run-wide';
// The run-wide list holds the run's ordinary text too (the harness's words, every profile's values that are no secret):
// a fragment of a secret found in it is spared (DESIGN §5), as in every list, so `ng-secret-` of a client secret
// never masks the rule id `token-exchange/wrong-secret-rejected`.
const inView = (secret: ScopedSecret, view: string) =>
  view === runWideView
    ? secret.ordinary === true || (secret.partner !== undefined && runWide(secret))
    : secret.partner === undefined || secret.partner === view;

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

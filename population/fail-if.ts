import { outcomeKeys, type OutcomeCounts, type OutcomeKey } from './summary-schema';

/**
 * `--fail-if <outcome>><bound>`: a gate a pipeline sets on a run, crossed when more users than the bound meet the
 * outcome; the bound a share (`5%`) or a number of users (`1000`).
 */
export interface FailIf {
  outcome: OutcomeKey;
  /** A share of the users judged, or a number of users. */
  bound: { share: Share } | { users: number };
  text: string;
}

/** The gate `text` says, or why it says none (a line for a usage error). */
export function parseFailIf(text: string): FailIf | string {
  const match = /^([a-z-]+)>(\d+(?:\.\d+)?)(%?)$/.exec(text.trim());
  const usage = `--fail-if ${text}: give <outcome>><share or users>, e.g. --fail-if error-screen>5%, with an outcome of ${outcomeKeys.join(', ')}`;
  if (!match) return usage;
  const [, outcome, number, percent] = match as unknown as [string, string, string, string];
  if (!(outcomeKeys as readonly string[]).includes(outcome)) return usage;
  const value = Number(number);
  if (percent && value > 100) return `--fail-if ${text}: a share is at most 100%`;
  // A fraction JSON's numbers cannot hold (66.9999999999999999 reads as 67) is a fraction all the same.
  if (!percent && value > Number.MAX_SAFE_INTEGER) return `--fail-if ${text}: a number of users is at most ${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')}`;
  if (!percent && (!Number.isInteger(value) || /\.\d*[1-9]/.test(number))) return `--fail-if ${text}: a number of users is whole; for a share, add %`;
  return { outcome: outcome as OutcomeKey, bound: percent ? { share: new Share(number) } : { users: value }, text: text.trim() };
}

/** Each gate the outcomes cross, as a line: how many users met it, against the bound. */
export function crossed(gates: readonly FailIf[], outcomes: OutcomeCounts): string[] {
  const users = outcomeKeys.reduce((sum, key) => sum + outcomes[key], 0);
  return gates.flatMap((gate) => {
    const met = outcomes[gate.outcome];
    const over = 'share' in gate.bound ? gate.bound.share.exceededBy(met, users) : met > gate.bound.users;
    const share = users > 0 ? ` (${((100 * met) / users).toFixed(1)}%)` : '';
    return over ? [`--fail-if ${gate.text}: ${met.toLocaleString('en-US')} of ${users.toLocaleString('en-US')} users${share} meet ${gate.outcome}`] : [];
  });
}

/**
 * A share as a percentage is written (`0.7%`), compared exactly: 7 of 1,000 users is not more than 0.7%, though 7 / 1000
 * is more than 0.7 / 100 in floating point, which crossed a gate set exactly at a run's share.
 */
export class Share {
  private readonly numerator: bigint;
  private readonly denominator: bigint;
  /** `percent`: digits, with a fraction or not (`0.7`). */
  constructor(readonly percent: string) {
    const [whole, fraction = ''] = percent.split('.');
    this.numerator = BigInt(`${whole}${fraction}`);
    this.denominator = 100n * 10n ** BigInt(fraction.length);
  }

  /** Whether `part` of `whole` is more than this share (never, of none). */
  exceededBy(part: number, whole: number): boolean {
    return whole > 0 && BigInt(part) * this.denominator > this.numerator * BigInt(whole);
  }
}

/** A share written as a percentage (`1%`), or why it is none. */
export function shareOf(name: string, value: string): Share | string {
  const match = /^(\d+(?:\.\d+)?)%$/.exec(value);
  if (!match || Number(match[1]) > 100) return `--${name} ${value}: give a share, e.g. 1%`;
  return new Share(match[1]!);
}

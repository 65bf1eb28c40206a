import type { Rule } from './finding';

/**
 * How hard the partner's codes and access tokens are to guess, judged from a few the run was given
 * (RFC 6749 §10.10: at most 2^-128; RFC 6750 §5.2). A handful of samples cannot prove randomness, so
 * the estimate is an upper bound: the characters that vary, times the bits of the alphabet they use.
 * Messages describe the values (length, alphabet, what they share); they never show one.
 */

export const minimumBits = 128;

const alphabets = [
  { name: '[0-9]', size: 10, test: /^[0-9]*$/ },
  { name: '[0-9a-f]', size: 16, test: /^[0-9a-f]*$/ },
  { name: '[0-9A-F]', size: 16, test: /^[0-9A-F]*$/ },
  { name: '[0-9a-z]', size: 36, test: /^[0-9a-z]*$/ },
  { name: '[0-9A-Z]', size: 36, test: /^[0-9A-Z]*$/ },
  { name: '[0-9A-Za-z]', size: 62, test: /^[0-9A-Za-z]*$/ },
  { name: 'base64', size: 64, test: /^[0-9A-Za-z+/=_-]*$/ },
] as const;

export interface Guessability {
  samples: number;
  /** The shortest sample's length. */
  length: number;
  alphabet: string;
  /** Leading and trailing characters every sample shares: they carry nothing an attacker must guess. */
  sharedPrefix: number;
  sharedSuffix: number;
  /** Set when the varying parts read as numbers that follow one another: the largest step between two. */
  sequentialStep?: number;
  /** A signed JWT is as hard to forge as its signature; an unsigned one is free to write. */
  jwt?: 'signed' | 'unsigned';
  bits: number;
}

function commonPrefix(values: readonly string[]): number {
  const first = values[0] ?? '';
  let n = 0;
  while (n < first.length && values.every((v) => v[n] === first[n])) n++;
  return n;
}

const reversed = (value: string) => [...value].reverse().join('');

function jwtKind(values: readonly string[]): Guessability['jwt'] {
  if (!values.every((v) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(v))) return undefined;
  try {
    const header = JSON.parse(Buffer.from(values[0]!.split('.')[0]!, 'base64url').toString('utf8')) as { alg?: unknown };
    if (typeof header.alg !== 'string') return undefined;
    return header.alg.toLowerCase() === 'none' || values.some((v) => v.split('.')[2] === '') ? 'unsigned' : 'signed';
  } catch {
    return undefined;
  }
}

/** Numbers of at most 13 digits (or 11 hex digits) stay exact in a double. */
function sequentialStep(middles: readonly string[], alphabet: string): number | undefined {
  const radix = alphabet === '[0-9]' ? 10 : alphabet === '[0-9a-f]' || alphabet === '[0-9A-F]' ? 16 : undefined;
  if (!radix || middles.length < 2 || middles.some((m) => m.length === 0 || m.length > (radix === 10 ? 13 : 11))) return undefined;
  const numbers = middles.map((m) => Number.parseInt(m, radix)).sort((a, b) => a - b);
  const step = Math.max(...numbers.slice(1).map((n, i) => n - numbers[i]!));
  return step <= 2 ** 20 ? step : undefined;
}

export function guessability(values: readonly string[]): Guessability {
  const length = Math.min(...values.map((v) => v.length));
  const jwt = jwtKind(values);
  const sharedPrefix = values.length > 1 ? commonPrefix(values) : 0;
  const sharedSuffix = values.length > 1 ? Math.min(commonPrefix(values.map(reversed)), length - sharedPrefix) : 0;
  const middles = values.map((v) => v.slice(sharedPrefix, v.length - sharedSuffix));
  // The alphabet of what varies: a fixed "tok-" says nothing of the characters a guess must cover.
  const varyingText = middles.join('') || values.join('');
  const alphabet = alphabets.find((a) => a.test.test(varyingText)) ?? { name: 'printable', size: 95 };
  const step = sequentialStep(middles, alphabet.name);
  const varying = Math.max(0, length - sharedPrefix - sharedSuffix);
  const signatureBits = jwt === 'signed' ? Math.min(...values.map((v) => v.split('.')[2]!.length)) * 6 : undefined;
  const bits =
    jwt === 'unsigned' ? 0 : step !== undefined ? Math.log2(step * values.length + 1) : (signatureBits ?? Math.floor(varying * Math.log2(alphabet.size)));
  return {
    samples: values.length,
    length,
    alphabet: alphabet.name,
    sharedPrefix,
    sharedSuffix,
    ...(step !== undefined ? { sequentialStep: step } : {}),
    ...(jwt ? { jwt } : {}),
    bits: Math.floor(bits),
  };
}

function describe(what: string, g: Guessability): string {
  if (g.jwt === 'unsigned') return `${what} are JWTs without a signature ("alg": "none"): anyone can write one`;
  const shared = [g.sharedPrefix > 0 ? `the first ${g.sharedPrefix}` : '', g.sharedSuffix > 0 ? `the last ${g.sharedSuffix}` : '']
    .filter(Boolean)
    .join(' and ');
  const sequence = g.sequentialStep !== undefined ? `; what varies reads as numbers that follow one another (steps of at most ${g.sequentialStep})` : '';
  return `${what}: ${g.samples} samples of ${g.length}${g.samples > 1 ? ' or more' : ''} characters from ${g.alphabet}${shared ? `, ${shared} shared by all` : ''}${sequence}; at most ${g.bits} bits of entropy each, below the ${minimumBits} of RFC 6749 §10.10 (one guess in 2^${g.bits} succeeds)`;
}

function unguessable(id: string, what: string, field: string): Rule<{ values: readonly string[] } | { notApplicable: string }> {
  return {
    id,
    owner: 'partner',
    field,
    clause: 'RFC6749 §10.10',
    level: 'SHOULD',
    requirement: `${what} carry at least ${minimumBits} bits an attacker must guess (RFC 6749 §10.10), judged from a few samples`,
    impact: `an attacker who can guess ${what} needs no user, no code and no secret`,
    levelWhy: 'RFC 6749 §10.10 says MUST, but a few samples give only an upper bound on the entropy, never a proof: a warning that says what was measured',
    check: (input) => {
      if ('notApplicable' in input) return [{ code: 'not-applicable', message: input.notApplicable, outcome: 'skipped' }];
      if (input.values.length === 0) return [{ code: 'none-issued', message: `no ${what} were issued to judge`, outcome: 'skipped' }];
      const g = guessability(input.values);
      if (g.bits >= minimumBits) return [];
      return [
        {
          code: 'guessable',
          params: { samples: g.samples, length: g.length, alphabet: g.alphabet, bits: g.bits },
          message: `${describe(`the ${what} ("${field}")`, g)}; make each one at least 128 random bits from a cryptographic generator, e.g. 32 random bytes in base64url`,
        },
      ];
    },
  };
}

export const unguessableTokens = unguessable('token-exchange/unguessable-tokens', 'access tokens', 'access_token');
export const unguessableCodes = unguessable('token-exchange/unguessable-codes', 'authorization codes', 'code');

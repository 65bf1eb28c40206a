/**
 * The rolling hash of 8-byte windows (Rabin-Karp) that secret-matcher.ts finds secrets with: one pass over
 * a text finds every window of every secret it holds.
 */
export const seedLength = 8;
const base = 257;
const modulus = 1_000_000_007;
let power = 1;
for (let k = 1; k < seedLength; k++) power = (power * base) % modulus;

export function hashAt(units: Uint8Array, at: number): number {
  let hash = 0;
  for (let k = 0; k < seedLength; k++) hash = (hash * base + units[at + k]!) % modulus;
  return hash;
}

/** The hash of the window one byte on: `out` left it, `into` joined it. */
export const roll = (hash: number, out: number, into: number) => (((hash - ((out * power) % modulus) + modulus) % modulus) * base + into) % modulus;

/**
 * For each offset of `units`, the longest run from there (a seed or longer; else 0) that occurs in one of
 * `texts`: a fragment of a secret that starts at `offset` occurs in them when it is no longer. One pass over the texts.
 */
export function longestRunsIn(units: Uint8Array, texts: readonly Uint8Array[]): Int32Array {
  const runs = new Int32Array(units.length);
  const windows = new Map<number, number[]>();
  for (let offset = 0; offset + seedLength <= units.length; offset++) {
    const hash = hashAt(units, offset);
    windows.set(hash, [...(windows.get(hash) ?? []), offset]);
  }
  for (const text of texts.filter((t) => t.length >= seedLength)) {
    let hash = hashAt(text, 0);
    for (let at = 0; at + seedLength <= text.length; at++) {
      if (at > 0) hash = roll(hash, text[at - 1]!, text[at + seedLength - 1]!);
      for (const offset of windows.get(hash) ?? []) {
        let run = 0;
        while (offset + run < units.length && at + run < text.length && units[offset + run] === text[at + run]) run++;
        if (run >= seedLength && run > runs[offset]!) runs[offset] = run;
      }
    }
  }
  return runs;
}

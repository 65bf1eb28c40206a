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
 * The 8-byte windows of some texts (the run's ordinary text), indexed once: then, for each offset of a secret,
 * the longest run from there (a seed or longer; else 0) that occurs in one of the texts, in time linear in the
 * secret, whatever the texts' length. A fragment of a secret that starts at `offset` occurs in them when it is
 * no longer. Scanning every text for each secret instead cost a 10-partner run's reports a second.
 */
export class WindowIndex {
  private readonly bytes: Uint8Array;
  /** For each byte, where its text ends: a run never crosses from one text into the next. */
  private readonly textEnd: Int32Array;
  private readonly starts = new Map<number, number[]>();

  constructor(texts: readonly Uint8Array[]) {
    const total = texts.reduce((sum, text) => sum + text.length, 0);
    this.bytes = new Uint8Array(total);
    this.textEnd = new Int32Array(total);
    let start = 0;
    for (const text of texts) {
      this.bytes.set(text, start);
      this.textEnd.fill(start + text.length, start, start + text.length);
      let hash = text.length >= seedLength ? hashAt(text, 0) : 0;
      for (let at = 0; at + seedLength <= text.length; at++) {
        if (at > 0) hash = roll(hash, text[at - 1]!, text[at + seedLength - 1]!);
        const list = this.starts.get(hash);
        if (list) list.push(start + at);
        else this.starts.set(hash, [start + at]);
      }
      start += text.length;
    }
  }

  longestRuns(units: Uint8Array): Int32Array {
    const runs = new Int32Array(units.length);
    let hash = units.length >= seedLength ? hashAt(units, 0) : 0;
    for (let offset = 0; offset + seedLength <= units.length; offset++) {
      if (offset > 0) hash = roll(hash, units[offset - 1]!, units[offset + seedLength - 1]!);
      for (const at of this.starts.get(hash) ?? []) {
        const end = this.textEnd[at]!;
        let run = 0;
        while (offset + run < units.length && at + run < end && units[offset + run] === this.bytes[at + run]) run++;
        if (run >= seedLength && run > runs[offset]!) runs[offset] = run;
      }
    }
    return runs;
  }
}

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
 * Windows by their hash: for each, two numbers (where it sits), in insertion order. Typed arrays, chained in
 * buckets: a JavaScript array per window made indexing a fleet's secrets cost each worker half a second.
 */
export class WindowTable {
  private buckets = new Int32Array(1024).fill(-1);
  private tails = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  private firsts = new Int32Array(1024);
  private seconds = new Int32Array(1024);
  private nexts = new Int32Array(1024);
  private size = 0;

  add(hash: number, first: number, second: number): void {
    if (this.size === this.hashes.length) this.grow();
    const entry = this.size++;
    this.hashes[entry] = hash;
    this.firsts[entry] = first;
    this.seconds[entry] = second;
    this.nexts[entry] = -1;
    this.link(entry);
  }

  /** The first entry of `hash`, or -1; then `next(entry, hash)` until -1. */
  find(hash: number): number {
    return this.skipTo(this.buckets[hash & (this.buckets.length - 1)]!, hash);
  }

  next(entry: number, hash: number): number {
    return this.skipTo(this.nexts[entry]!, hash);
  }

  first(entry: number): number {
    return this.firsts[entry]!;
  }

  second(entry: number): number {
    return this.seconds[entry]!;
  }

  private skipTo(entry: number, hash: number): number {
    while (entry !== -1 && this.hashes[entry] !== hash) entry = this.nexts[entry]!;
    return entry;
  }

  private link(entry: number): void {
    const bucket = this.hashes[entry]! & (this.buckets.length - 1);
    if (this.buckets[bucket] === -1) this.buckets[bucket] = entry;
    else this.nexts[this.tails[bucket]!] = entry;
    this.tails[bucket] = entry;
  }

  private grow(): void {
    const bigger = (array: Int32Array) => {
      const grown = new Int32Array(array.length * 2);
      grown.set(array);
      return grown;
    };
    [this.hashes, this.firsts, this.seconds, this.nexts] = [bigger(this.hashes), bigger(this.firsts), bigger(this.seconds), bigger(this.nexts)];
    // As many buckets as entries: chains stay about one long. Linked again in insertion order, which each chain keeps.
    this.buckets = new Int32Array(this.hashes.length).fill(-1);
    this.tails = new Int32Array(this.hashes.length);
    for (let entry = 0; entry < this.size; entry++) {
      this.nexts[entry] = -1;
      this.link(entry);
    }
  }
}

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
  /** Each window's hash to where it starts in `bytes`. */
  private readonly starts = new WindowTable();

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
        this.starts.add(hash, start + at, 0);
      }
      start += text.length;
    }
  }

  longestRuns(units: Uint8Array): Int32Array {
    const runs = new Int32Array(units.length);
    let hash = units.length >= seedLength ? hashAt(units, 0) : 0;
    for (let offset = 0; offset + seedLength <= units.length; offset++) {
      if (offset > 0) hash = roll(hash, units[offset - 1]!, units[offset + seedLength - 1]!);
      for (let entry = this.starts.find(hash); entry !== -1; entry = this.starts.next(entry, hash)) {
        const at = this.starts.first(entry);
        const end = this.textEnd[at]!;
        let run = 0;
        while (offset + run < units.length && at + run < end && units[offset + run] === this.bytes[at + run]) run++;
        if (run >= seedLength && run > runs[offset]!) runs[offset] = run;
      }
    }
    return runs;
  }
}

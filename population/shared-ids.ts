import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * `user.id` must identify one user (spec §2.3): the platform keys its account by it, so two records with one id sign
 * two people into one account. The ids of a run are counted by their 52-bit hash (population/tally.ts personOf) and
 * a keyed 32-bit one (idCheck), exactly while at most `idsCounted` distinct ones are held (12 bytes an id); past that,
 * and across the shards of a merge, the distinct ids are estimated by a HyperLogLog of 2^14 registers (a relative
 * error of about 0.8%, 1.04/√2^14), which the report states.
 */
export const idsCounted = 4_000_000;
const registerBits = 14;
const registers = 1 << registerBits;

export const sharedIdsSchema = z.object({
  /** Records with a user.id. */
  records: z.number().int().nonnegative(),
  /** Records whose id an earlier record had, and the ids shared: counted exactly while `exact`. */
  repeats: z.number().int().nonnegative(),
  sharedIds: z.number().int().nonnegative(),
  exact: z.boolean(),
  /** The HyperLogLog's registers, base64: the distinct ids estimated, and parts merged. */
  sketch: z.string(),
});
export type SharedIds = z.infer<typeof sharedIdsSchema>;

/** MurmurHash3's finalizer: every bit of the hash depends on every bit of its input (ids that differ in one digit). */
export function mixed(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * A second, 32-bit hash of an id, keyed by the run's own random `key`: two ids are one only when both their hashes
 * agree. The 52-bit hash alone is public, and a pair of ids that share it was found in 30 s (the seventeenth red team),
 * which counted two users as one id with "exact" said; by chance, 4,000,000 ids shared one 0.2% of the time. With
 * this, chance is 2^-84 a pair, and a pair crafted without the key agrees here one time in 2^32.
 */
export function idCheck(id: string, key: number): number {
  let h = key | 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) ^ (h >>> 13);
  return mixed(h ^ id.length) >>> 0;
}

/** The ids of one run, as the main thread receives them from its workers: each a 52-bit hash and its idCheck. */
export class IdCounter {
  private table = new Float64Array(1 << 16);
  private checks = new Uint32Array(1 << 16);
  private seen = new Uint8Array(1 << 16);
  private held = 0;
  private readonly sketch = new Uint8Array(registers);
  /**
   * Where a hash goes in the table is keyed by this run's own random salt: the hash is public (a merge's shards must
   * agree on it), so ids chosen to crowd one stretch of an unkeyed table would make counting them quadratic.
   */
  private readonly salt = randomBytes(8);
  private readonly saltHigh = this.salt.readUInt32LE(0);
  private readonly saltLow = this.salt.readUInt32LE(4);
  /** Slots looked at, for the self-test that crafted ids cost what others do. */
  probes = 0;
  records = 0;
  repeats = 0;
  sharedIds = 0;
  exact = true;

  /** `pairs`: each id's hash, then its idCheck. */
  add(pairs: Float64Array): void {
    for (let i = 0; i + 1 < pairs.length; i += 2) this.addOne(pairs[i]!, pairs[i + 1]!);
  }

  private addOne(hash: number, check: number): void {
    this.records++;
    const high = Math.floor(hash / 0x100000);
    const index = high >>> (32 - registerBits);
    const rest = ((high << registerBits) >>> 0) | ((hash % 0x100000) >>> 6);
    const rank = Math.clz32(rest) + 1;
    if (rank > this.sketch[index]!) this.sketch[index] = rank;
    if (!this.exact) return;
    // Open addressing; a hash is ≥ 1 (an empty slot is 0): hashes are shifted by one.
    const key = hash + 1;
    const mask = this.table.length - 1;
    for (let slot = this.slotOf(hash) & mask; ; slot = (slot + 1) & mask) {
      this.probes++;
      if (this.table[slot] === 0) {
        if (this.held >= idsCounted) {
          this.exact = false;
          return;
        }
        this.table[slot] = key;
        this.checks[slot] = check;
        this.seen[slot] = 1;
        if (++this.held * 2 > this.table.length) this.grow();
        return;
      }
      if (this.table[slot] === key && this.checks[slot] === check) {
        this.repeats++;
        if (this.seen[slot] === 1) this.sharedIds++;
        if (this.seen[slot]! < 2) this.seen[slot] = 2;
        return;
      }
    }
  }

  private grow(): void {
    const [table, checks, seen] = [this.table, this.checks, this.seen];
    this.table = new Float64Array(table.length * 2);
    this.checks = new Uint32Array(table.length * 2);
    this.seen = new Uint8Array(table.length * 2);
    const mask = this.table.length - 1;
    for (let i = 0; i < table.length; i++) {
      const key = table[i]!;
      if (key === 0) continue;
      const hash = key - 1;
      let slot = this.slotOf(hash) & mask;
      while (this.table[slot] !== 0) slot = (slot + 1) & mask;
      this.table[slot] = key;
      this.checks[slot] = checks[i]!;
      this.seen[slot] = seen[i]!;
    }
  }

  private slotOf(hash: number): number {
    return mixed(Math.imul(Math.floor(hash / 0x100000) ^ this.saltHigh, 0x9e3779b1) ^ (hash % 0x100000) ^ this.saltLow) >>> 0;
  }

  summary(): SharedIds {
    return { records: this.records, repeats: this.repeats, sharedIds: this.sharedIds, exact: this.exact, sketch: Buffer.from(this.sketch).toString('base64') };
  }
}

export const noSharedIds = (): SharedIds => ({ records: 0, repeats: 0, sharedIds: 0, exact: true, sketch: Buffer.alloc(registers).toString('base64') });

/** Parts added: their sketches joined; an id two parts share is known only to the sketch, so the counts are estimates. */
export function addSharedIds(into: SharedIds, from: SharedIds): SharedIds {
  const [a, b] = [Buffer.from(into.sketch, 'base64'), Buffer.from(from.sketch, 'base64')];
  for (let i = 0; i < registers; i++) a[i] = Math.max(a[i]!, b[i]!);
  const records = into.records + from.records;
  const bothHad = into.records > 0 && from.records > 0;
  return {
    records,
    repeats: into.repeats + from.repeats,
    sharedIds: into.sharedIds + from.sharedIds,
    exact: into.exact && from.exact && !bothHad,
    sketch: a.toString('base64'),
  };
}

/** Distinct ids, estimated from the sketch (HyperLogLog, with its small-range correction). */
export function distinctEstimate({ sketch }: SharedIds): number {
  const bytes = Buffer.from(sketch, 'base64');
  let sum = 0;
  let zeros = 0;
  for (const rank of bytes) {
    sum += 2 ** -rank;
    if (rank === 0) zeros++;
  }
  const alpha = 0.7213 / (1 + 1.079 / registers);
  const raw = (alpha * registers * registers) / sum;
  return Math.round(raw <= 2.5 * registers && zeros > 0 ? registers * Math.log(registers / zeros) : raw);
}

export const relativeError = 1.04 / Math.sqrt(registers);

import { z } from 'zod';

/**
 * Counts of keys (a rule's shapes, its advice texts) kept within a bound whatever the input, the heaviest exactly
 * enough (Misra–Gries, in batches): past `2 × most` keys, the (most + 1)-th largest count is taken from every count
 * and the keys left at zero dropped. A count is then never above the users it stands for and at most `off` below;
 * a key that is not kept stands for at most `off` users, so any key more than `off` users share is kept; `lost` is
 * what the counts no longer hold. Kept counts add up: parts (workers, shards) are added, then cut the same way.
 */
export const keptSchema = z.object({
  counts: z.record(z.string(), z.number().int().nonnegative()),
  /** The most any count is short by, and the most users a key not kept stands for. */
  off: z.number().int().nonnegative(),
  /** Users the counts no longer hold, in all. */
  lost: z.number().int().nonnegative(),
  /** Per key, the people it stands for (a hash of each user's id, or of the record's line), up to `peopleKept`: k counts them. */
  people: z.record(z.string(), z.array(z.number().int().nonnegative()).max(20)),
});
export type Kept = z.infer<typeof keptSchema>;

export const noneKept = (): Kept => ({ counts: {}, off: 0, lost: 0, people: {} });

/** The most people a key remembers: k, the fewest people a shape must stand for to be shown, is at most this. */
export const peopleKept = 20;

/** Adds `person` to the people `key` stands for, up to peopleKept. */
function addPerson(kept: Kept, key: string, person: number): void {
  const people = (kept.people[key] ??= []);
  if (people.length < peopleKept && !people.includes(person)) people.push(person);
}

// How many keys each table holds, so that a new key costs no Object.keys.
const sizes = new WeakMap<Record<string, number>, number>();
const sizeOf = (counts: Record<string, number>) => sizes.get(counts) ?? Object.keys(counts).length;

/** Adds a user, `person`, to `key`, keeping about `most` keys (at most twice as many). */
export function keep(kept: Kept, key: string, most: number, person: number): void {
  const { counts } = kept;
  const count = counts[key];
  if (count !== undefined) {
    counts[key] = count + 1;
    addPerson(kept, key, person);
    return;
  }
  counts[key] = 1;
  addPerson(kept, key, person);
  const size = sizeOf(counts) + 1;
  sizes.set(counts, size);
  if (size > 2 * most) cut(kept, most);
}

/** Takes the (most + 1)-th largest count from every count, and drops the keys it leaves at zero. */
function cut(kept: Kept, most: number): void {
  const values = Object.values(kept.counts).sort((a, b) => b - a);
  const taken = values[most] ?? 0;
  if (taken === 0) return;
  const counts: Record<string, number> = {};
  const people: Kept['people'] = {};
  for (const [key, count] of Object.entries(kept.counts)) {
    kept.lost += Math.min(count, taken);
    if (count <= taken) continue;
    counts[key] = count - taken;
    people[key] = kept.people[key] ?? [];
  }
  kept.counts = counts;
  kept.people = people;
  kept.off += taken;
  sizes.set(counts, Object.keys(counts).length);
}

/** Adds `from` into `into`, then cuts to `most` keys: the parts' bounds add up. */
export function addKept(into: Kept, from: Kept, most: number): void {
  for (const [key, count] of Object.entries(from.counts)) into.counts[key] = (into.counts[key] ?? 0) + count;
  for (const [key, people] of Object.entries(from.people)) for (const person of people) addPerson(into, key, person);
  sizes.delete(into.counts);
  into.off += from.off;
  into.lost += from.lost;
  if (sizeOf(into.counts) > most) cut(into, most);
}

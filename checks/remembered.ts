/** The longest text key remembered. */
export const keyLengthMost = 64;

/**
 * `compute()`, remembered in `memory` under `key`. Past `limit` keys the memory starts over, so it stays bounded
 * whatever the input: a population of users holds millions of distinct values, and a rule's verdict on one is pure.
 */
export function remembered<K, V>(memory: Map<K, V>, limit: number, key: K, compute: () => V): V {
  // A key no real value is as long as (a phone or a date of birth of 200 kB) is judged, not kept: 100,000 of them
  // held 20 GB, and ended the population check's workers (the seventeenth red team).
  if (typeof key === 'string' && key.length > keyLengthMost) return compute();
  const known = memory.get(key);
  if (known !== undefined || memory.has(key)) return known as V;
  const value = compute();
  if (memory.size >= limit) memory.clear();
  memory.set(key, value);
  return value;
}

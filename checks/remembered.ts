/**
 * `compute()`, remembered in `memory` under `key`. Past `limit` keys the memory starts over, so it stays bounded
 * whatever the input: a population of users holds millions of distinct values, and a rule's verdict on one is pure.
 */
export function remembered<K, V>(memory: Map<K, V>, limit: number, key: K, compute: () => V): V {
  const known = memory.get(key);
  if (known !== undefined || memory.has(key)) return known as V;
  const value = compute();
  if (memory.size >= limit) memory.clear();
  memory.set(key, value);
  return value;
}

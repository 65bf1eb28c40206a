import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { addKept, keep, noneKept, type Kept } from '../../population/kept';

/** Counts kept within a bound (population/kept.ts): never above the truth, at most `off` below, whatever the stream. */

const truthOf = (keys: readonly string[]) => {
  const truth = new Map<string, number>();
  for (const key of keys) truth.set(key, (truth.get(key) ?? 0) + 1);
  return truth;
};

/** The bounds; `rounds` of cutting (a merge adds one to its parts'): off is at most rounds × n / (most + 1). */
const holds = (kept: Kept, truth: Map<string, number>, most: number, rounds = 1) => {
  expect(Object.keys(kept.counts).length).toBeLessThanOrEqual(2 * most);
  for (const [key, users] of truth) {
    const count = kept.counts[key] ?? 0;
    expect(count).toBeLessThanOrEqual(users);
    expect(users - count).toBeLessThanOrEqual(kept.off);
  }
  const total = [...truth.values()].reduce((a, b) => a + b, 0);
  expect(Object.values(kept.counts).reduce((a, b) => a + b, 0) + kept.lost).toBe(total);
  expect(kept.off).toBeLessThanOrEqual((rounds * total) / (most + 1));
};

const streams = fc.array(fc.oneof(fc.constantFrom('heavy', 'also-heavy'), fc.integer({ min: 0, max: 300 }).map(String)), { maxLength: 2000 });

test('kept counts are never above the truth and at most off below it, off at most n / (most + 1)', () => {
  fc.assert(
    fc.property(streams, fc.integer({ min: 1, max: 20 }), (keys, most) => {
      const kept = noneKept();
      keys.forEach((key, person) => keep(kept, key, most, person));
      holds(kept, truthOf(keys), most);
    }),
    { numRuns: 100 },
  );
});

test('parts kept apart and added hold the same bounds over the whole stream', () => {
  fc.assert(
    fc.property(streams, streams, fc.integer({ min: 1, max: 20 }), (a, b, most) => {
      const [left, right] = [noneKept(), noneKept()];
      a.forEach((key, person) => keep(left, key, most, person));
      b.forEach((key, person) => keep(right, key, most, a.length + person));
      addKept(left, right, most);
      holds(left, truthOf([...a, ...b]), most, 2);
    }),
    { numRuns: 100 },
  );
});

test('a key 1,000 share among 199,000 distinct ones is kept, within its bound', () => {
  const kept = noneKept();
  for (let i = 0; i < 200_000; i++) keep(kept, i % 200 === 0 ? 'shared' : `key-${i}`, 2000, i);
  expect(kept.counts.shared).toBeGreaterThanOrEqual(1000 - kept.off);
  expect(kept.off).toBeLessThanOrEqual(100);
  expect(Object.keys(kept.counts)).not.toContain('…');
});

test('the people a key stands for are counted once each, up to 20, and add up across parts', () => {
  const [left, right] = [noneKept(), noneKept()];
  for (let i = 0; i < 5; i++) keep(left, 'once-exported-five-times', 10, 7);
  for (let i = 0; i < 30; i++) keep(right, 'many', 10, i);
  keep(right, 'once-exported-five-times', 10, 7);
  keep(right, 'once-exported-five-times', 10, 8);
  addKept(left, right, 10);
  expect(left.counts['once-exported-five-times']).toBe(7);
  expect(left.people['once-exported-five-times']).toEqual([7, 8]);
  expect(left.people.many).toHaveLength(20);
});

import { expect, test } from '@playwright/test';
import { IdCounter, idCheck } from '../../population/shared-ids';
import { personOf } from '../../population/tally';

/**
 * population/shared-ids.ts: the round-10 red team chose ids whose public hash crowds one stretch of an unkeyed table,
 * which made counting 300,000 of them take a minute. The table's slots are keyed by the run's own salt: crafted
 * hashes cost what any others do, counted in slots looked at (no clock).
 */
test('ids crafted to crowd one stretch of the table cost what others do: slots looked at stay linear', () => {
  const count = 200_000;
  // Each id a hash and its check (IdCounter.add's pairs).
  const crafted = new Float64Array(2 * count);
  const plain = new Float64Array(2 * count);
  for (let i = 0; i < count; i++) {
    const high = (Math.imul(i + 1, 0x9e3779b1) >>> 0) & 0xffffffff;
    // (high ^ low) & 0xfffff below 256: the stretch an unkeyed table put each of them in.
    crafted.set([high * 0x100000 + ((high ^ (i & 0xff)) & 0xfffff), i], 2 * i);
    plain.set([high * 0x100000 + (Math.imul(i, 0x85ebca6b) >>> 12), i], 2 * i);
  }
  const [a, b] = [new IdCounter(), new IdCounter()];
  a.add(crafted);
  b.add(plain);
  expect(a.summary()).toMatchObject({ records: count, repeats: 0, exact: true });
  expect(a.probes).toBeLessThan(3 * count);
  expect(b.probes).toBeLessThan(3 * count);
  // The same hash twice is one id, wherever its slot is.
  a.add(crafted.subarray(0, 20));
  expect(a.summary()).toMatchObject({ records: count + 10, repeats: 10, sharedIds: 10 });
});

test('two ids that share the public 52-bit hash are two ids: their keyed checks differ (the seventeenth red team)', () => {
  // Found by the red team with Pollard's rho on the public hash in about 30 s.
  const [x, y] = ['usr_dc67b7edb4707', 'usr_1d99e844649b9'];
  const person = (id: string) => personOf({ user: { id } }, 1);
  expect(person(x)).toBe(person(y));
  const key = 0x5eed1234;
  expect(idCheck(x, key)).not.toBe(idCheck(y, key));
  const counter = new IdCounter();
  counter.add(Float64Array.from([person(x), idCheck(x, key), person(y), idCheck(y, key)]));
  expect(counter.summary()).toMatchObject({ records: 2, repeats: 0, sharedIds: 0, exact: true });
  counter.add(Float64Array.from([person(y), idCheck(y, key)]));
  expect(counter.summary()).toMatchObject({ records: 3, repeats: 1, sharedIds: 1, exact: true });
});

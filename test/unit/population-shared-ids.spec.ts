import { expect, test } from '@playwright/test';
import { IdCounter } from '../../population/shared-ids';

/**
 * population/shared-ids.ts: the round-10 red team chose ids whose public hash crowds one stretch of an unkeyed table,
 * which made counting 300,000 of them take a minute. The table's slots are keyed by the run's own salt: crafted
 * hashes cost what any others do, counted in slots looked at (no clock).
 */
test('ids crafted to crowd one stretch of the table cost what others do: slots looked at stay linear', () => {
  const count = 200_000;
  const crafted = new Float64Array(count);
  const plain = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const high = (Math.imul(i + 1, 0x9e3779b1) >>> 0) & 0xffffffff;
    // (high ^ low) & 0xfffff below 256: the stretch an unkeyed table put each of them in.
    crafted[i] = high * 0x100000 + ((high ^ (i & 0xff)) & 0xfffff);
    plain[i] = high * 0x100000 + (Math.imul(i, 0x85ebca6b) >>> 12);
  }
  const [a, b] = [new IdCounter(), new IdCounter()];
  a.add(crafted);
  b.add(plain);
  expect(a.summary()).toMatchObject({ records: count, repeats: 0, exact: true });
  expect(a.probes).toBeLessThan(3 * count);
  expect(b.probes).toBeLessThan(3 * count);
  // The same hash twice is one id, wherever its slot is.
  a.add(crafted.subarray(0, 10));
  expect(a.summary()).toMatchObject({ records: count + 10, repeats: 10, sharedIds: 10 });
});

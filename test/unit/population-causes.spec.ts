import { expect, test } from '@playwright/test';
import { addCauses, causeSetsKept } from '../../population/fix-gains';

/**
 * The sets of rules users are at the error screen for (population/fix-gains.ts), kept up to a bound: counted in
 * constant time a set, so an export whose every user has a set of their own is judged in linear time (the third red
 * team's 40,000 such users took 106 s; counting the sets held at every new one is quadratic, minutes here).
 */
test('200,000 users each with a set of their own: the first sets kept, the rest counted as uncounted, in linear time', () => {
  const summary = { causes: {} as Record<string, number>, causesUncounted: 0 };
  for (let user = 0; user < 200_000; user++) addCauses(summary, `rule-${user}`);
  addCauses(summary, 'rule-7', 2);
  expect(Object.keys(summary.causes)).toHaveLength(causeSetsKept);
  expect(summary.causes['rule-7']).toBe(3);
  expect(summary.causesUncounted).toBe(200_000 - causeSetsKept);
  // A summary copied from a worker is a new object: its sets are counted once, then kept.
  const copied = structuredClone(summary);
  addCauses(copied, 'one more');
  expect(copied.causesUncounted).toBe(200_000 - causeSetsKept + 1);
});

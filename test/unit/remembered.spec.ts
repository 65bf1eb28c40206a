import { expect, test } from '@playwright/test';
import { keyLengthMost, remembered } from '../../checks/remembered';

/** checks/remembered.ts: bounded in keys and in each key's length (the seventeenth red team's 200 kB phones). */

test('a text key longer than any real value is judged each time and never kept; others are kept up to the limit', () => {
  const memory = new Map<string, number>();
  let computed = 0;
  const judge = (key: string) => remembered(memory, 3, key, () => ++computed);
  const long = '5'.repeat(keyLengthMost + 1);
  expect([judge(long), judge(long)]).toEqual([1, 2]);
  expect(memory.size).toBe(0);
  const short = '5'.repeat(keyLengthMost);
  expect([judge(short), judge(short)]).toEqual([3, 3]);
  expect([...memory.keys()]).toEqual([short]);
  for (const key of ['a', 'b', 'c']) judge(key);
  expect(memory.size).toBeLessThanOrEqual(3);
});

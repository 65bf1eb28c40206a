import { expect, test } from '@playwright/test';
import { Batcher, ReaderNote, batchLinesMost } from '../../population/batches';

/** population/batches.ts: a batch's line numbers are exact past 2^31 (the eighth red team's wrap), and a batch holds at most batchLinesMost records. */

test('line numbers past 2^31 stay the positive numbers they are; a reader note stays negative', () => {
  const batcher = new Batcher(1024 * 1024);
  const far = 2 ** 31 + 5;
  batcher.add(far, Buffer.from('{"user":{}}'));
  batcher.add(far + 1, new ReaderNote('too-large', 'a line past the bound'));
  batcher.add(2 ** 40, Buffer.from('{"user":{}}'));
  const batch = batcher.take()!;
  expect([...batch.lines]).toEqual([far, -(far + 1), 2 ** 40]);
});

test(`a batch holds at most ${batchLinesMost} records, however small`, () => {
  const batcher = new Batcher(1024 * 1024);
  const full = Array.from({ length: batchLinesMost + 1 }, (_, i) => batcher.add(i + 1, Buffer.from('{}'))).filter(Boolean);
  expect(full.map((batch) => batch!.lines.length)).toEqual([batchLinesMost]);
  expect(batcher.take()!.lines.length).toBe(1);
});

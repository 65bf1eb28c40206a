import { expect, test } from '@playwright/test';
import { BatchMemory, Batcher, ReaderNote, batchLinesMost } from '../../population/batches';

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

test('memory given back twice (the halves of a batch a worker died on share it) is handed out once (the fifteenth red team)', () => {
  const size = 1024;
  const memory = new BatchMemory(size);
  const batch = memory.take(100);
  const other = memory.take(100);
  memory.giveBack(batch.subarray(0, 40));
  memory.giveBack(batch.subarray(41));
  memory.giveBack(other);
  const taken = [memory.take(100), memory.take(100), memory.take(100)].map((bytes) => bytes.buffer);
  expect(new Set(taken).size).toBe(3);
  expect(taken.filter((buffer) => buffer === batch.buffer)).toHaveLength(1);
});

import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { gunzipped, headerLength } from '../../population/gunzip';
import { Chunks } from '../../population/input-chunks';

/** population/gunzip.ts: every byte of every member, in any chunks, and bytes after the gzip data named without losing one before them. */

const inChunks = (bytes: Buffer, cuts: number[]) => {
  const parts: Buffer[] = [];
  for (let at = 0, k = 0; at < bytes.length; k++) parts.push(bytes.subarray(at, (at += cuts[k % cuts.length]!)));
  return parts;
};

const inflated = async (parts: Buffer[]): Promise<{ bytes: Buffer; error?: string; notes?: string[] }> => {
  const notes: string[] = [];
  const out = gunzipped(
    Chunks.of(Readable.from(parts), true, () => {}),
    (text) => notes.push(text),
  );
  const got: Buffer[] = [];
  try {
    for (let chunk = await out.next(); chunk; chunk = await out.next()) got.push(chunk);
    return { bytes: Buffer.concat(got), ...(notes.length ? { notes } : {}) };
  } catch (error) {
    return { bytes: Buffer.concat(got), error: (error as Error).message };
  }
};

const records = (count: number, seed: number) =>
  Buffer.from(Array.from({ length: count }, (_, i) => `{"n":${i},"s":"${((seed + i) * 2654435761).toString(36)}"}\n`).join(''));

test('property: members, zero padding and any chunking give exactly the bytes gzip was given', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 3 }),
      fc.integer({ min: 0, max: 20 }),
      fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 5 }),
      async (counts, padding, cuts) => {
        const texts = counts.map((count, i) => records(count, i));
        const bytes = Buffer.concat([...texts.map((text) => gzipSync(text)), Buffer.alloc(padding)]);
        const { bytes: got, error } = await inflated(inChunks(bytes, cuts));
        expect([got.equals(Buffer.concat(texts)), error]).toEqual([true, undefined]);
      },
    ),
    { numRuns: 60 },
  );
});

test('a complete gzip followed by bytes that are not gzip: every byte of it, and a note counting them (Node gunzip lost the last write)', async () => {
  const text = records(40_000, 1);
  for (const tail of ['garbage', '\x1f', '\x1f\x00x', '\n'])
    for (const cut of [4096, 65_536, 1 << 20]) {
      const { bytes, error, notes } = await inflated(inChunks(Buffer.concat([gzipSync(text), Buffer.alloc(3), Buffer.from(tail, 'latin1')]), [cut]));
      expect([bytes.equals(text), error, notes]).toEqual([
        true,
        undefined,
        [`the gzip data ends before the file does: the ${tail.length} bytes after it are not gzip and were not read, as gzip itself leaves them`],
      ]);
    }
});

test('a cut, a wrong check value and a header past a MiB are each refused, after what was read', async () => {
  const text = records(20_000, 2);
  const gzipped = gzipSync(text);
  const cut = await inflated([gzipped.subarray(0, gzipped.length >> 1)]);
  expect(cut.error).toBe('unexpected end of file');
  expect(text.subarray(0, cut.bytes.length).equals(cut.bytes)).toBe(true);
  expect((await inflated([gzipped.subarray(0, -3)])).error).toBe('unexpected end of file');
  const crc = Buffer.from(gzipped);
  crc[crc.length - 6]! ^= 1;
  const crcRead = await inflated([crc]);
  expect([crcRead.bytes.equals(text), crcRead.error]).toEqual([true, 'incorrect data check']);
  const size = Buffer.from(gzipped);
  size[size.length - 1]! ^= 1;
  const sizeRead = await inflated([size]);
  expect([sizeRead.bytes.equals(text), sizeRead.error]).toEqual([true, 'incorrect length check']);
  const named = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3]), Buffer.alloc(3 << 20, 0x41)]);
  expect(await inflated(inChunks(named, [4096]))).toEqual({ bytes: Buffer.alloc(0), error: 'a gzip member header is longer than 1 MiB' });
});

test('header lengths: each optional field, and undefined while a field is incomplete', () => {
  const base = [0x1f, 0x8b, 8];
  expect(headerLength(Buffer.from([...base, 0, 0, 0, 0, 0, 0, 3]))).toBe(10);
  expect(headerLength(Buffer.from([...base, 4, 0, 0, 0, 0, 0, 3, 2, 0, 9, 9]))).toBe(14);
  expect(headerLength(Buffer.from([...base, 4, 0, 0, 0, 0, 0, 3, 2, 0, 9]))).toBeUndefined();
  expect(headerLength(Buffer.from([...base, 8 | 16 | 2, 0, 0, 0, 0, 0, 3, 0x61, 0, 0x62, 0, 1, 2]))).toBe(16);
  expect(headerLength(Buffer.from([...base, 8, 0, 0, 0, 0, 0, 3, 0x61]))).toBeUndefined();
  expect(() => headerLength(Buffer.from([0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 3]))).toThrow('unknown compression method');
  expect(() => headerLength(Buffer.from([...base, 0x20, 0, 0, 0, 0, 0, 3]))).toThrow('unknown header flags set');
});

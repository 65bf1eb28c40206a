import { Readable } from 'node:stream';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
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
  for (const tail of ['garbage', '\n', 'x\x1f\x8b'])
    for (const cut of [4096, 65_536, 1 << 20]) {
      const { bytes, error, notes } = await inflated(inChunks(Buffer.concat([gzipSync(text), Buffer.alloc(3), Buffer.from(tail, 'latin1')]), [cut]));
      expect([bytes.equals(text), error, notes]).toEqual([
        true,
        undefined,
        [`the gzip data ends before the file does: the ${tail.length} bytes after it are not gzip and were not read, as gzip itself leaves them`],
      ]);
    }
});

test('bytes after a member that begin as one does but go on otherwise are a damaged member: every byte before them, then an error (the seventeenth red team)', async () => {
  const text = records(2000, 5);
  for (const tail of ['\x1f', '\x1f\x00x', '\x1f\x8c\x08\x00'])
    for (const cut of [7, 65_536]) {
      const read = await inflated(inChunks(Buffer.concat([gzipSync(text), Buffer.from(tail, 'latin1'), gzipSync(text)]), [cut]));
      expect([read.bytes.equals(text), read.error]).toEqual([true, 'a member after the first has a damaged header; its records were not read']);
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

type Fields = { extra?: number; name?: number; comment?: number };
/** A gzip member of `data` with the optional header fields given (RFC 1952 §2.3.1), each of that many bytes; `deflated` as its data. */
function member(data: Buffer, fields: Fields, deflated = deflateRawSync(data)): Buffer {
  const flags = (fields.extra !== undefined ? 4 : 0) | (fields.name !== undefined ? 8 : 0) | (fields.comment !== undefined ? 16 : 0);
  const parts = [Buffer.from([0x1f, 0x8b, 8, flags, 0, 0, 0, 0, 0, 0xff])];
  if (fields.extra !== undefined) parts.push(Buffer.from([fields.extra & 0xff, fields.extra >> 8]), Buffer.alloc(fields.extra, 'x'));
  for (const length of [fields.name, fields.comment]) if (length !== undefined) parts.push(Buffer.alloc(length, 'n'), Buffer.from([0]));
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(data), 0);
  trailer.writeUInt32LE(data.length, 4);
  return Buffer.concat([...parts, deflated, trailer]);
}

test('a name, comment or extra field that ends where a read of the header ends is read whole, alone and after another member (the fifteenth red team)', async () => {
  // The header is read 64 bytes first, then 128, 256, …: a name ending at byte 64 with a comment after it was taken as
  // the header's end, the comment went to the inflate, and the run waited for ever.
  const text = records(30, 3);
  const layouts: ((end: number) => Fields)[] = [
    (end) => ({ name: end - 11, comment: 3 }),
    (end) => ({ extra: end - 12, name: 4 }),
    (end) => ({ extra: end - 12, comment: 4 }),
    (end) => ({ extra: 20, name: end - 33, comment: 0 }),
  ];
  for (const layout of layouts)
    for (const end of [63, 64, 65, 127, 128, 129, 255, 256, 257]) {
      const fields = layout(end);
      const inputs: [Buffer, Buffer][] = [
        [member(text, fields), text],
        [Buffer.concat([gzipSync(text), member(text, fields)]), Buffer.concat([text, text])],
      ];
      for (const [bytes, expected] of inputs)
        for (const cut of [5, 64, 4096]) {
          const read = await inflated(inChunks(bytes, [cut]));
          expect({ fields, cut, same: read.bytes.equals(expected), error: read.error }).toEqual({ fields, cut, same: true, error: undefined });
        }
    }
  expect(headerLength(member(text, { name: 53, comment: 9 }).subarray(0, 64))).toBeUndefined();
  expect(headerLength(member(text, { name: 53, comment: 9 }).subarray(0, 73))).toBeUndefined();
  expect(headerLength(member(text, { name: 53, comment: 9 }).subarray(0, 74))).toBe(74);
  expect(headerLength(member(text, { extra: 52, name: 3 }).subarray(0, 64))).toBeUndefined();
});

test('data that is not deflate is refused, never waited on; members after zero padding are read, and said', async () => {
  const text = records(30, 4);
  const bad = member(text, {}, Buffer.concat([Buffer.from('a comment\0'), deflateRawSync(text)]));
  expect(await inflated([bad])).toEqual({ bytes: Buffer.alloc(0), error: 'invalid stored block lengths' });
  const padded = await inflated(inChunks(Buffer.concat([gzipSync(text), Buffer.alloc(1000), gzipSync(text)]), [300]));
  expect(padded).toEqual({
    bytes: Buffer.concat([text, text]),
    notes: [
      "1000 zero bytes between gzip members were skipped and the members after them read, as Python's gzip does; GNU gzip (zcat) stops at them, and would give fewer records",
    ],
  });
});

import { Readable } from 'node:stream';
import { expect, test } from '@playwright/test';
import { detectedFormat, readPopulation } from '../../population/input';

/** population/input.ts: lines that end in CR alone are named, whatever the chunks; CRLF split between chunks is read. */

const inChunks = (data: Buffer, size: number) =>
  Readable.from(Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size)));

async function read(data: Buffer, size: number) {
  const texts: string[] = [];
  const problems: string[] = [];
  for await (const item of readPopulation('-', { stdin: inChunks(data, size) })) {
    if ('batch' in item) texts.push(...new TextDecoder().decode(item.batch.bytes).split('\n'));
    if ('problem' in item) problems.push(item.problem);
  }
  return { texts, problems };
}

test('lines that end in CR alone are a problem named as such, in chunks of any size; CRLF split between chunks is not', async () => {
  for (const size of [1, 5, 1024]) {
    expect(await read(Buffer.from('{"user":{"id":"a"}}\r{"user":{"id":"b"}}\r'), size)).toEqual({
      texts: [],
      problems: [expect.stringContaining('its lines end in a carriage return alone')],
    });
    expect(await read(Buffer.from('{"user":{"id":"a"}}\r\n{"user":{"id":"b"}}\r\n'), size)).toEqual({
      texts: ['{"user":{"id":"a"}}', '{"user":{"id":"b"}}'],
      problems: [],
    });
  }
});

test("the bound on a record is on the record: a CRLF's CR does not count, in any chunks", async () => {
  const record = (length: number) => `{"a":"${'x'.repeat(length - 8)}"}`;
  for (const size of [1, 7, 1024])
    for (const ending of ['\n', '\r\n']) {
      const texts: string[] = [];
      const data = Buffer.from(`${record(64)}${ending}${record(65)}${ending}`);
      const stdin = Readable.from(Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size)));
      for await (const item of readPopulation('-', { stdin, maxTextBytes: 64 }))
        if ('batch' in item) texts.push(...new TextDecoder().decode(item.batch.bytes).split('\n'));
      expect(texts, `${JSON.stringify(ending)} in chunks of ${size}`).toEqual([record(64), 'too-large: jsonl: the line is longer than 64 bytes']);
    }
});

test("JSON Lines whose first record is bad are JSON Lines, by the file's name or a first line of JSON (the seventeenth red team)", () => {
  // JSON Lines whose first record is bad (the seventeenth red team): by the file's name, or a first line of JSON.
  expect(detectedFormat(Buffer.from('null\n{"a":1}'), 'users.jsonl')).toBe('jsonl');
  expect(detectedFormat(Buffer.from('2026-01-01 login ok\n{"a":1}'), 'dir/users.NDJSON.gz')).toBe('jsonl');
  expect(detectedFormat(Buffer.from('42\n{"a":1}'))).toBe('jsonl');
  expect(detectedFormat(Buffer.from('"user.id"\nu1'))).toBe('csv');
  expect(detectedFormat(Buffer.from('user.id,user.firstName\n'), 'users.jsonl.csv')).toBe('csv');
});

test("a CR alone in a CSV cell is the cell's, quoted or not, wherever the chunks are cut; a CRLF ends the row (the seventeenth red team)", async () => {
  const csv = Buffer.from('user.id,company.id\r\nab,c1\r\na\rb,c2\r\n"a\rb",c3\r\nz\r,c4\r\n\rz,c5\r\nlast,c6\r');
  for (const size of [1, 2, 3, 5, 1024]) {
    const { texts, problems } = await read(csv, size);
    expect({ size, problems, ids: texts.map((text) => (JSON.parse(text) as { user: { id: string } }).user.id) }).toEqual({
      size,
      problems: [],
      ids: ['ab', 'a\rb', 'a\rb', 'z\r', '\rz', 'last'],
    });
  }
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { detectedFormat, readPopulation, type Batch, type PopulationItem, type ReadOptions } from '../../population/input';

let dir = '';
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'population-input-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const file = (content: string | Buffer, gzip = false): string => {
  const name = path.join(dir, `input-${files++}${gzip ? '.gz' : ''}`);
  writeFileSync(name, gzip ? gzipSync(content) : content);
  return name;
};

/** Every item read, and the JSON texts with their line numbers; each batch whole lines in shared memory (no copy). */
async function read(source: string, options?: ReadOptions) {
  const items: PopulationItem[] = [];
  const texts: string[] = [];
  const lines: number[] = [];
  for await (const item of readPopulation(source, options)) {
    items.push(item);
    if (!('batch' in item)) continue;
    const batchTexts = new TextDecoder().decode(item.batch.bytes).split('\n');
    expect(batchTexts).toHaveLength(item.batch.lines.length);
    expect(item.batch.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(item.batch.lines.buffer).toBeInstanceOf(SharedArrayBuffer);
    // A reader's note (its line negated) is written here as the JSON string "!kind: why", which no record can forge there.
    texts.push(...batchTexts.map((text, i) => (item.batch.lines[i]! < 0 ? JSON.stringify(`!${text}`) : text)));
    lines.push(...[...item.batch.lines].map(Math.abs));
  }
  const problems = items.filter((item): item is { problem: string; afterLine: number } => 'problem' in item);
  const batches = items.filter((item): item is { batch: Batch } => 'batch' in item).map(({ batch }) => batch);
  return { items, texts, lines, problems, batches };
}
const parsed = (texts: string[]) => texts.map((text) => JSON.parse(text) as unknown);

const users = [
  { user: { firstName: 'Ann', lastName: "O'Brien" }, company: { name: 'Acme, Inc.', industry: { naicsCode: 541511 } } },
  { user: { firstName: 'Bo', lastName: 'Lee' }, company: { name: 'B "and" C' } },
  { user: { firstName: 'Cy' } },
];
const asJsonLines = users.map((user) => JSON.stringify(user)).join('\n') + '\n';
const asArray = JSON.stringify(users, null, 2);
const asCsv = 'user.firstName,user.lastName,company.name,company.industry.naicsCode\n' + `Ann,O'Brien,"Acme, Inc.",541511\nBo,Lee,"B ""and"" C",\nCy,,,\n`;
const numberColumns = new Set(['company.industry.naicsCode']);

for (const gzip of [false, true])
  for (const [format, content, lines] of [
    ['jsonl', asJsonLines, [1, 2, 3]],
    ['json-array', asArray, [1, 2, 3]],
    ['csv', asCsv, [2, 3, 4]],
  ] as const)
    test(`${format}${gzip ? ', gzipped,' : ''} is detected and read into the same users`, async () => {
      const source = file(content, gzip);
      const { texts, lines: numbers, problems } = await read(source, { numberColumns });
      expect(problems).toEqual([]);
      expect(parsed(texts)).toEqual(users);
      expect(numbers).toEqual(lines);
      const head = Buffer.from(content).subarray(0, 16);
      expect(detectedFormat(head)).toBe(format);
    });

test('the format detected: the first byte that is not white space, past a byte order mark; undefined while only white space', () => {
  expect(detectedFormat(Buffer.from(' \r\n\t[1]'))).toBe('json-array');
  expect(detectedFormat(Buffer.from('\ufeff{"a":1}'))).toBe('jsonl');
  expect(detectedFormat(Buffer.from('\ufeffuser.id'))).toBe('csv');
  expect(detectedFormat(Buffer.from('  \n '))).toBeUndefined();
  expect(detectedFormat(Buffer.from([0xef, 0xbb]))).toBeUndefined();
});

test('a format the caller names is used whatever the input starts with', async () => {
  const { texts, lines } = await read(file('[1,\n2]\n'), { format: 'jsonl' });
  expect(texts).toEqual(['[1,', '2]']);
  expect(lines).toEqual([1, 2]);
  expect((await read(file('{"a":1}\n'), { format: 'json-array' })).problems[0]!.problem).toContain('not a JSON array');
});

test('standard input, plain and gzipped, in chunks of any size', async () => {
  const bytes = Buffer.from(asJsonLines);
  const inChunks = (data: Buffer) => Readable.from(Array.from({ length: data.length }, (_, i) => data.subarray(i, i + 1)));
  expect(parsed((await read('-', { stdin: inChunks(bytes) })).texts)).toEqual(users);
  expect(parsed((await read('-', { stdin: inChunks(gzipSync(bytes)) })).texts)).toEqual(users);
  expect(parsed((await read('-', { stdin: Readable.from([gzipSync(Buffer.from(asCsv))]), numberColumns })).texts)).toEqual(users);
  const csv = await read('-', { stdin: inChunks(Buffer.from(`\ufeff \r\n${asCsv}`)), numberColumns });
  expect(parsed(csv.texts)).toEqual(users);
  expect(csv.lines).toEqual([3, 4, 5]);
  expect(parsed((await read('-', { stdin: inChunks(Buffer.from(`\ufeff\n\n ${asArray}`)) })).texts)).toEqual(users);
});

test('JSON Lines: CRLF line ends lose their \\r, blank lines are skipped but counted, other lines pass through byte for byte', async () => {
  const content = '\r\n{"a":1}\r\n\n   \n\t\r\n{"b": "x\\r"}  \nnot JSON\n  {"c":3}\r\r\n{"d":4}';
  const { texts, lines } = await read(file(content));
  expect(texts).toEqual(['{"a":1}', '{"b": "x\\r"}  ', 'not JSON', '  {"c":3}\r', '{"d":4}']);
  expect(lines).toEqual([2, 6, 7, 8, 9]);
});

test('a JSON array pretty-printed, its strings holding brackets, braces, escaped quotes, commas and newlines: one element a line', async () => {
  const tricky = { note: '],}{[, "quoted" \\ ,', list: [[], {}, [1, [2]]], nested: { a: { b: '{' } } };
  const content = `\n  [\r\n${JSON.stringify(tricky, null, 4).replace(/\n/g, '\r\n')} ,\n\n  "just a string, ]" , 42,\nnull,[1,\n2],\n{"raw": "a\nb\rc"}\n]\n\n`;
  const { texts, lines, problems } = await read(file(content));
  expect(problems).toEqual([]);
  expect(lines).toEqual([1, 2, 3, 4, 5, 6]);
  expect(parsed(texts.slice(0, 5))).toEqual([tricky, 'just a string, ]', 42, null, [1, 2]]);
  // A raw newline in a string was invalid JSON, and stays so, on one line.
  expect(texts[5]).toBe('{"raw": "a\tb\tc"}');
  expect(() => JSON.parse(texts[5]!) as unknown).toThrow();
});

test('an empty JSON array, and an empty input, give nothing', async () => {
  expect((await read(file(' [ \n ] \n'))).items).toEqual([]);
  expect((await read(file(''))).items).toEqual([]);
  expect((await read(file('\n\n  \n'))).items).toEqual([]);
});

test('CSV: quoted commas, quotes and newlines; number columns; empty cells absent; rows of the wrong length reported; plain headers', async () => {
  const content =
    '\ufeffuser.firstName,company.address.line1,company.industry.naicsCode,Plain Header,user.phone\r\n' +
    '"Ann ""Jo""","1 Main St,\r\nSuite 2",0541511,x,+1 555\r\n' +
    '\r\n' +
    'Bo,,-1.5e3,,\r\n' +
    'Cy,"",12ab,"",""\r\n' +
    'too,few\r\n' +
    'Di,"multi\nline\n",7,y,"1"';
  const { texts, lines, problems } = await read(file(content), { numberColumns: new Set(['company.industry.naicsCode', 'user.phone']) });
  expect(problems).toEqual([]);
  expect(parsed(texts)).toEqual([
    {
      user: { firstName: 'Ann "Jo"', phone: '+1 555' },
      company: { address: { line1: '1 Main St,\r\nSuite 2' }, industry: { naicsCode: '0541511' } },
      'Plain Header': 'x',
    },
    { user: { firstName: 'Bo' }, company: { industry: { naicsCode: -1500 } } },
    { user: { firstName: 'Cy' }, company: { industry: { naicsCode: '12ab' } } },
    '!csv-cells: row has 2 cells, the header has 5',
    { user: { firstName: 'Di', phone: 1 }, company: { address: { line1: 'multi\nline\n' }, industry: { naicsCode: 7 } }, 'Plain Header': 'y' },
  ]);
  expect(lines).toEqual([2, 5, 6, 7, 8]);
});

test('a truncated gzip: the batches read before the cut, then the problem, last', async () => {
  const all = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ user: { id: `u${i}`, n: Math.sin(i) } }));
  const gzipped = gzipSync(all.join('\n') + '\n');
  const source = path.join(dir, 'truncated.jsonl.gz');
  writeFileSync(source, gzipped.subarray(0, gzipped.length >> 1));
  const { items, texts, lines, problems, batches } = await read(source, { batchBytes: 16 * 1024 });
  expect(batches.length).toBeGreaterThan(5);
  expect(problems).toHaveLength(1);
  expect(items.at(-1)).toEqual({ problem: `${source}: the gzip data ends early: the file is truncated`, afterLine: texts.length });
  expect(texts).toEqual(all.slice(0, texts.length));
  expect(lines).toEqual(texts.map((_, i) => i + 1));
});

test('corrupt gzip data: a problem, not a throw', async () => {
  const gzipped = gzipSync(asJsonLines);
  gzipped[3] = 0xff; // reserved flag bits
  const { items } = await read(file(gzipped));
  expect(items).toEqual([{ problem: expect.stringContaining('the gzip data is corrupt'), afterLine: 0 }]);
});

test('a JSON array never closed: the elements read, then a problem; text after the array is a problem too', async () => {
  const { items } = await read(file('[{"a":1},\n{"b":2},\n{"c":'));
  expect(items).toEqual([{ batch: expect.anything() }, { problem: expect.stringContaining('the JSON array is not closed'), afterLine: 2 }]);
  expect((await read(file('[{"a":"]"}, "[" ]'))).texts).toEqual(['{"a":"]"}', '"["']);
  expect((await read(file('[1] [2]'))).problems).toEqual([{ problem: expect.stringContaining('text after the end of the JSON array'), afterLine: 1 }]);
});

test('a CSV quote never closed at the end: the rows before it, then a problem', async () => {
  const { texts, items } = await read(file('a,b\n1,2\n3,"4\n5,6\n'));
  expect(parsed(texts)).toEqual([{ a: '1', b: '2' }]);
  expect(items.at(-1)).toEqual({ problem: expect.stringContaining('the CSV row that starts on line 3 has an unclosed quote'), afterLine: 2 });
});

test('a stray CSV quote folding later rows into one cell past the bound is a problem, not one record too large; so is a header past it', async () => {
  const { texts, items } = await read(file(`a,b\n1,2\n3,"4 and a stray quote\n${'5,x\n'.repeat(60)}`), { maxTextBytes: 100 });
  expect(parsed(texts)).toEqual([{ a: '1', b: '2' }]);
  expect(items.at(-1)).toEqual({
    problem: expect.stringMatching(/: the CSV row that starts on line 3 has a quoted cell longer than 100 bytes over lines 3-\d+: a stray quote$/),
    afterLine: 2,
  });
  const header = await read(file(`${'c,'.repeat(60)}d\n1,2\n`), { maxTextBytes: 100 });
  expect(header.items).toEqual([
    { problem: expect.stringContaining(': the CSV header row is longer than 100 bytes; the first row names the columns'), afterLine: 0 },
  ]);
});

test('a missing file: an error naming the path, no such file', async () => {
  const missing = path.join(dir, 'missing.jsonl');
  await expect(read(missing)).rejects.toThrow(`${missing}: no such file`);
});

test('batches of about batchBytes never split a line; a line longer than a batch is a batch of its own', async () => {
  const all = Array.from({ length: 500 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i % 97) }));
  all[250] = JSON.stringify({ long: 'y'.repeat(3000) });
  for (const [format, content] of [
    ['jsonl', all.join('\n')],
    ['json-array', `[${all.join(',\n')}]`],
  ] as const) {
    const { texts, batches } = await read(file(content), { batchBytes: 1000 });
    expect(texts, format).toEqual(all);
    expect(batches.length).toBeGreaterThan(30);
    for (const batch of batches) expect(batch.bytes.length <= 1000 || batch.lines.length === 1).toBe(true);
  }
});

test('a text longer than maxTextBytes is passed as a JSON string saying so, and the rest is read', async () => {
  const long = JSON.stringify({ a: 'x'.repeat(5000) });
  const jsonl = await read('-', { stdin: Readable.from([long.slice(0, 10), long.slice(10), '\n{"b":1}\n', long]), maxTextBytes: 100 });
  expect(parsed(jsonl.texts)).toEqual([
    '!too-large: jsonl: the line is longer than 100 bytes',
    { b: 1 },
    '!too-large: jsonl: the line is longer than 100 bytes',
  ]);
  expect((await read(file(`[${long}, {"b":1}]`), { maxTextBytes: 100 })).texts).toEqual([
    '"!too-large: json: the element is longer than 100 bytes"',
    '{"b":1}',
  ]);
  expect((await read(file(`a\n"${'z'.repeat(5000)}"\nb\n`), { maxTextBytes: 100 })).texts).toEqual([
    '"!too-large: csv: the row is longer than 100 bytes"',
    '{"a":"b"}',
  ]);
});

test('stopping early closes the input', async () => {
  const stdin = Readable.from(Array.from({ length: 1000 }, () => asJsonLines));
  for await (const item of readPopulation('-', { stdin, batchBytes: 100 })) {
    expect('batch' in item).toBe(true);
    break;
  }
  expect(stdin.destroyed).toBe(true);
});

test('a read error: the batches read before it, then the problem', async () => {
  const stdin = new Readable({ read() {} });
  stdin.push(asJsonLines + '{"cut":');
  setTimeout(() => stdin.destroy(new Error('EIO: i/o error, read')), 10);
  const { texts, items } = await read('-', { stdin });
  expect(parsed(texts)).toEqual(users);
  expect(items.at(-1)).toEqual({ problem: 'standard input: reading failed (EIO: i/o error, read)', afterLine: 3 });
});

test('property: JSON Lines written and read back, in any chunks and any batch size, give the same lines and line numbers', async () => {
  const line = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
    fc.constantFrom('', ' ', '\t', 'not json', '{"a":"é ✓ 𝄞"}'),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(line, fc.boolean()), { maxLength: 60 }),
      fc.integer({ min: 1, max: 400 }),
      fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 10 }),
      fc.boolean(),
      async (written, batchBytes, cuts, finalNewline) => {
        const bytes = Buffer.from(written.map(([text, crlf]) => text + (crlf ? '\r\n' : '\n')).join('') + (finalNewline ? '' : '{"last":1}'));
        const chunks: Buffer[] = [];
        for (let at = 0, k = 0; at < bytes.length; k++) chunks.push(bytes.subarray(at, (at += cuts[k % cuts.length]!)));
        const expected = [...written.map(([text]) => text), ...(finalNewline ? [] : ['{"last":1}'])]
          .map((text, i) => ({ text, line: i + 1 }))
          .filter(({ text }) => text.trim() !== '');
        const { texts, lines, problems } = await read('-', { stdin: Readable.from(chunks), batchBytes, format: 'jsonl' });
        expect(problems).toEqual([]);
        expect(texts).toEqual(expected.map(({ text }) => text));
        expect(lines).toEqual(expected.map(({ line }) => line));
      },
    ),
    { numRuns: 300 },
  );
});

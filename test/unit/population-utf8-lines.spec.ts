import { expect, test } from '@playwright/test';
import { Utf8Lines } from '../../population/utf8-lines';

/** population/utf8-lines.ts: the lines of a text read in chunks whose bytes are not UTF-8, wherever the chunks are cut. */

/** `bytes` read in chunks cut at `cuts`: the lines (1-based) found not UTF-8. */
function badLines(bytes: Buffer, cuts: number[]): number[] {
  const lines = new Utf8Lines();
  const edges = [0, ...cuts, bytes.length];
  let line = 1;
  for (let i = 0; i + 1 < edges.length; i++) {
    const chunk = bytes.subarray(edges[i], edges[i + 1]);
    lines.read(chunk, line);
    for (const byte of chunk) if (byte === 0x0a) line++;
  }
  lines.end(line);
  const total = line;
  return Array.from({ length: total }, (_, i) => i + 1).filter((n) => lines.within(n, n));
}

test('valid UTF-8 cut inside any of its characters is no bad line; a Latin-1 byte is, on its own line', () => {
  // Two-, three- and four-byte characters, and a real U+FFFD, which is valid UTF-8.
  const valid = Buffer.from('id,name\nu1,Café\nu2,日本\nu3,😀 \uFFFD\n');
  for (let cut = 1; cut < valid.length; cut++) expect(badLines(valid, [cut]), `cut at ${cut}`).toEqual([]);
  expect(badLines(valid, [9, 10, 11, 12, 13, 14, 15])).toEqual([]);
  const latin1 = Buffer.concat([Buffer.from('id,name\nu1,M'), Buffer.from([0xfc]), Buffer.from('ller\nu2,Lee\nu3,'), Buffer.from([0xe9]), Buffer.from('\n')]);
  for (let cut = 1; cut < latin1.length; cut++) expect(badLines(latin1, [cut]), `cut at ${cut}`).toEqual([2, 4]);
  // A continuation byte with nothing before it, at the start of a chunk and of the text.
  expect(badLines(Buffer.from([0x80, 0x0a, 0x61]), [])).toEqual([1]);
  expect(badLines(Buffer.from([0x61, 0x0a, 0x80, 0x0a]), [2])).toEqual([2]);
  // A character in three or four pieces (gzip members, or a slow pipe, of a byte each).
  const euro = Buffer.from('id\nRen€\n');
  for (const cuts of [
    [6, 7],
    [5, 6, 7],
    [6, 7, 8],
  ])
    expect(badLines(euro, cuts), `cuts ${cuts.join(',')}`).toEqual([]);
  const face = Buffer.from('id\n😀\n');
  expect(badLines(face, [4, 5])).toEqual([]);
  expect(badLines(face, [3, 4, 5, 6])).toEqual([]);
  // A character cut short at the very end of the text, within a chunk or across two.
  expect(badLines(Buffer.from([0x61, 0x0a, 0xe6, 0x97]), [3])).toEqual([2]);
  expect(badLines(Buffer.from([0x61, 0x0a, 0xe6, 0x97]), [])).toEqual([2]);
});

test("every line bad, as the rows are read: what is held stays at most a chunk's lines", () => {
  const lines = new Utf8Lines();
  const chunk = Buffer.from('\xe9\n'.repeat(100_000), 'latin1');
  let line = 1;
  for (let i = 0; i < 50; i++) {
    lines.read(chunk, line);
    // The rows of the chunk are read, the last one still open into the next chunk.
    let bad = 0;
    for (let row = line; row < line + 100_000 - 1; row++) if (lines.within(row, row)) bad++;
    expect(bad).toBe(100_000 - 1);
    line += 100_000;
    expect((lines as unknown as { bad: number[] }).bad.length).toBeLessThanOrEqual(200_000);
  }
});

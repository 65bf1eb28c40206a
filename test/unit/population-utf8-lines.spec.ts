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
  // A character cut short at the very end of the text, within a chunk or across two.
  expect(badLines(Buffer.from([0x61, 0x0a, 0xe6, 0x97]), [3])).toEqual([2]);
  expect(badLines(Buffer.from([0x61, 0x0a, 0xe6, 0x97]), [])).toEqual([2]);
});

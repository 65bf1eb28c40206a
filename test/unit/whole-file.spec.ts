import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { WriteProblem, writeWhole } from '../../population/whole-file';
import { tempDir } from '../support/temp';

/** population/whole-file.ts: files written together are all new, or all as they were; nothing partial is left. */

test('files written whole together: one that cannot be written leaves every one as it was, and no partial file', () => {
  const dir = tempDir('whole-file-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('a.json'), 'old a');
  mkdirSync(at('b.html/inside'), { recursive: true });
  expect(() => writeWhole([at('a.json'), 'new a'], [at('b.html'), 'new b'])).toThrow(WriteProblem);
  expect(readFileSync(at('a.json'), 'utf8')).toBe('old a');
  expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.html']);
  writeWhole([at('a.json'), 'new a'], [at('c.html'), 'new c']);
  expect([readFileSync(at('a.json'), 'utf8'), readFileSync(at('c.html'), 'utf8')]).toEqual(['new a', 'new c']);
  expect(() => writeWhole([at('missing/x.json'), 'x'])).toThrow(
    `${at('missing/x.json')} could not be written (ENOENT), so it is as it was; fix that, or give another --out`,
  );
});

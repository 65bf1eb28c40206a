import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
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
  // A folder is made for a file that needs one, and taken away again when the files cannot be written.
  writeWhole([at('made/x.json'), 'x']);
  expect(readFileSync(at('made/x.json'), 'utf8')).toBe('x');
  writeFileSync(at('file'), '');
  expect(() => writeWhole([at('new/deeper/x.json'), 'x'], [at('file/y.html'), 'y'])).toThrow(
    `${at('file/y.html')} could not be written (a file is where a folder on its way goes: move it away)`,
  );
  expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.html', 'c.html', 'file', 'made']);
  // A named pipe where a file goes would be replaced: refused, and it stays.
  execFileSync('mkfifo', [at('pipe.json')]);
  expect(() => writeWhole([at('pipe.json'), 'x'])).toThrow(
    `${at('pipe.json')} could not be written (a pipe, a socket or a device is there, which it would replace: move it away), so it is as it was`,
  );
  expect(statSync(at('pipe.json')).isFIFO()).toBe(true);
});

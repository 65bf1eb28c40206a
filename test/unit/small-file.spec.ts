import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readSmallFile } from '../../population/small-file';
import { tempDir } from '../support/temp';

/** population/small-file.ts: a file read whole only up to its bound, whatever it is (the sixth red team's /dev/zero). */

test('a small file is read; a larger one, a device that goes on, a folder and a missing file are each refused by what they are', () => {
  const dir = tempDir('small-file-');
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('ok.json'), '{"a": "é"}');
  writeFileSync(at('big.json'), Buffer.alloc(3 * 1024 * 1024 + 1, 0x20));
  mkdirSync(at('folder'));
  expect(readSmallFile(at('ok.json'), 1024)).toEqual({ text: '{"a": "é"}' });
  expect(readSmallFile(at('ok.json'), 11)).toEqual({ text: '{"a": "é"}' });
  expect(readSmallFile(at('ok.json'), 10)).toEqual({ problem: 'larger than such a file is (more than 10 bytes)' });
  expect(readSmallFile(at('big.json'), 3 * 1024 * 1024)).toEqual({ problem: 'larger than such a file is (more than 3,145,728 bytes)' });
  expect(readSmallFile('/dev/zero', 2 * 1024 * 1024)).toEqual({ problem: 'larger than such a file is (more than 2,097,152 bytes)' });
  expect(readSmallFile(at('folder'), 1024)).toEqual({ problem: 'a folder, not a file' });
  expect(readSmallFile(at('missing.json'), 1024)).toEqual({ problem: 'no such file' });
});

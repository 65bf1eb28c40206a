import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { writeAll } from '../../scripts/safe-write';
import { folderListing } from '../support/folder-listing';
import { tempDir } from '../support/temp';

test('writeAll undoes what it wrote when a later write fails: created files and folders removed, appended files cut back', () => {
  const root = tempDir('writes-');
  writeFileSync(path.join(root, '.env'), 'OTHER=1\n');
  writeFileSync(path.join(root, 'blocker'), 'a file where a folder is needed\n');
  mkdirSync(path.join(root, 'partners'));
  const before = folderListing(root);
  expect(() =>
    writeAll(
      [
        { file: 'partners/acme.json', mode: 'create', text: '{}\n' },
        { file: '.env', mode: 'append', text: 'PARTNER_ACME_CLIENT_SECRET=\n' },
        { file: '.github/workflows/certify-acme.yml', mode: 'create', text: 'name: certify acme\n' },
        { file: 'blocker/x.txt', mode: 'create', text: 'never\n' },
      ],
      root,
    ),
  ).toThrow(/ENOTDIR/);
  expect(folderListing(root)).toEqual(before);

  writeAll([{ file: '.env', mode: 'append', text: 'PARTNER_ACME_CLIENT_SECRET=\n' }], root);
  expect(readFileSync(path.join(root, '.env'), 'utf8')).toBe('OTHER=1\nPARTNER_ACME_CLIENT_SECRET=\n');
});

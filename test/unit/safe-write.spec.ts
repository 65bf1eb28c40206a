import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

test('a file that holds secrets is created readable by its owner only; one that is there keeps its mode', () => {
  const root = tempDir('private-');
  writeAll(
    [
      { file: '.env', mode: 'append', text: 'PARTNER_ACME_MINT_PASSWORD=Zq81-hunter-2\n', private: true },
      { file: 'playwright.config.js', mode: 'create', text: '// ours\n' },
    ],
    root,
  );
  const modeOf = (file: string) => statSync(path.join(root, file)).mode & 0o777;
  expect(modeOf('.env')).toBe(0o600);
  // The positive control: a file without secrets is readable by others, as before (under the usual umask 022).
  expect(modeOf('playwright.config.js')).toBe(0o644 & ~process.umask());
  const other = tempDir('private-');
  writeFileSync(path.join(other, '.env'), 'OTHER=1\n', { mode: 0o640 });
  writeAll([{ file: '.env', mode: 'append', text: 'PARTNER_ACME_MINT_PASSWORD=Zq81-hunter-2\n', private: true }], other);
  expect(statSync(path.join(other, '.env')).mode & 0o777).toBe(0o640 & ~process.umask());
});

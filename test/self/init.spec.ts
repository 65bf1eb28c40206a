import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { workflowFor } from '../../scripts/init-files';
import { folderListing } from '../support/folder-listing';
import { workflowSteps } from '../support/installed-init';
import { parentEnv } from '../support/run-playwright';
import { tempDir } from '../support/temp';

/**
 * `init`'s refusals, through scripts/cli.ts as a clone runs it (test/self/package.spec.ts runs the installed
 * tool): each is one line naming the argument or the file and the fix, exit 2, and the folder as it was.
 */

const tsx = path.resolve('node_modules/.bin/tsx');
const cli = path.resolve('scripts/cli.ts');
const urls = ['--token-url', 'https://acme.example/oauth/token', '--account-url', 'https://acme.example/account', '--mint-url', 'https://acme.example/codes'];

const init = (folder: string, ...args: string[]) => {
  const done = spawnSync(tsx, [cli, 'init', ...args], { cwd: folder, encoding: 'utf8', env: parentEnv() });
  return { status: done.status, stdout: done.stdout, stderr: done.stderr };
};

/** `init args` in `folder`: exit 2, `said` on one line, and nothing written in it or in the two folders above it. */
function expectRefused(folder: string, args: string[], said: string) {
  const parent = path.resolve(folder, '..', '..');
  const before = folderListing(parent);
  const run = init(folder, ...args);
  expect(run.stderr, args.join(' ')).toBe(`${said}\n`);
  expect(run.status, args.join(' ')).toBe(2);
  expect(run.stdout).toBe('');
  expect(folderListing(parent), `${args.join(' ')} wrote nothing`).toEqual(before);
}

/** An empty folder two levels down in the test's own folder, so that `../../` from it is watched too. */
const emptyFolder = () => {
  const folder = path.join(tempDir('init-'), 'outer', 'project');
  mkdirSync(folder, { recursive: true });
  return folder;
};

test('init refuses a name that is not a profile name, by the rule profiles follow, before anything is written', () => {
  const folder = emptyFolder();
  const rule = 'must be lower-case letters, digits and dashes, since it becomes the project name';
  expectRefused(folder, ['../../escaped', ...urls, '--client-id', 'platform'], `init: the name "../../escaped" ${rule}`);
  expectRefused(folder, ['Acme', ...urls], `init: the name "Acme" ${rule}`);
  expectRefused(folder, ['acme_co', ...urls], `init: the name "acme_co" ${rule}`);
  expectRefused(
    folder,
    ['a'.repeat(65), ...urls],
    `init: the name "${'a'.repeat(65)}" has 65 characters; the project name is part of the report's folder names, so keep it to 64`,
  );
  expectRefused(folder, ['history', ...urls], `init: "history" is a name the harness keeps for itself (the history's folder); choose another name`);
  expectRefused(folder, [...urls], 'init: name the partner: npx tsx scripts/cli.ts init <name>, for example npx tsx scripts/cli.ts init acme');
  expectRefused(
    folder,
    ['acme', 'staging', ...urls],
    'init: one name only, and "staging" is one more; join words with dashes: npx tsx scripts/cli.ts init acme-staging',
  );
});

test('init writes through no symbolic link, dangling or not, on the way to any file it writes', () => {
  const links = [
    'partners',
    'partners/linked.json',
    '.env',
    '.gitignore',
    '.github',
    '.github/workflows',
    '.github/workflows/certify-linked.yml',
    'playwright.config.js',
  ];
  for (const link of links) {
    const folder = emptyFolder();
    mkdirSync(path.join(folder, path.dirname(link)), { recursive: true });
    // Where the link points is outside the folder, and not there yet: init would create it.
    symlinkSync(path.join('..', '..', 'elsewhere', path.basename(link)), path.join(folder, link));
    expectRefused(
      folder,
      ['linked', ...urls, '--client-id', 'platform'],
      `init: ${link} is a symbolic link; init writes no file through a link: remove the link, or run init in another folder`,
    );
  }
});

test('init leaves no file behind when the profile it would write is invalid, or an option is wrong or missing', () => {
  const folder = emptyFolder();
  const [, token, , account, , mint] = urls;
  expectRefused(
    folder,
    ['acme', '--token-url', 'acme.example/oauth/token', '--account-url', account!, '--mint-url', mint!],
    'init: --token-url: "tokenExchangeUrl" is not an absolute http(s) URL ("acme.example/oauth/token"); write it like "https://partner.example/oauth/token"',
  );
  expectRefused(folder, ['acme', '--token-url', token!], 'init: --account-url, --mint-url are missing; give them (npx tsx scripts/cli.ts init --help)');
  expectRefused(
    folder,
    ['acme', ...urls, '--encoding', 'xml'],
    'init: --encoding is "xml"; write form (what OAuth libraries take) or json, as the platform is configured to send it',
  );
});

test('init with a profile already there refuses; other files that are there are kept, and .gitignore and .env get only the lines they lack', () => {
  const folder = emptyFolder();
  mkdirSync(path.join(folder, 'partners'));
  writeFileSync(path.join(folder, 'partners', 'acme.json'), '{}\n');
  expectRefused(folder, ['acme', ...urls], 'init: partners/acme.json exists already; edit it, or choose another name');

  const kept = emptyFolder();
  mkdirSync(path.join(kept, '.github', 'workflows'), { recursive: true });
  const workflow = '# our own\n';
  writeFileSync(path.join(kept, '.github', 'workflows', 'certify-acme.yml'), workflow);
  writeFileSync(path.join(kept, 'playwright.config.ts'), '// ours\n');
  writeFileSync(path.join(kept, '.gitignore'), 'node_modules\n/.env\ndist/');
  writeFileSync(path.join(kept, '.env'), 'OTHER=1');
  const run = init(kept, 'acme', ...urls, '--client-id', 'platform');
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout.split('\n').slice(0, 5)).toEqual([
    'wrote partners/acme.json',
    'added to .env: PARTNER_ACME_CLIENT_SECRET=',
    'added to .gitignore: reports/out/ test-results/ playwright-report/ blob-report/',
    'kept playwright.config.ts: it is there already',
    'kept .github/workflows/certify-acme.yml: it is there already',
  ]);
  const read = (file: string) => readFileSync(path.join(kept, file), 'utf8');
  expect(read('.github/workflows/certify-acme.yml')).toBe(workflow);
  expect(read('playwright.config.ts')).toBe('// ours\n');
  expect(read('.gitignore')).toBe('node_modules\n/.env\ndist/\nreports/out/\ntest-results/\nplaywright-report/\nblob-report/\n');
  expect(read('.env')).toBe('OTHER=1\nPARTNER_ACME_CLIENT_SECRET=\n');
  // In a clone, the schema beside the profiles.
  expect((JSON.parse(read('partners/acme.json')) as { $schema: string }).$schema).toBe(
    path.relative(path.join(kept, 'partners'), path.resolve('partners/profile.schema.json')),
  );

  // Run again under another name: every line is there, nothing is added twice.
  const again = init(kept, 'acme-eu', ...urls, '--client-id', 'platform');
  expect(again.status, again.stderr).toBe(0);
  expect(again.stdout).toContain('kept .gitignore: it ignores them all\n');
  expect(read('.gitignore')).toBe('node_modules\n/.env\ndist/\nreports/out/\ntest-results/\nplaywright-report/\nblob-report/\n');
  expect(read('.env')).toBe('OTHER=1\nPARTNER_ACME_CLIENT_SECRET=\nPARTNER_ACME_EU_CLIENT_SECRET=\n');
});

test("init's workflow makes the runner ready with the steps of the repository's example workflow", () => {
  const file = path.join(tempDir('workflow-'), 'certify-acme.yml');
  writeFileSync(file, workflowFor('acme', false));
  const steps = workflowSteps(file, 'certify');
  expect(steps.slice(0, 4)).toEqual(workflowSteps('.github/workflows/certify-partners.yml', 'certify').slice(0, 4));
  // No client id, no secret to hand over.
  expect(steps.find((step) => step.run === 'npx partner-certify acme')).toEqual({ run: 'npx partner-certify acme' });
});

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse as parseDotenv } from 'dotenv';
import { loadProfile } from '../../partners/profile';
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
  writeFileSync(file, workflowFor('acme', []));
  const steps = workflowSteps(file, 'certify');
  expect(steps.slice(0, 4)).toEqual(workflowSteps('.github/workflows/certify-partners.yml', 'certify').slice(0, 4));
  // No client id, no secret to hand over.
  expect(steps.find((step) => step.run === 'npx partner-certify acme')).toEqual({ run: 'npx partner-certify acme' });
});

// Distinctive values, so that any form of them found in a file is a leak: the password has characters a URL encodes.
const password = 'Zq81/hunter+2-pw';
const apiKey = 'K3y-Qx7-7f3a9c2e51';
const tokenSecret = 'tok-S3cr3t-88aa41';
const formsOf = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  new URLSearchParams({ v: secret }).toString().slice(2),
  Buffer.from(secret).toString('base64'),
  Buffer.from(secret).toString('base64url'),
];
const filesIn = (folder: string) => folderListing(folder).flatMap((entry) => (entry.endsWith('/') ? [] : [entry.slice(0, entry.indexOf(': '))]));

test('init writes no credential of a URL into the profile: each goes to .env under the variable it names, and the profile reads the same URL back', () => {
  const folder = emptyFolder();
  const mintUrl = `http://hook:${encodeURIComponent(password)}@127.0.0.1:3000/hooks/codes?apiKey=${apiKey}&team=blue`;
  const tokenUrl = `https://acme.example/oauth/token?client_secret=${tokenSecret}`;
  const accountUrl = 'https://acme.example/account?region=eu';
  const run = init(folder, 'acme', '--token-url', tokenUrl, '--account-url', accountUrl, '--mint-url', mintUrl, '--client-id', 'platform');
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  // One line each: the field, the part, the variable, and that the value went to .env.
  const announced = [...run.stdout.matchAll(/^moved the (.+) of "(.+)" to \.env: (\w+)$/gm)].map(([, part, field, variable]) => [field, part, variable]);
  expect(announced).toEqual([
    ['tokenExchangeUrl', 'query value "client_secret"', 'PARTNER_ACME_TOKEN_CLIENT_SECRET'],
    ['codes.mintUrl', 'password', 'PARTNER_ACME_MINT_PASSWORD'],
    ['codes.mintUrl', 'query value "apiKey"', 'PARTNER_ACME_MINT_API_KEY'],
  ]);
  const read = (file: string) => readFileSync(path.join(folder, file), 'utf8');
  const env = parseDotenv(read('.env'));
  expect(statSync(path.join(folder, '.env')).mode & 0o777, '.env is readable by its owner only').toBe(0o600);
  expect(env).toEqual({
    PARTNER_ACME_CLIENT_SECRET: '',
    PARTNER_ACME_TOKEN_CLIENT_SECRET: tokenSecret,
    PARTNER_ACME_MINT_PASSWORD: encodeURIComponent(password),
    PARTNER_ACME_MINT_API_KEY: apiKey,
  });

  // No form of any of them in another file init wrote, nor in what it printed.
  const written = filesIn(folder).filter((file) => file !== '.env');
  expect(written).toEqual(['.github/workflows/certify-acme.yml', '.gitignore', 'partners/acme.json', 'playwright.config.js']);
  for (const form of [password, apiKey, tokenSecret].flatMap(formsOf)) {
    for (const file of written) expect(read(file), `${file} holds ${form}`).not.toContain(form);
    expect(run.stdout, `init printed ${form}`).not.toContain(form);
  }
  const profile = JSON.parse(read('partners/acme.json')) as { tokenExchangeUrl: string; accountInfoUrl: string; codes: { mintUrl: string } };
  expect(profile.codes.mintUrl).toBe('http://hook:env:PARTNER_ACME_MINT_PASSWORD@127.0.0.1:3000/hooks/codes?apiKey=env:PARTNER_ACME_MINT_API_KEY&team=blue');
  expect(profile.tokenExchangeUrl).toBe('https://acme.example/oauth/token?client_secret=env:PARTNER_ACME_TOKEN_CLIENT_SECRET');
  // The positive control: a URL without credentials is written as given.
  expect(profile.accountInfoUrl).toBe(accountUrl);

  // The loader gives back exactly the URLs given, and counts their credentials among the secrets it masks.
  const loaded = loadProfile(path.join(folder, 'partners', 'acme.json'), { ...env, PARTNER_ACME_CLIENT_SECRET: 'filled-in-later' });
  expect(loaded.errors).toEqual([]);
  expect(loaded.profile!.profile).toMatchObject({ tokenExchangeUrl: tokenUrl, accountInfoUrl: accountUrl, codes: { mintUrl } });
  expect(loaded.profile!.envValues).toEqual(expect.arrayContaining([password, apiKey, tokenSecret]));
  // CI reads them from repository secrets of the same names.
  const certify = workflowSteps(path.join(folder, '.github/workflows/certify-acme.yml'), 'certify').find((step) => step.run === 'npx partner-certify acme')!;
  expect(Object.keys(certify.env!)).toEqual([
    'PARTNER_ACME_CLIENT_SECRET',
    'PARTNER_ACME_TOKEN_CLIENT_SECRET',
    'PARTNER_ACME_MINT_PASSWORD',
    'PARTNER_ACME_MINT_API_KEY',
  ]);
});

test("init's variables take no name another profile reads or .env gives another value, and keep .env's lines", () => {
  const folder = emptyFolder();
  mkdirSync(path.join(folder, 'partners'));
  writeFileSync(path.join(folder, 'partners', 'globex.json'), '{"codes": {"mintUrl": "https://g.example/c?apiKey=env:PARTNER_ACME_MINT_API_KEY"}}\n');
  writeFileSync(path.join(folder, '.env'), 'PARTNER_ACME_MINT_PASSWORD=older-value\nOTHER=1');
  const mintUrl = `http://hook:${encodeURIComponent(password)}@127.0.0.1:3000/hooks/codes?apiKey=${apiKey}&team=blue`;
  const run = init(folder, 'acme', '--token-url', 'https://acme.example/oauth/token', '--account-url', 'https://acme.example/account', '--mint-url', mintUrl);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout.split('\n').slice(0, 3)).toEqual([
    'wrote partners/acme.json',
    'moved the password of "codes.mintUrl" to .env: PARTNER_ACME_MINT_PASSWORD_2',
    'moved the query value "apiKey" of "codes.mintUrl" to .env: PARTNER_ACME_MINT_API_KEY_2',
  ]);
  expect(readFileSync(path.join(folder, '.env'), 'utf8')).toBe(
    `PARTNER_ACME_MINT_PASSWORD=older-value\nOTHER=1\nPARTNER_ACME_MINT_PASSWORD_2=${encodeURIComponent(password)}\nPARTNER_ACME_MINT_API_KEY_2=${apiKey}\n`,
  );
  expect(run.stdout).toContain('on GitHub, add the repository secrets PARTNER_ACME_MINT_PASSWORD_2, PARTNER_ACME_MINT_API_KEY_2\n');
});

test("init's refusals show no credential of a URL it was given, and write nothing", () => {
  const folder = emptyFolder();
  expectRefused(
    folder,
    [
      'acme',
      '--token-url',
      `ftp://u:${password}@acme.example/x?apiKey=${apiKey}`,
      '--account-url',
      'https://acme.example/account',
      '--mint-url',
      `hook:${tokenSecret}@acme.example/codes`,
    ],
    [
      'init: --token-url: "tokenExchangeUrl" is not an absolute http(s) URL ("ftp://u:[redacted]@acme.example/x?apiKey=[redacted]"); write it like "https://partner.example/oauth/token"',
      'init: --mint-url: "codes.mintUrl" is not an absolute http(s) URL ("hook:[redacted]@acme.example/codes"); write it like "https://partner.example/oauth/token"',
    ].join('\n'),
  );
});

test('init refuses a URL with a fragment, which is never sent to a server and may hold a token, and shows none of it', () => {
  const folder = emptyFolder();
  expectRefused(
    folder,
    ['acme', ...urls.slice(0, 4), '--mint-url', `https://acme.example/codes#access_token=${tokenSecret}`],
    "init: --mint-url: a URL's fragment (#…) is never sent to your server, and may hold a token; give the URL without it",
  );
  // The positive control: a bare "#" holds nothing, and the same URL without a fragment is written.
  expect(init(folder, 'acme', ...urls, '--client-id', 'platform').status).toBe(0);
});

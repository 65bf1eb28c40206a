import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadProfile, loadProfiles } from '../../partners/profile';
import { codesForRun } from '../../probes/certification';
import { startExternalPartner } from '../support/external-partner';
import { partnersDir } from '../support/profiles';
import { parentEnv, runPlaywright, skipReasons } from '../support/run-playwright';
import { tempDir } from '../support/temp';

const secret = 'acme-staging-secret-7f3a';
let acme: Awaited<ReturnType<typeof startExternalPartner>>;
test.beforeAll(async () => (acme = await startExternalPartner(secret)));
test.afterAll(() => acme.close());

const acmeProfile = (codes: object) => ({
  tokenExchangeUrl: `${acme.origin}/oauth2/token`,
  accountInfoUrl: `${acme.origin}/v2/me`,
  clientId: 'acme-platform',
  clientSecret: 'env:PARTNER_ACME_CLIENT_SECRET',
  tokenExchangeEncoding: 'form',
  // The acme user carries only the always-required fields; the platform asks for the rest.
  collectMissingAccountInfo: true,
  codes,
});

test('a profile only in PARTNERS_DIR, for a server outside this project, certifies with --project', async () => {
  const dir = partnersDir({ acme: acmeProfile({ mintUrl: `${acme.origin}/staging/mint` }) });
  const run = await runPlaywright(['--project=acme'], { PARTNERS_DIR: dir, PARTNER_ACME_CLIENT_SECRET: secret });
  expect(run.stderr).not.toContain('invalid partner profile');
  // Without "fundingSourcesUrl" the 2 funding-source tests are skipped; without "platform", the 2
  // mock-link and 9 browser tests; without "dataApi", the 3 data-API tests; without "slowChecks", the
  // code-lifetime test; without "issuer", the discovery test; each saying why.
  expect(run.report?.stats).toMatchObject({ expected: 15, unexpected: 0, skipped: 18 });
  const reasons = Object.values(skipReasons(run.report));
  expect(reasons.filter((reason) => reason.startsWith('the profile has no "platform" block'))).toHaveLength(11);
  expect(reasons.filter((reason) => reason.startsWith('the profile has no "dataApi" block'))).toHaveLength(3);
  expect(run.code).toBe(0);
});

test('the platform emulator learns a PARTNERS_DIR profile and signs its users on in the browser', async () => {
  test.setTimeout(180_000);
  const platform = { url: 'http://127.0.0.1:4401', apiKey: 'reference-platform-api-key', partnerName: 'acme' };
  const dir = partnersDir({ acme: { ...acmeProfile({ mintUrl: `${acme.origin}/staging/mint` }), platform } });
  const run = await runPlaywright(['--project=acme'], { PARTNERS_DIR: dir, PARTNER_ACME_CLIENT_SECRET: secret });
  // Skipped: the 2 funding-source tests and the funding sync (no "fundingSourcesUrl"), the 3 data-API
  // tests, the partner's app (no "partnerApp"), the code-lifetime test (no "slowChecks") and the discovery test (no "issuer").
  expect(run.report?.stats).toMatchObject({ expected: 24, unexpected: 0, skipped: 9 });
  expect(run.code).toBe(0);
});

test('static codes are spent exactly once across parallel workers, and a run needs no more than it says', async () => {
  const file = partnersDir({ probe: acmeProfile({ static: ['x'] }) });
  const needed = codesForRun(loadProfile(path.join(file, 'probe.json'), { PARTNER_ACME_CLIENT_SECRET: secret }).profile!.profile);
  const mint = async () => ((await (await fetch(`${acme.origin}/staging/mint`, { method: 'POST' })).json()) as { code: string }).code;
  const codes = await Promise.all(Array.from({ length: needed }, mint));
  const dir = partnersDir({ 'acme-static': acmeProfile({ static: codes }) });
  const run = await runPlaywright(['--project=acme-static', '--workers=4'], { PARTNERS_DIR: dir, PARTNER_ACME_CLIENT_SECRET: secret });
  expect(run.report?.stats).toMatchObject({ expected: 15, unexpected: 0 });
});

test('a run with too few static codes says how many it needs and fails clearly when they run out', async () => {
  const dir = partnersDir({ 'acme-short': acmeProfile({ static: ['spent-1', 'spent-2'] }) });
  const run = await runPlaywright(['--project=acme-short'], { PARTNERS_DIR: dir, PARTNER_ACME_CLIENT_SECRET: secret });
  expect(run.stderr + run.stdout).toContain('acme-short: "codes.static" holds 2 codes; a full certification run needs 25');
  expect(JSON.stringify(run.report)).toContain('\\"codes.static\\" ran out: it holds 2 codes and this run needs 25; ask the partner for 25 fresh codes');
  // Made-up codes: NOT CERTIFIED when the exchange that took one was judged first, INCOMPLETE otherwise; never certified.
  expect([1, 3]).toContain(run.code);
});

test('invalid profiles that were asked for stop the run before any test, with one line each; those not asked for stop no one', async () => {
  const dir = partnersDir({
    'no-token-url': { accountInfoUrl: 'https://p.example/account', tokenExchangeEncoding: 'form', codes: { mintUrl: 'https://p.example/codes' } },
    'bad-url': {
      tokenExchangeUrl: 'p.example/token',
      accountInfoUrl: 'https://p.example/account',
      tokenExchangeEncoding: 'form',
      codes: { mintUrl: 'https://p.example/codes' },
    },
    'unset-env': {
      tokenExchangeUrl: 'https://p.example/token',
      accountInfoUrl: 'https://p.example/account',
      clientSecret: 'env:PARTNER_TEST_UNSET',
      tokenExchangeEncoding: 'form',
      codes: { mintUrl: 'https://p.example/codes' },
    },
  });
  // Not asked for: not read, so the reference certifies (its funding-source tests, to keep this short).
  const other = await runPlaywright(['--project=reference', 'suites/funding-sources.spec.ts'], { PARTNERS_DIR: dir });
  expect(other.stderr).not.toContain('invalid partner profile');
  expect(other.report?.stats).toMatchObject({ unexpected: 0 });
  const certify = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/certify.ts', 'nope'], {
    encoding: 'utf8',
    env: { ...parentEnv(), PARTNERS_DIR: dir },
  });
  expect(certify.stderr.trim()).toMatch(
    /^no partner "nope"; partners: bad-url, no-token-url, reference, reference-app, reference-harbor, reference-ledgerly, unset-env /,
  );
  const run = await runPlaywright(['--project=reference', '--project=bad-url', '--project=no-token-url', '--project=unset-env'], { PARTNERS_DIR: dir });
  expect(run.code).toBe(2);
  expect(run.report).toBeUndefined();
  const lines = run.stderr
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('invalid partner profile:'));
  expect(lines).toEqual([
    expect.stringMatching(/bad-url\.json: "tokenExchangeUrl" is not an absolute http\(s\) URL \("p\.example\/token"\); write it like/),
    expect.stringMatching(/no-token-url\.json: "tokenExchangeUrl" is missing; add the partner's token exchange URL \(TokenExchangeUrl\)$/),
    expect.stringMatching(/unset-env\.json: "clientSecret" reads env:PARTNER_TEST_UNSET, which is not set; export PARTNER_TEST_UNSET=… or add it to \.env$/),
  ]);
  expect(run.stderr.trim().split('\n')).toHaveLength(3);
});

test('after init, the empty line it leaves in .env is named with its variable and .env by npx partner-certify, and so is a line left out', () => {
  const folder = tempDir('init-folder-');
  const cli = (...args: string[]) =>
    spawnSync(path.resolve('node_modules/.bin/tsx'), [path.resolve('scripts/cli.ts'), ...args], { cwd: folder, encoding: 'utf8', env: parentEnv() });
  const urls = ['--token-url', 'https://p.example/token', '--account-url', 'https://p.example/account', '--mint-url', 'https://p.example/codes'];
  expect(cli('init', 'acme', ...urls, '--client-id', 'acme-platform').status).toBe(0);
  expect(readFileSync(path.join(folder, '.env'), 'utf8')).toBe('PARTNER_ACME_CLIENT_SECRET=\n');
  const empty = cli('acme');
  expect(empty.status).toBe(2);
  expect(empty.stderr.trim()).toBe(
    'invalid partner profile: partners/acme.json: "clientSecret" reads env:PARTNER_ACME_CLIENT_SECRET, which is empty; give it its value in .env (PARTNER_ACME_CLIENT_SECRET=…) or export it',
  );
  writeFileSync(path.join(folder, '.env'), '');
  expect(cli('acme').stderr.trim()).toBe(
    'invalid partner profile: partners/acme.json: "clientSecret" reads env:PARTNER_ACME_CLIENT_SECRET, which is not set; export PARTNER_ACME_CLIENT_SECRET=… or add it to .env',
  );
  // The positive control: with its value in .env, the profile loads as the command loads it.
  writeFileSync(path.join(folder, '.env'), 'PARTNER_ACME_CLIENT_SECRET=acme-secret-set-4e1f\n');
  const loaded = loadProfiles(path.join(folder, 'partners'), { env: {}, envFile: path.join(folder, '.env') });
  expect(loaded.errors).toEqual([]);
  expect(loaded.profiles.map(({ profile }) => profile.clientSecret)).toEqual(['acme-secret-set-4e1f']);
});

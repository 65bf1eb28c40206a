import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadProfile, loadProfiles, profileJsonSchema } from '../../partners/profile';
import { tempDir } from '../support/temp';

const valid = {
  tokenExchangeUrl: 'https://partner.example/oauth/token',
  accountInfoUrl: 'https://partner.example/api/account',
  tokenExchangeEncoding: 'form',
  codes: { mintUrl: 'https://partner.example/test/codes' },
};

function folderWith(files: Record<string, unknown>): string {
  const dir = tempDir('profiles-');
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

const errorsOf = (content: unknown, env: NodeJS.ProcessEnv = {}) => {
  const dir = folderWith({ 'acme.json': content });
  return loadProfile(path.join(dir, 'acme.json'), env).errors.map((line) => line.slice(line.indexOf('acme.json')));
};

test('a minimal profile loads with its defaults', () => {
  const dir = folderWith({ 'acme.json': valid });
  expect(loadProfile(path.join(dir, 'acme.json'), {}).profile).toEqual({
    name: 'acme',
    file: path.join(dir, 'acme.json'),
    profile: { ...valid, collectMissingAccountInfo: false, requestTimeoutMs: 10_000, slowChecks: false, maxCodeLifetimeSeconds: 600, environment: 'staging' },
    envValues: [],
    envNames: {},
    waivers: [],
    platformWaivers: [],
  });
});

test('CERTIFY_SLOW=1 (npm run certify -- <partner> --slow) turns the slow checks on for one run', () => {
  const dir = folderWith({ 'acme.json': valid });
  expect(loadProfile(path.join(dir, 'acme.json'), { CERTIFY_SLOW: '1' }).profile?.profile.slowChecks).toBe(true);
});

test('tokenExchangeEncoding is required, and its error says why and what to choose', () => {
  const { tokenExchangeEncoding: _, ...rest } = valid;
  expect(errorsOf(rest)).toEqual([
    'acme.json: "tokenExchangeEncoding" is missing; say which body the platform sends this partner\'s token requests in: "form" (application/x-www-form-urlencoded, the RFC 6749 §4.1.3 standard that OAuth libraries accept) or "json" (spec §4.2 allows either); that encoding is certified, the other only noted',
  ]);
  expect(errorsOf({ ...valid, tokenExchangeEncoding: 'xml' })).toEqual([
    'acme.json: "tokenExchangeEncoding" must be "json" or "form": the body encoding the platform is configured to send this partner\'s token requests in',
  ]);
});

test('the committed reference profile is valid', () => {
  expect(loadProfile('partners/reference.json', {}).errors).toEqual([]);
});

test('a missing tokenExchangeUrl is one line naming the file, the field and the fix', () => {
  const { tokenExchangeUrl: _, ...rest } = valid;
  expect(errorsOf(rest)).toEqual([`acme.json: "tokenExchangeUrl" is missing; add the partner's token exchange URL (TokenExchangeUrl)`]);
});

test('a malformed URL is one line', () => {
  expect(errorsOf({ ...valid, accountInfoUrl: 'partner.example/account' })).toEqual([
    'acme.json: "accountInfoUrl" is not an absolute http(s) URL ("partner.example/account"); write it like "https://partner.example/oauth/token"',
  ]);
  expect(errorsOf({ ...valid, accountInfoUrl: 'ftp://partner.example/account' })).toHaveLength(1);
});

test("a problem found after env: values are read quotes the profile as written, never a variable's value", () => {
  const env = { PARTNER_ACME_MINT_TEAM: 'TeamKeyPLANTED-5522-zzXY', PARTNER_ACME_TOKEN_URL: 'htps://partner.example/t/PathKeyPLANTED77/token' };
  const errors = errorsOf(
    { ...valid, tokenExchangeUrl: 'env:PARTNER_ACME_TOKEN_URL', codes: { mintUrl: 'htps://partner.example/codes?team=env:PARTNER_ACME_MINT_TEAM' } },
    env,
  );
  expect(errors).toEqual([
    'acme.json: "tokenExchangeUrl" is not an absolute http(s) URL ("env:PARTNER_ACME_TOKEN_URL"); write it like "https://partner.example/oauth/token"',
    'acme.json: "codes.mintUrl" is not an absolute http(s) URL ("htps://partner.example/codes?team=env:PARTNER_ACME_MINT_TEAM"); write it like "https://partner.example/oauth/token"',
  ]);
});

test('env: values are read from the environment; an unset one is named', () => {
  const withEnv = { ...valid, clientSecret: 'env:PARTNER_ACME_SECRET', tokenExchangeUrl: 'env:PARTNER_ACME_TOKEN_URL' };
  expect(errorsOf(withEnv, { PARTNER_ACME_TOKEN_URL: valid.tokenExchangeUrl })).toEqual([
    'acme.json: "clientSecret" reads env:PARTNER_ACME_SECRET, which is not set; export PARTNER_ACME_SECRET=… or add it to .env',
  ]);
  // The line init leaves in .env, still to fill in: named with its variable, never "remove the field".
  expect(errorsOf(withEnv, { PARTNER_ACME_TOKEN_URL: valid.tokenExchangeUrl, PARTNER_ACME_SECRET: '' })).toEqual([
    'acme.json: "clientSecret" reads env:PARTNER_ACME_SECRET, which is empty; give it its value in .env (PARTNER_ACME_SECRET=…) or export it',
  ]);
  const dir = folderWith({ 'acme.json': withEnv });
  const loaded = loadProfile(path.join(dir, 'acme.json'), { PARTNER_ACME_SECRET: 's3cret', PARTNER_ACME_TOKEN_URL: valid.tokenExchangeUrl });
  expect(loaded.profile?.profile).toMatchObject({ clientSecret: 's3cret', tokenExchangeUrl: valid.tokenExchangeUrl });
  // Each field's variable, by name only: what a finding's fix names ("clientSecret" (PARTNER_ACME_SECRET)).
  expect(loaded.profile?.envNames).toEqual({ clientSecret: 'PARTNER_ACME_SECRET', tokenExchangeUrl: 'PARTNER_ACME_TOKEN_URL' });
});

test('an empty clientSecret written in the profile itself keeps its own message: there is no variable to name', () => {
  expect(errorsOf({ ...valid, clientId: 'platform', clientSecret: '' })).toEqual(['acme.json: "clientSecret" is empty; remove the field or give it a value']);
  // The positive control: a secret written in the profile loads.
  expect(errorsOf({ ...valid, clientId: 'platform', clientSecret: 's3cret' })).toEqual([]);
});

test("env: reads only partner variables: never the harness's own, nor a CI secret, unless the run declares its prefix", () => {
  const env = { CERTIFY_SIGNING_KEY: '-----BEGIN PRIVATE KEY-----', GITHUB_TOKEN: 'ghs_0123456789', ACME_SECRET: 's3cret' };
  expect(errorsOf({ ...valid, clientSecret: 'env:CERTIFY_SIGNING_KEY' }, env)).toEqual([
    'acme.json: "clientSecret" reads env:CERTIFY_SIGNING_KEY, which is one of the harness\'s own variables (CERTIFY_…), which no profile may read; give the partner\'s value in a variable of its own, such as PARTNER_SIGNING_KEY',
  ]);
  expect(errorsOf({ ...valid, clientSecret: 'env:GITHUB_TOKEN' }, env)).toEqual([
    'acme.json: "clientSecret" reads env:GITHUB_TOKEN, which is not a partner variable: a profile reads only variables named PARTNER_…, so that it cannot read the run\'s other secrets; rename it PARTNER_GITHUB_TOKEN, or declare its prefix in CERTIFY_ENV_PREFIXES',
  ]);
  expect(errorsOf({ ...valid, clientSecret: 'env:ACME_SECRET' }, { ...env, CERTIFY_ENV_PREFIXES: 'ACME_' })).toEqual([]);
  // Declared prefixes never reach the harness's own variables.
  expect(errorsOf({ ...valid, clientSecret: 'env:CERTIFY_SIGNING_KEY' }, { ...env, CERTIFY_ENV_PREFIXES: 'CERTIFY_' })).toHaveLength(1);
  expect(loadProfiles(folderWith({ 'acme.json': valid }), { env: { CERTIFY_ENV_PREFIXES: 'CERTIFY_,acme-,C' }, envFile: '/nonexistent/.env' }).errors).toEqual([
    'CERTIFY_ENV_PREFIXES: "CERTIFY_" would let profiles read the harness\'s own variables (CERTIFY_, CERTIFICATION_…); choose a prefix of the partners\' own',
    'CERTIFY_ENV_PREFIXES: "acme-" is no prefix of variable names; write letters and digits ending in "_", such as ACME_',
    'CERTIFY_ENV_PREFIXES: "C" is no prefix of variable names; write letters and digits ending in "_", such as ACME_',
  ]);
});

test('a URL read from env: is shown; only its credentials and query values are secrets', () => {
  const dir = folderWith({ 'acme.json': { ...valid, accountInfoUrl: 'env:PARTNER_ACME_ACCOUNT_URL' } });
  const loaded = loadProfile(path.join(dir, 'acme.json'), {
    PARTNER_ACME_ACCOUNT_URL: 'https://gw:p4ss-w0rd-1@partner.example/api/account?X-Amz-Signature=a1b2c3d4e5f6a7b8&region=us',
  });
  expect(loaded.profile?.envValues).toEqual(['p4ss-w0rd-1', 'a1b2c3d4e5f6a7b8']);
});

test('a profile name is bounded, since it names folders of the report', () => {
  const name = 'a'.repeat(65);
  const dir = folderWith({ [`${name}.json`]: valid, [`${'b'.repeat(64)}.json`]: valid });
  const { profiles, errors } = loadProfiles(dir, { env: {}, envFile: '/nonexistent/.env' });
  expect(profiles.map((p) => p.name)).toEqual(['b'.repeat(64)]);
  expect(errors).toEqual([
    expect.stringMatching(
      new RegExp(`${name}\\.json: the file name has 65 characters before "\\.json"; the project name is part of the report's folder names, so keep it to 64$`),
    ),
  ]);
});

test('two profiles with one partner name on one platform are refused however its host is written', () => {
  const platform = (url: string, partnerName = 'acme') => ({ ...valid, platform: { url, apiKey: 'k3y-0123456789', partnerName } });
  const twins = (a: string, b: string) =>
    loadProfiles(folderWith({ 'one.json': platform(a), 'two.json': platform(b) }), { env: {}, envFile: '/nonexistent/.env' }).errors;
  for (const [a, b] of [
    ['http://127.0.0.1:4401', 'http://localhost:4401'],
    ['http://127.0.0.1:4401', 'http://[::1]:4401/'],
    ['https://Platform.Example', 'https://platform.example.:443/sandbox'],
    ['http://127.0.0.1:4401', 'http://127.0.0.2:4401'],
    ['http://127.0.0.1:4401', 'http://0.0.0.0:4401'],
    ['http://localhost:4401', 'http://[::]:4401'],
  ]) {
    expect(twins(a!, b!), `${a} and ${b}`).toEqual([
      expect.stringMatching(/two\.json: "platform\.partnerName" is "acme", as in .*one\.json on the same platform/),
    ]);
  }
  expect(twins('http://127.0.0.1:4401', 'http://127.0.0.1:4402')).toEqual([]);
  expect(twins('https://a.platform.example', 'https://b.platform.example')).toEqual([]);
});

test('a .env file fills in variables the environment does not set', () => {
  const dir = folderWith({
    'acme.json': { ...valid, clientSecret: 'env:PARTNER_ACME_SECRET', clientId: 'env:PARTNER_ACME_ID' },
    '.env.test': 'PARTNER_ACME_SECRET=from-dotenv\nPARTNER_ACME_ID=from-dotenv\n',
  });
  const { profiles, errors } = loadProfiles(dir, { env: { PARTNER_ACME_ID: 'from-environment' }, envFile: path.join(dir, '.env.test') });
  expect(errors).toEqual([]);
  expect(profiles[0]?.profile).toMatchObject({ clientSecret: 'from-dotenv', clientId: 'from-environment' });
});

test('unknown fields, wrong types and ambiguous code sources are named', () => {
  expect(errorsOf({ ...valid, tokenExchangeURL: 'x' })).toEqual([
    'acme.json: unknown field "tokenExchangeURL"; check the spelling against partners/profile.schema.json',
  ]);
  expect(errorsOf({ ...valid, requestTimeoutMs: '5000' })).toEqual([
    'acme.json: "requestTimeoutMs" must be number (it is string); give milliseconds as a number',
  ]);
  expect(errorsOf({ ...valid, codes: { mintUrl: valid.codes.mintUrl, static: ['a'] } })).toEqual([
    'acme.json: "codes" needs exactly one of "mintUrl", "static" or "browser"',
  ]);
  expect(errorsOf({ ...valid, codes: { static: [] } })).toEqual(['acme.json: "codes.static" is empty; give the one-time codes the partner handed over']);
  expect(errorsOf('{ "tokenExchangeUrl": ')[0]).toMatch(/^acme\.json: is not valid JSON \(.+\); fix the syntax$/);
});

test('PARTNERS_DIR adds profiles; name clashes and a missing folder are errors', () => {
  const mine = folderWith({ 'acme.json': valid, 'profile.schema.json': {} });
  const theirs = folderWith({ 'acme.json': valid, 'globex.json': valid });
  const { profiles, errors } = loadProfiles(mine, { env: { PARTNERS_DIR: theirs }, envFile: '/nonexistent/.env' });
  expect(profiles.map((p) => p.name)).toEqual(['acme', 'globex']);
  expect(errors).toEqual([expect.stringMatching(/acme\.json: the project name "acme" is taken by .*acme\.json; rename one of them$/)]);
  expect(loadProfiles(mine, { env: { PARTNERS_DIR: '/nonexistent' }, envFile: '/nonexistent/.env' }).errors).toEqual([
    'PARTNERS_DIR=/nonexistent: no such folder; point it at the folder that holds the partner profiles',
  ]);
});

test("project names are safe, and the harness's own project names are reserved", () => {
  const dir = folderWith({ 'self-test.json': valid, 'Acme Corp.json': valid, 'history.json': valid });
  const { errors } = loadProfiles(dir, { env: {}, envFile: '/nonexistent/.env' });
  expect(errors).toEqual([
    expect.stringMatching(/Acme Corp\.json: the file name must be lower-case letters, digits and dashes/),
    expect.stringMatching(/history\.json: "history" is a name the harness keeps for itself \(the history's folder\); rename the file$/),
    expect.stringMatching(/self-test\.json: "self-test" is a name the harness keeps for itself \(its own test project\); rename the file$/),
  ]);
});

test('the published JSON Schema accepts env: references wherever a string goes', () => {
  const schema = profileJsonSchema() as { properties: Record<string, { anyOf?: { pattern?: string }[] }> };
  expect(schema.properties.tokenExchangeUrl?.anyOf?.[1]?.pattern).toBe('^env:([A-Za-z_][A-Za-z0-9_]*)$');
});

test('"caFile" is read relative to the profile; a missing file, or one without a PEM certificate, is one line', () => {
  const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
  const dir = folderWith({ 'acme.json': { ...valid, caFile: 'ca.pem' }, 'ca.pem': pem });
  expect(loadProfile(path.join(dir, 'acme.json'), {}).profile?.profile.caFile).toBe(path.join(dir, 'ca.pem'));
  expect(errorsOf({ ...valid, caFile: 'no-such-ca.pem' })).toEqual([
    expect.stringMatching(/^acme\.json: "caFile": cannot read .*no-such-ca\.pem; give the path of a PEM file, relative to the profile$/),
  ]);
  const notPem = folderWith({ 'acme.json': { ...valid, caFile: 'ca.txt' }, 'ca.txt': 'not a certificate' });
  expect(loadProfile(path.join(notPem, 'acme.json'), {}).errors).toEqual([
    expect.stringMatching(/acme\.json: "caFile": .*ca\.txt holds no PEM certificate \("-----BEGIN CERTIFICATE-----"\)$/),
  ]);
});

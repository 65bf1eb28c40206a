import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadProfile } from '../../partners/profile';
import { urlSlots } from '../../partners/url-references';
import { profileSecrets } from '../../redaction/secrets';
import { redact } from '../../redaction/redact';
import { tempDir } from '../support/temp';

const valid = {
  tokenExchangeUrl: 'https://partner.example/oauth/token',
  accountInfoUrl: 'https://partner.example/api/account',
  tokenExchangeEncoding: 'form',
  codes: { mintUrl: 'https://partner.example/test/codes' },
};

const loaded = (profile: unknown, env: NodeJS.ProcessEnv) => {
  const file = path.join(tempDir('url-env-'), 'acme.json');
  writeFileSync(file, JSON.stringify(profile));
  const result = loadProfile(file, env);
  return { ...result, errors: result.errors.map((line) => line.slice(line.indexOf('acme.json'))) };
};

const slotTexts = (url: string) => urlSlots(url).map(({ part, from, to }) => [part.kind === 'query' ? `?${part.name}` : part.kind, url.slice(from, to)]);

test("a URL's user name, password and query values are found where the URL parser finds them", () => {
  expect(slotTexts('https://hook:pa%40ss@partner.example:8443/codes?apiKey=k3y&team=blue&flag&x=a=b#frag=1')).toEqual([
    ['user', 'hook'],
    ['password', 'pa%40ss'],
    ['?apiKey', 'k3y'],
    ['?team', 'blue'],
    ['?x', 'a=b'],
  ]);
  // The userinfo ends at the last "@" of the authority, the user name at its first ":".
  expect(slotTexts('http://u:p@ss:w@host/a@b?q=1')).toEqual([
    ['user', 'u'],
    ['password', 'p@ss:w'],
    ['?q', '1'],
  ]);
  // A user name read from env: keeps its own colon.
  expect(slotTexts('http://env:PARTNER_U:env:PARTNER_P@host/')).toEqual([
    ['user', 'env:PARTNER_U'],
    ['password', 'env:PARTNER_P'],
  ]);
  expect(slotTexts('https://partner.example/path?')).toEqual([]);
  expect(slotTexts('https://partner.example/p#?a=b')).toEqual([]);
  expect(slotTexts('not a url?a=b')).toEqual([]);
  // The parser agrees on every part.
  const url = new URL('https://hook:pa%40ss@partner.example:8443/codes?apiKey=k3y&team=blue');
  expect([url.username, url.password, ...url.searchParams.values()]).toEqual(['hook', 'pa%40ss', 'k3y', 'blue']);
});

test('a URL reads its user name, password and query values from env:, back to the URL they were taken from', () => {
  const mintUrl = 'http://hook:env:PARTNER_ACME_MINT_PASSWORD@127.0.0.1:3000/hooks/codes?apiKey=env:PARTNER_ACME_MINT_API_KEY&team=blue';
  const tokenExchangeUrl = 'https://env:PARTNER_ACME_TOKEN_USER@partner.example/oauth/token?client_secret=env:PARTNER_ACME_TOKEN_CLIENT_SECRET';
  const env = {
    PARTNER_ACME_MINT_PASSWORD: 'Hunter2-pw%2Fzq',
    PARTNER_ACME_MINT_API_KEY: 'k3y-Qx7-0123456789',
    PARTNER_ACME_TOKEN_USER: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
    PARTNER_ACME_TOKEN_CLIENT_SECRET: 'cs-9f8e7d6c5b4a',
  };
  const { profile, errors } = loaded({ ...valid, tokenExchangeUrl, codes: { mintUrl } }, env);
  expect(errors).toEqual([]);
  expect(profile!.profile.codes.mintUrl).toBe('http://hook:Hunter2-pw%2Fzq@127.0.0.1:3000/hooks/codes?apiKey=k3y-Qx7-0123456789&team=blue');
  expect(profile!.profile.tokenExchangeUrl).toBe('https://sk_test_4eC39HqLyjWDarjtT1zdp7dc@partner.example/oauth/token?client_secret=cs-9f8e7d6c5b4a');
  expect(profile!.envNames).toEqual({
    'codes.mintUrl#password': 'PARTNER_ACME_MINT_PASSWORD',
    'codes.mintUrl?apiKey': 'PARTNER_ACME_MINT_API_KEY',
    'tokenExchangeUrl#user': 'PARTNER_ACME_TOKEN_USER',
    'tokenExchangeUrl?client_secret': 'PARTNER_ACME_TOKEN_CLIENT_SECRET',
  });
  // Every value read is a secret, as it is written and as the server reads it.
  expect(profile!.envValues).toEqual(
    expect.arrayContaining(['Hunter2-pw%2Fzq', 'Hunter2-pw/zq', 'k3y-Qx7-0123456789', 'sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'cs-9f8e7d6c5b4a']),
  );
  const shown = redact(`POST ${profile!.profile.codes.mintUrl} failed; password Hunter2-pw/zq`, profileSecrets(profile!.profile, profile!.envValues));
  expect(shown).not.toMatch(/Hunter2|k3y-Qx7/);
  expect(shown).toContain('127.0.0.1:3000/hooks/codes');
});

test('a URL part read from env: is refused, named, when unset, empty, not a partner variable, or holding what would end it early', () => {
  const mintUrl = 'http://hook:env:PARTNER_ACME_MINT_PASSWORD@partner.example/codes?apiKey=env:PARTNER_ACME_MINT_API_KEY';
  expect(loaded({ ...valid, codes: { mintUrl } }, { PARTNER_ACME_MINT_PASSWORD: '' }).errors).toEqual([
    'acme.json: "codes.mintUrl" reads its password from env:PARTNER_ACME_MINT_PASSWORD, which is empty; give it its value in .env (PARTNER_ACME_MINT_PASSWORD=…) or export it',
    'acme.json: "codes.mintUrl" reads its query value "apiKey" from env:PARTNER_ACME_MINT_API_KEY, which is not set; export PARTNER_ACME_MINT_API_KEY=… or add it to .env',
  ]);
  expect(loaded({ ...valid, codes: { mintUrl: 'http://hook:env:GITHUB_TOKEN@partner.example/codes' } }, { GITHUB_TOKEN: 'ghs_x' }).errors).toEqual([
    'acme.json: "codes.mintUrl" reads its password from env:GITHUB_TOKEN, which is not a partner variable: a profile reads only variables named PARTNER_…, so that it cannot read the run\'s other secrets; rename it PARTNER_GITHUB_TOKEN, or declare its prefix in CERTIFY_ENV_PREFIXES',
  ]);
  // "@" in a password, or "&" in a query value, would point the URL elsewhere: refused, never the value shown.
  const env = { PARTNER_ACME_MINT_PASSWORD: 'p@ss-Zq81', PARTNER_ACME_MINT_API_KEY: 'k3y&admin=1' };
  expect(loaded({ ...valid, codes: { mintUrl } }, env).errors).toEqual([
    'acme.json: "codes.mintUrl" reads its password from env:PARTNER_ACME_MINT_PASSWORD, whose value holds "@", which would end the password early; write it percent-encoded (%40) in PARTNER_ACME_MINT_PASSWORD',
    'acme.json: "codes.mintUrl" reads its query value "apiKey" from env:PARTNER_ACME_MINT_API_KEY, whose value holds "&", which would end the query value "apiKey" early; write it percent-encoded (%26) in PARTNER_ACME_MINT_API_KEY',
  ]);
  // The positive control: the same written percent-encoded loads.
  const encoded = { PARTNER_ACME_MINT_PASSWORD: 'p%40ss-Zq81', PARTNER_ACME_MINT_API_KEY: 'k3y%26admin%3D1' };
  expect(loaded({ ...valid, codes: { mintUrl } }, encoded).profile?.profile.codes.mintUrl).toBe(
    'http://hook:p%40ss-Zq81@partner.example/codes?apiKey=k3y%26admin%3D1',
  );
});

test('env: stands for a whole part only: a path, a host or a fragment is left as written', () => {
  const { profile, errors } = loaded({ ...valid, accountInfoUrl: 'https://partner.example/env:PARTNER_X/account?note=xenv:PARTNER_X#env:PARTNER_X' }, {});
  expect(errors).toEqual([]);
  expect(profile!.profile.accountInfoUrl).toBe('https://partner.example/env:PARTNER_X/account?note=xenv:PARTNER_X#env:PARTNER_X');
});

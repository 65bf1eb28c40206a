import { expect, test } from '@playwright/test';
import { parse as parseDotenv } from 'dotenv';
import fc from 'fast-check';
import { resolveUrlReferences } from '../../partners/url-references';
import { variableChooser, withoutCredentials, type MovedCredential, type Variables } from '../../scripts/init-secrets';

const none: Variables = { referenced: new Set(), dotenv: {}, environment: {} };
const moved = (url: string, variables: Variables = none) => withoutCredentials(url, 'codes.mintUrl', 'PARTNER_ACME_MINT', variableChooser(variables));
/** The URL the profile loader reads back, with each variable set to the value init wrote to .env. */
const readBack = (url: string, credentials: readonly MovedCredential[]) => {
  const values = new Map(credentials.map(({ variable, value }) => [variable, value]));
  return resolveUrlReferences(url, (name) => values.get(name));
};
const summary = (credentials: readonly MovedCredential[]) => credentials.map(({ part, variable, value }) => [part.kind, variable, value]);

test("a URL's password, and a user name or query values that look like credentials, become env: references; words stay", () => {
  const given = 'http://hook:Zq81%2Fhunter-2@partner.example/hooks/codes?apiKey=K3y-Qx7-abcdef0123&team=blue&user=complete';
  const { url, moved: credentials } = moved(given);
  expect(url).toBe('http://hook:env:PARTNER_ACME_MINT_PASSWORD@partner.example/hooks/codes?apiKey=env:PARTNER_ACME_MINT_API_KEY&team=blue&user=complete');
  expect(summary(credentials)).toEqual([
    ['password', 'PARTNER_ACME_MINT_PASSWORD', 'Zq81%2Fhunter-2'],
    ['query', 'PARTNER_ACME_MINT_API_KEY', 'K3y-Qx7-abcdef0123'],
  ]);
  expect(readBack(url, credentials)).toBe(given);
  // A password is one whatever it looks like; a user name that looks like a key is one too (sk_live_…:).
  expect(summary(moved('https://u:pw@partner.example/').moved)).toEqual([['password', 'PARTNER_ACME_MINT_PASSWORD', 'pw']]);
  const keyAsUser = moved('https://sk_test_4eC39HqLyjWDarjtT1zdp7dc@partner.example/codes');
  expect(keyAsUser.url).toBe('https://env:PARTNER_ACME_MINT_USER@partner.example/codes');
  expect(readBack(keyAsUser.url, keyAsUser.moved)).toBe('https://sk_test_4eC39HqLyjWDarjtT1zdp7dc@partner.example/codes');
});

test('a URL without credentials is written as given, and one already reading env: is left as it is', () => {
  for (const given of [
    'https://partner.example/hooks/codes?user=complete&team=blue',
    'http://127.0.0.1:4400/test-hooks/codes',
    'partner.example/codes?key=K3y-Qx7-abcdef0123',
  ])
    expect(moved(given)).toEqual({ url: given, moved: [] });
  const referenced = 'https://hook:env:PARTNER_ACME_MINT_PASSWORD@partner.example/codes?apiKey=env:PARTNER_ACME_MINT_API_KEY';
  expect(moved(referenced)).toEqual({ url: referenced, moved: [] });
});

test('variable names follow PARTNER_<NAME>_<FIELD>_<PART> and never collide: within a URL, with .env, the environment or another profile', () => {
  const twice = moved(
    'https://hook:Pw-zq81-hunter@partner.example/codes?password=Other-pw-0001&api_key=K3y-0000-1111-2222&apiKey=K3y-3333-4444-5555&X-Amz-Signature=a1b2c3d4e5f6a7b8',
  );
  expect(summary(twice.moved).map(([, variable]) => variable)).toEqual([
    'PARTNER_ACME_MINT_PASSWORD',
    'PARTNER_ACME_MINT_PASSWORD_2',
    'PARTNER_ACME_MINT_API_KEY',
    'PARTNER_ACME_MINT_API_KEY_2',
    'PARTNER_ACME_MINT_X_AMZ_SIGNATURE',
  ]);
  const given = 'https://hook:Pw-zq81-hunter@partner.example/codes';
  // .env or the environment holds another value under the name, or another profile reads it: the next name.
  for (const taken of [
    { ...none, dotenv: { PARTNER_ACME_MINT_PASSWORD: 'older-value' } },
    { ...none, environment: { PARTNER_ACME_MINT_PASSWORD: 'exported-value' } },
    { ...none, referenced: new Set(['PARTNER_ACME_MINT_PASSWORD']) },
  ])
    expect(summary(moved(given, taken).moved)).toEqual([['password', 'PARTNER_ACME_MINT_PASSWORD_2', 'Pw-zq81-hunter']]);
  // .env holds this very value: kept, not written twice.
  expect(moved(given, { ...none, dotenv: { PARTNER_ACME_MINT_PASSWORD: 'Pw-zq81-hunter' } }).moved).toEqual([
    expect.objectContaining({ variable: 'PARTNER_ACME_MINT_PASSWORD', kept: true }),
  ]);
  // The client secret's line, to be filled in, is kept when .env has it, as init always did; not when another profile reads it.
  expect(variableChooser({ ...none, dotenv: { PARTNER_ACME_CLIENT_SECRET: 'x' } })('PARTNER_ACME_CLIENT_SECRET')).toEqual({
    variable: 'PARTNER_ACME_CLIENT_SECRET',
    kept: true,
  });
  expect(variableChooser({ ...none, referenced: new Set(['PARTNER_ACME_CLIENT_SECRET']) })('PARTNER_ACME_CLIENT_SECRET')).toEqual({
    variable: 'PARTNER_ACME_CLIENT_SECRET_2',
    kept: false,
  });
});

test('a value .env could not give back, or the loader would refuse, is written percent-encoded: the same credentials to a server', () => {
  const given = `http://hook:p@ss"'\`-1@partner.example/codes?apiKey='K3y-Qx7-abcdef0123'`;
  const { url, moved: credentials } = moved(given);
  expect(summary(credentials)).toEqual([
    ['password', 'PARTNER_ACME_MINT_PASSWORD', 'p%40ss%22%27%60-1'],
    ['query', 'PARTNER_ACME_MINT_API_KEY', '%27K3y-Qx7-abcdef0123%27'],
  ]);
  for (const { variable, value } of credentials) expect(parseDotenv(`${variable}=${value}\n`)[variable]).toBe(value);
  // The same password to a server, which percent-decodes it (a quote encoded or not).
  expect(decodeURIComponent(new URL(readBack(url, credentials)).password)).toBe('p@ss"\'`-1');
  expect(new URL(readBack(url, credentials)).searchParams.get('apiKey')).toBe("'K3y-Qx7-abcdef0123'");
});

test('property: the URL read back from what init wrote is the URL given, character for character when written in the URL form', () => {
  const part = fc.stringMatching(/^[A-Za-z0-9._~!$*+,;=-]{1,24}$/);
  fc.assert(
    fc.property(part, part, part, fc.boolean(), (user, password, key, withQuery) => {
      const given = `https://${user}:${password}@partner.example/hooks/codes${withQuery ? `?apiKey=${key}&team=blue` : ''}`;
      const { url, moved: credentials } = moved(given);
      expect(url).not.toContain(`:${password}@`);
      for (const { variable, value } of credentials) expect(parseDotenv(`${variable}=${value}\n`)[variable]).toBe(value);
      expect(readBack(url, credentials)).toBe(given);
    }),
  );
});

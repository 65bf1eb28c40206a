import { expect, test } from '@playwright/test';
import { referenceClient } from '../../sandbox/reference-partner/client';
import { defaultCodeLifetimeMs } from '../../sandbox/reference-partner/store';
import { users } from '../../sandbox/reference-partner/users';
import { startReferencePartner } from '../support/sandbox';

let clock = Date.parse('2026-11-21T12:00:00Z');
let partner: Awaited<ReturnType<typeof startReferencePartner>>;
test.beforeAll(async () => (partner = await startReferencePartner({ now: () => clock })));
test.afterAll(() => partner.close());

const mint = async (query = '') => ((await (await fetch(`${partner.origin}/test-hooks/codes${query}`, { method: 'POST' })).json()) as { code: string }).code;
const credentials = { client_id: referenceClient.id, client_secret: referenceClient.secret };
const exchange = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${partner.origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(params) });
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

test('a code exchanged in either encoding yields a Bearer token that reads the account', async () => {
  const json = await exchange({ grant_type: 'authorization_code', code: await mint(), ...credentials });
  const form = await fetch(`${partner.origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: await mint(), ...credentials }),
  });
  for (const response of [json, form]) {
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const account = await fetch(`${partner.origin}/api/account`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(await account.json()).toEqual(users.complete.data().accountInfo);
  }
});

test('HTTP Basic client authentication works; Basic together with client_secret is refused', async () => {
  const ok = await exchange({ grant_type: 'authorization_code', code: await mint() }, { authorization: basic(referenceClient.id, referenceClient.secret) });
  expect(ok.status).toBe(200);
  const both = await exchange(
    { grant_type: 'authorization_code', code: await mint(), client_secret: 'x' },
    { authorization: basic(referenceClient.id, referenceClient.secret) },
  );
  expect(both.status).toBe(401);
  const wrong = await exchange({ grant_type: 'authorization_code', code: await mint() }, { authorization: basic(referenceClient.id, 'nope') });
  expect(wrong.status).toBe(401);
  expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="reference-partner"');
  expect(await wrong.json()).toEqual({ error: 'invalid_client', error_description: 'wrong client_secret' });
});

test('codes are bound to their client; a client=none code needs no credentials', async () => {
  expect((await exchange({ grant_type: 'authorization_code', code: await mint() })).status).toBe(401);
  expect((await exchange({ grant_type: 'authorization_code', code: await mint('?client=none') })).status).toBe(200);
});

test('codes live exactly ten minutes', async () => {
  const [onTime, late] = [await mint(), await mint()];
  clock += defaultCodeLifetimeMs;
  expect((await exchange({ grant_type: 'authorization_code', code: onTime, ...credentials })).status).toBe(200);
  clock += 1;
  const response = await exchange({ grant_type: 'authorization_code', code: late, ...credentials });
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ error: 'invalid_grant', error_description: 'the code is expired' });
});

test('a reused code is refused and the token it issued is revoked', async () => {
  const code = await mint();
  const { access_token: token } = (await (await exchange({ grant_type: 'authorization_code', code, ...credentials })).json()) as { access_token: string };
  expect((await exchange({ grant_type: 'authorization_code', code, ...credentials })).status).toBe(400);
  const account = await fetch(`${partner.origin}/api/account`, { headers: { authorization: `Bearer ${token}` } });
  expect(account.status).toBe(401);
  expect(account.headers.get('www-authenticate')).toBe('Bearer realm="reference-partner", error="invalid_token"');
});

test('resources without a token answer 401 with WWW-Authenticate: Bearer', async () => {
  const response = await fetch(`${partner.origin}/api/funding-sources`);
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer realm="reference-partner"');
});

test('bad input gets a 4xx JSON error, never a 5xx', async () => {
  const cases: [string, RequestInit][] = [
    ['/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"code": ' }],
    ['/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '["code"]' }],
    ['/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"code": {"$ne": 1}}' }],
    ['/oauth/token', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'code=1' }],
    ['/faults/no-such-fault/oauth/token', { method: 'POST' }],
    ['/test-hooks/codes?user=nobody', { method: 'POST' }],
    ['/nowhere', {}],
  ];
  for (const [path, init] of cases) {
    const response = await fetch(`${partner.origin}${path}`, init);
    expect(response.status, path).toBeGreaterThanOrEqual(400);
    expect(response.status, path).toBeLessThan(500);
    expect(response.headers.get('content-type'), path).toContain('application/json');
  }
});

test('faults switch on by path prefix and combine', async () => {
  const response = await fetch(`${partner.origin}/faults/status-201,no-pragma/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', code: await mint(), ...credentials }),
  });
  expect(response.status).toBe(201);
  expect(response.headers.get('pragma')).toBeNull();
  expect(response.headers.get('cache-control')).toBe('no-store');
});

test('the login page sends the user to the platform auth URL with a code', async () => {
  const login = await fetch(`${partner.origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'minimal', password: 'sandbox-password' }),
  });
  expect(login.status).toBe(302);
  const target = new URL(login.headers.get('location')!);
  expect(`${target.origin}${target.pathname}`).toBe('http://127.0.0.1:4401/reference/auth');
  const response = await exchange({ grant_type: 'authorization_code', code: target.searchParams.get('code')!, ...credentials });
  const { access_token: token } = (await response.json()) as { access_token: string };
  const account = await fetch(`${partner.origin}/api/account`, { headers: { authorization: `Bearer ${token}` } });
  expect(await account.json()).toEqual(users.minimal.data().accountInfo);
});

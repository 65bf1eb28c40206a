import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { SignJWT } from 'jose';
import { mockLinkIssuer } from '../../sandbox/platform/jwt';
import { platformSandbox } from '../../sandbox/platform/server';
import { startPlatform } from '../support/sandbox';

/** The emulator over real loopback HTTP: bad input gets a 4xx with a JSON error, never a 5xx. */

let platform: Awaited<ReturnType<typeof startPlatform>>;
let now = Date.parse('2026-11-21T12:00:00Z');
test.beforeAll(async () => {
  platform = await startPlatform({ now: () => now });
  const configured = await put('/v1/emulator/partners/acme', config);
  expect(configured.status).toBe(200);
});
test.afterAll(() => platform.close());

const config = {
  tokenExchangeUrl: 'http://127.0.0.1:9/token',
  accountInfoUrl: 'http://127.0.0.1:9/account',
  collectMissingAccountInfo: false,
  tokenExchangeEncoding: 'form',
  requestTimeoutMs: 1000,
  hostOrigin: 'http://127.0.0.1:4402',
};
const accountInfo = { user: { id: 'u-1', email: 'a@example.com', firstName: 'Ada', lastName: 'Lovelace' }, company: { id: 'c-1', name: 'Acme' } };
const valid = () => ({ partnerName: 'acme', token: randomUUID(), externalUserId: 'u-1', externalOrgId: 'c-1', accountInfo });

const send = (method: string, path: string, body?: string, headers: Record<string, string> = { 'api-key': platformSandbox.apiKey }) =>
  fetch(`${platform.origin}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body }) });
const put = (path: string, body: unknown) => send('PUT', path, JSON.stringify(body));
const createLink = (body: unknown, headers?: Record<string, string>) =>
  send('POST', '/v1/auth/providers/standard/create-mock-link', typeof body === 'string' ? body : JSON.stringify(body), headers);

test('the mock link answers {link} whose token is a pinned-HS256 JWT with iss, aud, iat, a 10-minute exp and a jti', async () => {
  const response = await createLink(valid());
  expect(response.status).toBe(200);
  const { link } = (await response.json()) as { link: string };
  expect(link.startsWith(`${platform.origin}/acme/auth?token=`)).toBe(true);
  const [header, claims] = new URL(link).searchParams
    .get('token')!
    .split('.')
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
  expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
  expect(claims).toMatchObject({
    iss: mockLinkIssuer,
    aud: 'acme',
    iat: now / 1000,
    exp: now / 1000 + 600,
    accountInfo,
    externalUserId: 'u-1',
    externalOrgId: 'c-1',
  });
  expect(claims!.jti).toEqual(expect.any(String));
});

const refusals: [string, unknown, Record<string, string> | undefined, number, string][] = [
  ['no api-key', valid(), {}, 401, 'MISSING_API_KEY'],
  ['a wrong api-key', valid(), { 'api-key': 'nope' }, 401, 'INVALID_API_KEY'],
  ['broken JSON', '{"partnerName": ', undefined, 400, 'INVALID_JSON'],
  ['a JSON array', [], undefined, 400, 'body'],
  ['no token', { ...valid(), token: undefined }, undefined, 400, 'token'],
  ['no accountInfo.company', { ...valid(), accountInfo: { user: accountInfo.user } }, undefined, 400, 'accountInfo.company'],
  ['a token that is no UUID', { ...valid(), token: 'abc' }, undefined, 400, 'token'],
  ['an externalUserId unlike user.id', { ...valid(), externalUserId: 'u-2' }, undefined, 400, 'externalUserId'],
  ['an externalOrgId unlike company.id', { ...valid(), externalOrgId: 'c-2' }, undefined, 400, 'externalOrgId'],
  ['an unconfigured partner', { ...valid(), partnerName: 'nobody' }, undefined, 400, 'partnerName'],
];
for (const [what, body, headers, status, named] of refusals) {
  test(`a mock-link request with ${what} is refused with ${status}, naming ${named}`, async () => {
    const response = await createLink(body, headers);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(JSON.stringify(await response.json())).toContain(named);
  });
}

test('a partner configuration is validated field by field', async () => {
  const response = await put('/v1/emulator/partners/acme-2', { ...config, hostOrigin: 'http://127.0.0.1:4402/app' });
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ code: 'INVALID_CONFIGURATION', field: 'hostOrigin' });
});

test('the auth URL refuses a link signed for another partner, an unknown partner, and a request with both code and token', async () => {
  const key = new TextEncoder().encode(platformSandbox.mockLinkKey);
  const foreign = await new SignJWT({ accountInfo })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(mockLinkIssuer)
    .setAudience('other')
    .setIssuedAt(now / 1000)
    .setExpirationTime(now / 1000 + 60)
    .setJti(randomUUID())
    .sign(key);
  const screens = await Promise.all([
    fetch(`${platform.origin}/acme/auth?token=${foreign}`),
    fetch(`${platform.origin}/nobody/auth?code=x`),
    fetch(`${platform.origin}/acme/auth?code=x&token=y`),
  ]);
  expect(screens.map((r) => r.status)).toEqual([401, 404, 400]);
  const bodies = await Promise.all(screens.map((r) => r.text()));
  expect(bodies.map((body) => /data-screen="(\w+)"/.exec(body)?.[1])).toEqual(['error', 'error', 'error']);
  expect(bodies[0]).toContain('INVALID_MOCK_LINK');
  // The unknown partner has no host origin: nobody may frame the page, and no message is posted.
  expect(screens[1].headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(bodies[1]).not.toContain('postMessage');
});

test('a link expires after 10 minutes on the injected clock', async () => {
  const { link } = (await (await createLink(valid())).json()) as { link: string };
  now += 601_000;
  try {
    const body = await (await fetch(link)).text();
    expect(body).toContain('the link has expired');
  } finally {
    now -= 601_000;
  }
});

test('a partner that is unreachable on the code path is the error screen, not a 5xx', async () => {
  const response = await fetch(`${platform.origin}/acme/auth?code=abc`);
  expect(response.status).toBe(401);
  expect(await response.text()).toContain('TOKEN_EXCHANGE_FAILED');
});

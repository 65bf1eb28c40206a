import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { mockLinkIssuer } from '../../sandbox/platform/jwt';
import { platformSandbox } from '../../sandbox/platform/server';
import { startPlatform } from '../support/sandbox';

/**
 * The platform emulator under attack, over real loopback HTTP: forged and replayed links, Bearer header
 * variants, bad paging values, oversized, deeply nested and non-UTF-8 input, undocumented methods,
 * foreign postMessages; then 10,000+ generated requests. Every answer is a 4xx (JSON for the APIs, the
 * error screen for the browser-facing auth URL), never a 5xx, and the emulator still serves afterwards.
 */

let platform: Awaited<ReturnType<typeof startPlatform>>;
test.beforeAll(async () => {
  platform = await startPlatform();
  const configured = await send(
    'PUT',
    '/v1/emulator/partners/acme',
    JSON.stringify({
      tokenExchangeUrl: 'http://127.0.0.1:9/token',
      accountInfoUrl: 'http://127.0.0.1:9/account',
      tokenExchangeEncoding: 'json',
      requestTimeoutMs: 1000,
      hostOrigin: platform.hostOrigin,
      // The test user carries only the always-required fields: the collection screen asks for the rest.
      collectMissingAccountInfo: true,
    }),
  );
  expect(configured.status).toBe(200);
});
test.afterAll(() => platform.close());

const mockLinkPath = '/v1/auth/providers/standard/create-mock-link';
const send = (
  method: string,
  path: string,
  body?: string | Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = { 'api-key': platformSandbox.apiKey, 'content-type': 'application/json' },
) => fetch(`${platform.origin}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
const bearer = (token = platformSandbox.dataApiToken) => ({ authorization: `Bearer ${token}` });
const accountInfo = { user: { id: 'u-1', email: 'a@example.com', firstName: 'Ada', lastName: 'Lovelace' }, company: { id: 'c-1', name: 'Acme' } };
const validLink = () => ({ partnerName: 'acme', token: randomUUID(), externalUserId: 'u-1', externalOrgId: 'c-1', accountInfo });

/** A 4xx whose body is a JSON error `{code, message}`. */
async function expectJsonError(response: Response, what: string, status?: number) {
  const text = await response.text();
  expect(response.status, `${what}: ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(response.status, `${what}: ${text.slice(0, 200)}`).toBeLessThan(500);
  if (status) expect(response.status, what).toBe(status);
  expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
  expect(JSON.parse(text), what).toMatchObject({ code: expect.any(String), message: expect.any(String) });
}

test.describe('forged, expired and replayed mock links', () => {
  const key = new TextEncoder().encode(platformSandbox.mockLinkKey);
  const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({ accountInfo, externalUserId: 'u-1', externalOrgId: 'c-1', nonce: randomUUID() });
  const signed = (edit: (jwt: SignJWT) => SignJWT, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }) =>
    edit(
      new SignJWT(claims())
        .setProtectedHeader(header as { alg: string })
        .setIssuer(mockLinkIssuer)
        .setAudience('acme')
        .setIssuedAt()
        .setJti(randomUUID()),
    ).sign(key);
  const forgeries: [string, () => Promise<string>][] = [
    [
      'alg: none',
      async () =>
        `${segment({ alg: 'none', typ: 'JWT' })}.${segment({ ...claims(), iss: mockLinkIssuer, aud: 'acme', iat: now(), exp: now() + 600, jti: randomUUID() })}.`,
    ],
    ['HS512 with the right key (algorithm confusion)', () => signed((jwt) => jwt.setExpirationTime('10m'), { alg: 'HS512', typ: 'JWT' })],
    [
      'an RS256 header over an HMAC signature (algorithm confusion)',
      async () => {
        const [, payload, signature] = (await signed((jwt) => jwt.setExpirationTime('10m'))).split('.');
        return `${segment({ alg: 'RS256', typ: 'JWT' })}.${payload}.${signature}`;
      },
    ],
    ['expired', () => signed((jwt) => jwt.setIssuedAt(now() - 1200).setExpirationTime(now() - 600))],
    ['nbf in the future', () => signed((jwt) => jwt.setExpirationTime('10m').setNotBefore(now() + 300))],
    ['no exp', () => signed((jwt) => jwt)],
    ['another audience', () => signed((jwt) => jwt.setExpirationTime('10m').setAudience('someone-else'))],
    ['another issuer', () => signed((jwt) => jwt.setExpirationTime('10m').setIssuer('urn:evil'))],
    ['typ "at+jwt"', () => signed((jwt) => jwt.setExpirationTime('10m'), { alg: 'HS256', typ: 'at+jwt' })],
  ];
  for (const [what, forge] of forgeries) {
    test(`a link with ${what} gets the error screen with a 4xx`, async () => {
      const response = await send('GET', `/acme/auth?token=${await forge()}`);
      expect(response.status, what).toBeGreaterThanOrEqual(400);
      expect(response.status, what).toBeLessThan(500);
      expect(await response.text()).toContain('data-screen="error"');
    });
  }

  test('a link used twice gets the error screen the second time', async () => {
    const { link } = (await (await send('POST', mockLinkPath, JSON.stringify(validLink()))).json()) as { link: string };
    const path = new URL(link).pathname + new URL(link).search;
    expect((await send('GET', path)).status).toBe(200);
    const replay = await send('GET', path);
    expect(replay.status).toBe(401);
    expect(await replay.text()).toContain('data-screen="error"');
  });
});

test('Bearer header variants: only "Bearer <token>" (any case, any run of spaces) is let in', async () => {
  const url = '/v1/organizations';
  const accepted = ['Bearer ', 'bearer ', 'BEARER ', 'Bearer   '].map((scheme) => `${scheme}${platformSandbox.dataApiToken}`);
  for (const authorization of accepted) expect((await send('GET', url, undefined, { authorization })).status, authorization).toBe(200);
  const refused = [
    '',
    'Bearer',
    'Bearer ',
    `Basic ${platformSandbox.dataApiToken}`,
    `Bearer ${platformSandbox.dataApiToken} extra`,
    `Bearer "${platformSandbox.dataApiToken}"`,
    `${platformSandbox.dataApiToken}`,
    `Bearer ${platformSandbox.dataApiToken.toUpperCase()}`,
    'Bearer \u00ff',
  ];
  for (const authorization of refused)
    await expectJsonError(await send('GET', url, undefined, { authorization }), `Authorization: ${JSON.stringify(authorization)}`, 401);
  await expectJsonError(await send('GET', `${url}?access_token=${platformSandbox.dataApiToken}`, undefined, {}), 'a token in the query', 401);
});

test('paging values: limit 0, -1, 1e9, abc, a float or given twice, and an unknown or foreign after are 400', async () => {
  const organizations = ((await (await send('GET', '/v1/organizations', undefined, bearer())).json()) as { items: { id: string }[] }).items;
  const [first, second] = organizations;
  const foreignAfter = (
    (await (await send('GET', `/v1/bills?organizationId=${second!.id}&limit=1`, undefined, bearer())).json()) as { items: { id: string }[] }
  ).items[0]!.id;
  const bad = [
    'limit=0',
    'limit=-1',
    'limit=1e9',
    'limit=abc',
    'limit=1.5',
    'limit=10&limit=20',
    'limit=',
    `after=${randomUUID()}`,
    `after=${foreignAfter}`,
    'after=',
    'limit=%FF',
    'organizationId=%C3%28',
  ];
  for (const query of bad) await expectJsonError(await send('GET', `/v1/bills?organizationId=${first!.id}&${query}`, undefined, bearer()), query, 400);
});

test('oversized, deeply nested and non-UTF-8 bodies, and undocumented methods, are 4xx JSON errors', async () => {
  await expectJsonError(await send('POST', mockLinkPath, JSON.stringify({ ...validLink(), padding: 'x'.repeat(2 * 1024 * 1024) })), 'a 2 MiB body', 413);
  const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
  await expectJsonError(await send('POST', mockLinkPath, deep), 'JSON nested 100,000 deep');
  // Written out: JSON.stringify itself would overflow the stack on it.
  const nestedAccountInfo = JSON.stringify({ ...validLink(), accountInfo: { ...accountInfo, user: { ...accountInfo.user, extra: 'HERE' } } }).replace(
    '"HERE"',
    `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  );
  await expectJsonError(await send('POST', mockLinkPath, nestedAccountInfo), 'account information nested 50,000 deep');
  await expectJsonError(
    await send('POST', mockLinkPath, Uint8Array.from(Buffer.concat([Buffer.from('{"partnerName":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]))),
    'a body that is not UTF-8',
    400,
  );
  for (const method of ['DELETE', 'PATCH', 'PUT']) {
    await expectJsonError(await send(method, '/v1/bills', undefined, bearer()), `${method} /v1/bills`);
    await expectJsonError(await send(method, mockLinkPath), `${method} on the mock link`);
  }
  await expectJsonError(await rawGet('/v1/bills%FF?organizationId=%FF'), 'a path that is not UTF-8');
});

/** A request exactly as written, which fetch would normalise first. */
function rawGet(path: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const url = new URL(platform.origin);
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers: bearer() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode!, headers: res.headers as Record<string, string> })));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a postMessage from a foreign origin changes nothing on the screen and gets no answer', async ({ browser }) => {
  const { link } = (await (await send('POST', mockLinkPath, JSON.stringify(validLink()))).json()) as { link: string };
  const page = await browser.newPage();
  await page.goto(`${platform.hostOrigin}/?src=${encodeURIComponent(link)}`);
  const frame = page.frameLocator('#platform');
  await expect(frame.locator('main[data-screen="collect"]')).toBeVisible();
  const before = await frame.locator('main').innerHTML();
  const messagesBefore = await page.locator('#messages li').count();
  // The host page is another origin than the platform: a message it posts is a foreign one to the app.
  await page.evaluate(() => {
    const target = (document.getElementById('platform') as HTMLIFrameElement).contentWindow!;
    for (const data of [{ type: 'NAVIGATE', target: 'javascript:alert(1)' }, { type: 'AUTHENTICATION_ERROR' }, '<img src=x onerror=alert(1)>'])
      target.postMessage(data, '*');
  });
  await page.waitForTimeout(300);
  expect(await frame.locator('main').innerHTML()).toBe(before);
  expect(await page.locator('#messages li').count()).toBe(messagesBefore);
  await page.close();
});

test('10,000 generated requests to the mock link and the data API: no 5xx, and the emulator still serves', async () => {
  test.setTimeout(180_000);
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('', ' ', '%', '%FF', '../', '\u0000', 'null', '1e9', '-1', '0', '1.5', randomUUID()),
  );
  const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }));
  const mockLink = fc.record({
    kind: fc.constant('mock-link' as const),
    method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE'),
    apiKey: fc.oneof(fc.constant(platformSandbox.apiKey), text),
    contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', ''),
    body: fc.oneof(
      // The valid request with fields replaced, removed or added: closest to what reaches deep code.
      fc
        .dictionary(fc.constantFrom('partnerName', 'token', 'externalUserId', 'externalOrgId', 'accountInfo', 'extra', '__proto__', 'constructor'), value, {
          maxKeys: 3,
        })
        .map((edits) => JSON.stringify({ ...validLink(), ...edits })),
      fc.record({ user: fc.dictionary(text, value), company: fc.dictionary(text, value) }).map((info) => JSON.stringify({ ...validLink(), accountInfo: info })),
      fc.jsonValue().map((json) => JSON.stringify(json)),
      text,
    ),
  });
  const dataApi = fc.record({
    kind: fc.constant('data-api' as const),
    method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'DELETE'),
    path: fc.constantFrom('/v1/organizations', '/v1/bills', '/v1/payments', '/v1/vendors', '/v1/bills/', '/v1/unknown'),
    authorization: fc.oneof(
      fc.constant(`Bearer ${platformSandbox.dataApiToken}`),
      fc.constant(`bearer  ${platformSandbox.dataApiToken}`),
      text.map((t) => `Bearer ${t}`),
      text,
    ),
    query: fc.array(
      fc.tuple(
        fc.constantFrom('limit', 'after', 'ids', 'organizationId', 'x'),
        fc.oneof(text, fc.integer().map(String), fc.constantFrom('org-1', 'bill-00001', '100', '0')),
      ),
      { maxLength: 4 },
    ),
  });
  let requests = 0;
  const server5xx: string[] = [];
  await fc.assert(
    fc.asyncProperty(fc.oneof(mockLink, dataApi), async (generated) => {
      requests++;
      let response: Response;
      if (generated.kind === 'mock-link') {
        const headers: Record<string, string> = { 'api-key': generated.apiKey.replace(/[^\t\x20-\x7e]/g, '') };
        if (generated.contentType) headers['content-type'] = generated.contentType;
        response = await send(generated.method, mockLinkPath, generated.method === 'GET' ? undefined : generated.body, headers);
      } else {
        const query = new URLSearchParams(generated.query).toString();
        response = await send(generated.method, `${generated.path}?${query}`, undefined, {
          authorization: generated.authorization.replace(/[^\t\x20-\x7e]/g, ''),
        });
      }
      const body = await response.text();
      if (response.status >= 500) server5xx.push(`${response.status} ${JSON.stringify(generated).slice(0, 300)}: ${body.slice(0, 200)}`);
      return response.status < 500;
    }),
    { numRuns: 10_000, seed: Number(process.env.FC_SEED ?? 20261121), verbose: false },
  );
  expect(server5xx).toEqual([]);
  expect(requests).toBeGreaterThanOrEqual(10_000);
  // Still serving, correctly.
  expect((await send('POST', mockLinkPath, JSON.stringify(validLink()))).status).toBe(200);
  expect((await send('GET', '/v1/organizations', undefined, bearer())).status).toBe(200);
});

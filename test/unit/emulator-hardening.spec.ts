import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { SignJWT } from 'jose';
import { mockLinkIssuer } from '../../sandbox/platform/jwt';
import { platformSandbox } from '../../sandbox/platform/server';
import { accountInfo, bearer, emulatorUnderAttack, mockLinkPath, validLink } from '../support/emulator-under-attack';

/**
 * The platform emulator under attack, over real loopback HTTP: forged and replayed links, Bearer header
 * variants, bad paging values, oversized, deeply nested and non-UTF-8 input, undocumented methods,
 * foreign postMessages. Every answer is a 4xx (JSON for the APIs, the error screen for the browser-facing
 * auth URL), never a 5xx, and the emulator still serves afterwards. The 10,000+ generated requests are in
 * emulator-fuzz.spec.ts.
 */

const { platform, send } = emulatorUnderAttack();

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

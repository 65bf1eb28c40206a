import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { chromiumLaunchOptions } from '../../fixtures/browser';
import { browserOrigins, browserTrust } from '../../probes/browser-trust';
import { inBrowser } from '../../probes/browser-session';
import { httpClient } from '../../client/http';
import { platformOf, type BrowserProbeContext } from '../../probes/platform';
import type { Profile } from '../../profile/profile-schema';
import { referenceProfile } from '../support/profiles';

/**
 * An external platform's sandbox behind a private CA and HTTP authentication: the browser trusts exactly the
 * certificates the profile's "caFile" vouches for, and answers the platform's HTTP authentication, at the
 * platform's origin only.
 */

const tlsDir = path.resolve('test/support/tls');
const pem = (name: string) => readFileSync(path.join(tlsDir, `${name}.pem`), 'utf8');
const caFile = path.join(tlsDir, 'ca.pem');
const page = (_request: IncomingMessage, response: ServerResponse) =>
  response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>platform</title><main>signed in</main>');

const servers: Server[] = [];
async function listen(server: Server, scheme: 'http' | 'https'): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
test.afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

const platformAt = (origin: string, extra: Partial<NonNullable<Profile['platform']>> = {}): Profile => ({
  ...referenceProfile('http://127.0.0.1:9'),
  caFile,
  platform: { kind: 'external', url: origin, apiKey: 'k', partnerName: 'acme', hostPageUrl: 'http://127.0.0.1:4402/', ...extra },
});

test('a private CA given as "caFile": Chromium trusts it as a CA, and refuses what a CA would not vouch for', async ({ playwright }) => {
  const serve = (cert: string, key: string) => listen(createHttpsServer({ key: pem(key), cert: pem(cert) }, page), 'https');
  const valid = await serve('valid', 'valid-key');
  const refusedBy = {
    [await serve('wrong-host', 'wrong-host-key')]: /ERR_CERT_COMMON_NAME_INVALID/, // issued by the CA, for another name
    [await serve('self-signed', 'valid-key')]: /ERR_CERT_AUTHORITY_INVALID/, // the key of a trusted certificate, self-signed
    [await serve('expired', 'expired-key')]: /ERR_CERT_DATE_INVALID/,
  };
  const trust = await browserTrust(platformAt(valid));
  expect(trust.untrusted).toEqual([]);
  expect(trust.env?.HOME).toContain('partner-certify-browser-');
  for (const [env, opens] of [
    [trust.env, true],
    [undefined, false],
  ] as const) {
    const browser = await playwright.chromium.launch({ ...chromiumLaunchOptions(), ...(env ? { env } : {}) });
    try {
      const tab = await browser.newPage();
      const outcome = await tab.goto(valid).then(
        (response) => String(response?.status()),
        (error: Error) => error.message,
      );
      expect(outcome, `trusting ${env ? 'the CA' : 'nothing'}`).toMatch(opens ? /^200$/ : /ERR_CERT_AUTHORITY_INVALID/);
      // The browser checks name, chain and dates itself: trusting the CA vouches for no other certificate.
      if (opens)
        for (const [origin, error] of Object.entries(refusedBy))
          expect(
            await tab.goto(origin).then(
              () => 'opened',
              (e: Error) => e.message,
            ),
            origin,
          ).toMatch(error);
    } finally {
      await browser.close();
    }
  }
  // What the CA does not vouch for is named before any browser starts.
  const refused = await browserTrust(platformAt(Object.keys(refusedBy)[2]!));
  expect(refused).toEqual({ untrusted: [expect.stringContaining('certificate has expired')] });
});

test('the origins verified are every https origin the browser opens: the platform, the partner app and its login, the codes.browser login', () => {
  const profile: Profile = {
    ...platformAt('https://api.platform.example', {
      authUrl: 'https://app.platform.example/sso/{partnerName}?code={code}',
      appOrigins: ['https://app.platform.example'],
    }),
    codes: {
      browser: { authUrl: 'https://app.platform.example/sso/acme', timeoutMs: 10_000, steps: [{ goto: 'https://login.acme.example/start' }, { click: '#go' }] },
    },
    partnerApp: { page: 'https://app.acme.example/payments', login: [{ goto: 'https://id.acme.example/login' }] },
  };
  expect(browserOrigins(profile).sort()).toEqual([
    'https://api.platform.example',
    'https://app.acme.example',
    'https://app.platform.example',
    'https://id.acme.example',
    'https://login.acme.example',
  ]);
});

test("HTTP authentication is answered at the platform's origin only, and its credentials are learnt as secrets first", async ({ browser }) => {
  const seen: Record<string, (string | undefined)[]> = { platform: [], other: [] };
  const guarded = (name: string) => (request: IncomingMessage, response: ServerResponse) => {
    seen[name]!.push(request.headers.authorization);
    if (!request.headers.authorization) return response.writeHead(401, { 'www-authenticate': 'Basic realm="sandbox"' }).end();
    page(request, response);
  };
  const platform = await listen(createHttpServer(guarded('platform')), 'http');
  const other = await listen(createHttpServer(guarded('other')), 'http');
  const profile = platformAt(platform, { httpCredentials: { username: 'integration', password: 'sandbox-door-7Kq' } });
  const learnt: string[] = [];
  const ctx = {
    profile,
    http: httpClient({ timeoutMs: 5000 }),
    platform: platformOf(profile.platform!),
    browser,
    learn: (values: readonly string[]) => learnt.push(...values),
  } as unknown as BrowserProbeContext;
  const statuses: Record<string, string> = {};
  await inBrowser(ctx, 'http-credentials', async (session) => {
    const open = (url: string) =>
      session.page.goto(url).then(
        (response) => String(response?.status()),
        (error: Error) => error.message.split('\n')[0]!,
      );
    statuses.platform = await open(platform);
    statuses.other = await open(other);
    return [];
  });
  // Elsewhere the challenge is refused by the browser (a 401 or Chromium's own error), never answered.
  expect(statuses).toEqual({ platform: '200', other: expect.stringMatching(/^401$|ERR_INVALID_AUTH_CREDENTIALS/) });
  const basic = `Basic ${Buffer.from('integration:sandbox-door-7Kq').toString('base64')}`;
  expect(seen.platform).toContain(basic);
  expect(seen.other).toEqual([undefined]);
  expect(learnt).toEqual(expect.arrayContaining(['sandbox-door-7Kq', basic.slice('Basic '.length)]));
});

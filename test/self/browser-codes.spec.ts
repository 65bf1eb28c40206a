import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { chromiumLaunchOptions } from '../../fixtures/browser';
import { notPassing } from '../../checks/finding';
import type { BrowserCodes } from '../../profile/profile-schema';
import { browserCodes } from '../../probes/codes';
import { isSetupError, type SetupError } from '../../client/setup-error';
import { httpClient } from '../../client/http';
import { tokenExchangeProbes } from '../../probes/token-exchange';
import { probeRunner } from '../../probes/runner';
import { loginPassword } from '../../sandbox/reference-partner/server';
import { referenceProfile } from '../support/profiles';
import { startReferencePartner } from '../support/sandbox';

// The platform's auth URL is a real listener: the tests prove the captured navigation never reaches it.
let platformHits = 0;
const platform = createServer((_request, response) => {
  platformHits++;
  response.end('platform');
});
let authUrl: string;
let partner: Awaited<ReturnType<typeof startReferencePartner>>;

/**
 * Login flows as partners' apps build them, each ending at the auth URL with `code=zoo-<flow>`: a form
 * POST answered by a chain of 303, 302 and 307 redirects (the 307 re-posts the form), a meta refresh,
 * and `location.href` set by a script after the page loaded.
 */
let zoo: Server;
let zooOrigin: string;
const page = (body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Login</title></head><body>${body}</body></html>`;
const toPlatform = (flow: string) => `${authUrl}?code=zoo-${flow}&state=s1`;

test.beforeAll(async () => {
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  authUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}/reference/auth`;
  partner = await startReferencePartner({ platformAuthUrl: authUrl });
  zoo = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://zoo');
    const redirect = (status: number, location: string) => response.writeHead(status, { location }).end();
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(body));
    switch (`${request.method} ${url.pathname}`) {
      case 'GET /hops':
        return html('<form method="post" action="/hops/login"><input id="user" name="user"><button type="submit">Sign in</button></form>');
      case 'POST /hops/login':
        return redirect(303, '/hops/session');
      case 'GET /hops/session':
        return redirect(302, '/hops/consent');
      case 'GET /hops/consent':
        return html('<form method="post" action="/hops/consent"><button id="allow" type="submit">Allow</button></form>');
      case 'POST /hops/consent':
        return redirect(307, '/hops/resume');
      case 'POST /hops/resume':
        return redirect(303, toPlatform('hops'));
      case 'GET /meta-refresh':
        return html(`<p>Redirecting…</p><meta http-equiv="refresh" content="0;url=${toPlatform('meta')}">`);
      case 'GET /script':
        return html(
          `<button id="go">Continue</button><script>document.getElementById('go').onclick = () => setTimeout(() => { location.href = ${JSON.stringify(toPlatform('script'))}; }, 50);</script>`,
        );
      default:
        return html('<p>Not found</p>');
    }
  });
  await new Promise<void>((resolve) => zoo.listen(0, '127.0.0.1', resolve));
  zooOrigin = `http://127.0.0.1:${(zoo.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await partner.close();
  await new Promise<void>((resolve) => platform.close(() => resolve()));
  await new Promise<void>((resolve) => zoo.close(() => resolve()));
});

const login = (password: string, timeoutMs = 15_000): BrowserCodes => ({
  authUrl,
  timeoutMs,
  steps: [
    { goto: `${partner.origin}/login` },
    { fill: '#username', value: 'complete' },
    { fill: '#password', value: password },
    { click: 'button[type=submit]' },
  ],
});

test('the browser code source logs in, captures a working code at the auth URL, and never lets the navigation leave', async ({ playwright }) => {
  const codes = browserCodes(login(loginPassword), () => playwright.chromium.launch(chromiumLaunchOptions()));
  try {
    const [first, second] = [await codes.next(), await codes.next()];
    expect(first).not.toBe(second);
    expect(platformHits).toBe(0);
    // The captured code is real: the configured exchange certifies cleanly with it.
    const profile = referenceProfile(partner.origin);
    const handed = [second];
    const http = httpClient({ timeoutMs: 5000 });
    const handOut = { next: async () => handed.shift()! };
    const runner = probeRunner({ profile, http, codes: handOut, now: () => new Date('2026-06-01T12:00:00Z'), learn: () => undefined });
    const outcome = await runner.run(tokenExchangeProbes[0]!);
    if ('error' in outcome) throw new Error(outcome.error);
    expect(notPassing(outcome.result.findings)).toEqual([]);
  } finally {
    await codes.close?.();
  }
});

test('the code is captured after any number of hops: redirect chains after a form POST, a meta refresh, a script', async ({ playwright }) => {
  const flows: Record<string, BrowserCodes['steps']> = {
    hops: [{ goto: `${zooOrigin}/hops` }, { fill: '#user', value: 'ada' }, { click: 'button[type=submit]' }, { click: '#allow' }],
    meta: [{ goto: `${zooOrigin}/meta-refresh` }],
    script: [{ goto: `${zooOrigin}/script` }, { click: '#go' }],
  };
  const launch = () => playwright.chromium.launch(chromiumLaunchOptions());
  for (const [flow, steps] of Object.entries(flows)) {
    const codes = browserCodes({ authUrl, timeoutMs: 20_000, steps }, launch);
    try {
      const started = performance.now();
      expect(await codes.next(), flow).toBe(`zoo-${flow}`);
      // The address is kept whole, for sign-on to open as the app sent it.
      expect(codes.addressOf?.(`zoo-${flow}`), flow).toBe(toPlatform(flow));
      console.log(`${flow}: code captured ${Math.round(performance.now() - started)} ms after the first step (browser launch included)`);
    } finally {
      await codes.close?.();
    }
  }
  expect(platformHits).toBe(0);
});

test('a login that never reaches the auth URL is a clear set-up error', async ({ playwright }) => {
  const codes = browserCodes(login('wrong password', 2000), () => playwright.chromium.launch(chromiumLaunchOptions()));
  try {
    // Where it was when time ran out depends on the machine's load; that it says so does not.
    const error = await codes.next().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isSetupError(error, 'code-source')).toBe(true);
    expect((error as Error).message).toMatch(
      /^"codes\.browser": the app did not navigate to "authUrl" \(\S+\) within 2000 ms of the login steps; (all 4 steps ran|it was at step \d of 4 \(.*\))$/,
    );
    expect((error as Error).message).toContain(authUrl);
  } finally {
    await codes.close?.();
  }
});

test('a step that fails names the step, never its value, and keeps a screenshot of the page', async ({ playwright }) => {
  const steps: BrowserCodes['steps'] = [
    { goto: `${partner.origin}/login` },
    { fill: '#username', value: 'complete' },
    { fill: '#no-such-field', value: 'typed-secret-value' },
  ];
  const codes = browserCodes({ authUrl, timeoutMs: 5000, steps }, () => playwright.chromium.launch(chromiumLaunchOptions()));
  try {
    const error = await codes.next().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isSetupError(error, 'code-source')).toBe(true);
    const { message, screenshot } = error as SetupError;
    // Whichever comes first, the step's own timeout or the login's, the message names the step.
    expect(message).toMatch(
      /^"codes\.browser": (step 3 of 3 \(\{"fill": "#no-such-field"\}\) failed: page\.fill: Timeout 5000ms exceeded|the app did not navigate .* it was at step 3 of 3 \(\{"fill": "#no-such-field"\}\))/,
    );
    expect(message).not.toContain('typed-secret-value');
    expect(screenshot?.subarray(1, 4).toString()).toBe('PNG');
  } finally {
    await codes.close?.();
  }
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { chromiumLaunchOptions } from '../../fixtures/browser';
import { notPassing } from '../../checks/finding';
import type { BrowserCodes } from '../../partners/profile';
import { browserCodes, CodeSourceError } from '../../probes/codes';
import { httpClient } from '../../probes/http';
import { tokenExchangeProbes } from '../../probes/token-exchange';
import { loginPassword } from '../../sandbox/reference-partner/server';
import { referenceProfile } from '../support/profiles';
import { startReferencePartner } from '../support/sandbox';

// The platform's auth URL is a real listener: the test proves the captured navigation never reaches it.
let platformHits = 0;
const platform = createServer((_request, response) => {
  platformHits++;
  response.end('platform');
});
let authUrl: string;
let partner: Awaited<ReturnType<typeof startReferencePartner>>;

test.beforeAll(async () => {
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  authUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}/reference/auth`;
  partner = await startReferencePartner({ platformAuthUrl: authUrl });
});
test.afterAll(async () => {
  await partner.close();
  await new Promise<void>((resolve) => platform.close(() => resolve()));
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
    // The captured code is real: the JSON exchange probe certifies cleanly with it.
    const profile = referenceProfile(partner.origin);
    const handed = [second];
    const result = await tokenExchangeProbes[0]!.run({ profile, http: httpClient({ timeoutMs: 5000 }), codes: { next: async () => handed.shift()! } });
    expect(notPassing(result.findings)).toEqual([]);
  } finally {
    await codes.close?.();
  }
});

test('a login that never reaches the auth URL is a clear set-up error', async ({ playwright }) => {
  const codes = browserCodes(login('wrong password', 2000), () => playwright.chromium.launch(chromiumLaunchOptions()));
  try {
    await expect(codes.next()).rejects.toThrow(
      new CodeSourceError(`"codes.browser": the app did not navigate to "authUrl" (${authUrl}) within 2000 ms of the login steps`),
    );
  } finally {
    await codes.close?.();
  }
});

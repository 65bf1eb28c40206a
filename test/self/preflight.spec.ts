import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Certification } from '../../reports/certification';
import { endpointsOf, partnersDir, referenceProfile } from '../support/profiles';
import { runPlaywright } from '../support/run-playwright';

/**
 * A newcomer's mistakes stop the run before any test, each in one line naming the profile's field and the
 * fix, with exit code 2, within seconds: the preflight (fixtures/preflight.ts, probes/preflight.ts).
 */

const reference = endpointsOf(referenceProfile('http://127.0.0.1:4400'));
const platform = { url: 'http://127.0.0.1:4401', apiKey: 'reference-platform-api-key', partnerName: 'preflight-browser' };

async function stopped(profiles: Record<string, object>, env: Record<string, string> = {}) {
  const started = Date.now();
  const run = await runPlaywright(
    Object.keys(profiles).map((name) => `--project=${name}`),
    { PARTNERS_DIR: partnersDir(profiles), ...env },
  );
  const lines = run.stderr.split('\n').filter((line) => line.startsWith('preflight: '));
  return { run, lines, seconds: (Date.now() - started) / 1000 };
}

test('a partner server that is not running, a wrong path, a mint URL that mints nothing and a missing browser: one line each, exit 2, no test run', async () => {
  const { run, lines, seconds } = await stopped(
    {
      down: {
        ...reference,
        tokenExchangeUrl: 'http://127.0.0.1:9/oauth/token',
        accountInfoUrl: 'http://127.0.0.1:9/api/account',
        fundingSourcesUrl: undefined,
      },
      'wrong-path': { ...reference, accountInfoUrl: reference.accountInfoUrl.replace('/api/account', '/api/acount') },
      'no-mint': { ...reference, codes: { mintUrl: 'http://127.0.0.1:4400/no-such-hook' } },
      'no-browser': { ...reference, platform },
    },
    { CHROMIUM_PATH: '/nonexistent/chromium' },
  );
  console.log(`${lines.join('\n')}\n(stopped after ${seconds.toFixed(1)} s, the nested Playwright's start included)`);
  expect(run.code).toBe(2);
  expect(run.report).toBeUndefined();
  expect(lines).toHaveLength(5);
  expect(lines).toEqual(
    expect.arrayContaining([
      'preflight: down: "tokenExchangeUrl" (http://127.0.0.1:9/oauth/token): connection refused by 127.0.0.1:9; start the server, or correct "tokenExchangeUrl"',
      'preflight: down: "accountInfoUrl" (http://127.0.0.1:9/api/account): connection refused by 127.0.0.1:9; start the server, or correct "accountInfoUrl"',
      // The server's own words, quoted.
      expect.stringMatching(
        /^preflight: wrong-path: "accountInfoUrl" \(http:\/\/127\.0\.0\.1:4400\/api\/acount\) answered 404 to a request without a token \(".*no route GET \/api\/acount.*"\): no endpoint is there; check the path$/,
      ),
      expect.stringMatching(
        /^preflight: no-mint: "codes\.mintUrl" answered 404 .*; it should answer 200 with \{"code": "…"\}; check "codes\.mintUrl" and that the partner's test hook is deployed$/,
      ),
      'preflight: the browser suites need Chromium, and there is none at /nonexistent/chromium; set CHROMIUM_PATH to a Chromium that exists',
    ]),
  );
  expect(seconds).toBeLessThan(15);
  expect(existsSync(path.join(run.out, 'certification'))).toBe(false);
});

test('CERTIFY_NO_PREFLIGHT=1 skips it: the run goes on, and a wrong path is one failure, quoting the server and naming the fix', async () => {
  const { run, lines } = await stopped(
    { 'wrong-path': { ...reference, accountInfoUrl: reference.accountInfoUrl.replace('/api/account', '/api/acount') } },
    { CERTIFY_NO_PREFLIGHT: '1' },
  );
  expect(lines).toEqual([]);
  const cert = JSON.parse(readFileSync(path.join(run.out, 'certification', 'wrong-path', 'certification.json'), 'utf8')) as Certification;
  expect(cert.rules.filter((rule) => rule.outcome === 'failed').map((rule) => rule.id)).toEqual(['account-info/status']);
  expect(cert.findings.find((f) => f.rule === 'account-info/status' && f.outcome === 'failed')?.message).toMatch(
    /^"status" is 404 \(".*no route GET \/api\/acount.*"\): nothing is served at this URL; check the path in the profile/,
  );
  expect(JSON.stringify(cert.findings)).not.toContain('accept every token');
});

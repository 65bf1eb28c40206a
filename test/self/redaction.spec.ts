import { generateKeyPairSync, randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { platformSandbox } from '../../sandbox/platform/server';
import { endpointsOf, partnersDir, referenceProfile } from '../support/profiles';
import { startPlatform, startReferencePartner } from '../support/sandbox';
import { runPlaywright } from '../support/run-playwright';
import { leaksOf, textsUnder } from '../support/leaks';

// Each test is a whole certification with the browser and traces on: one after another, in one worker, so that
// three of them never load a 2-core machine at once (a login's fill then waited past its 10 s on a busy one).
test.describe.configure({ mode: 'default' });

// With the certification reporter first, as configured, and with Playwright's own reporters alone: every byte
// is masked at its source, in the workers, so no reporter stores one unmasked, whatever the command names.
for (const withCertificationReporter of [true, false])
  test(`no planted secret, in any form or as half of one, survives in any file of a run, in any zip or blob, or in its console (${withCertificationReporter ? 'the configured reporters' : "Playwright's reporters alone"})`, async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    // Planted: secrets holding the characters escapes are made of, and codes and tokens in the standard base64 alphabet.
    const clientSecret = `Pl4nted"Secret\\with+slash/and=${randomBytes(8).toString('hex')}`;
    const password = `pa"ss<wo&rd-${randomBytes(6).toString('hex')}`;
    const issued: string[] = [];
    const partner = await startReferencePartner({
      clientSecret,
      loginPassword: password,
      platformAuthUrl: 'http://127.0.0.1:4401/planted/auth',
      appAuthUrl: 'http://127.0.0.1:4401/planted/auth',
      opaque: () => {
        issued.push(`${randomBytes(9).toString('base64')}+/${issued.length}=${randomBytes(9).toString('base64')}`);
        return issued.at(-1)!;
      },
    });
    try {
      const profile = referenceProfile(partner.origin, ['echoes-secrets', 'personal-data-elsewhere'], { collectMissingAccountInfo: true });
      // The partner's own app is the host: its session cookie, an opaque value, is planted too.
      const platform = {
        url: 'http://127.0.0.1:4401',
        apiKey: 'env:PARTNER_PLANTED_API_KEY',
        partnerName: 'planted',
        hostOrigin: partner.origin,
        mockLinkKey: platformSandbox.mockLinkKey,
      };
      const endpoints = endpointsOf(profile);
      const gatewayKey = `gw-key-${randomBytes(8).toString('hex')}`;
      const gatewayPassword = `gw-pass-${randomBytes(8).toString('hex')}`;
      const withKey = (url: string) => `${url}${url.includes('?') ? '&' : '?'}api_key=${gatewayKey}`;
      const dir = partnersDir({
        planted: {
          ...endpoints,
          // A gateway key in the query string, given as env:, and a password in a URL's userinfo.
          tokenExchangeUrl: 'env:PARTNER_PLANTED_TOKEN_URL',
          accountInfoUrl: withKey(endpoints.accountInfoUrl),
          fundingSourcesUrl: endpoints.fundingSourcesUrl!.replace('http://', `http://gateway:${gatewayPassword}@`),
          clientSecret: 'env:PARTNER_PLANTED_CLIENT_SECRET',
          collectMissingAccountInfo: true,
          codes: {
            browser: {
              authUrl: 'http://127.0.0.1:4401/planted/auth',
              steps: [
                { goto: `${partner.origin}/login` },
                { fill: '#username', value: 'complete' },
                { fill: '#password', value: 'env:PARTNER_PLANTED_PASSWORD' },
                { click: 'button[type=submit]' },
              ],
            },
          },
          platform,
          // A fault of its own, so that its probe's trace is kept.
          partnerApp: {
            page: `${partner.origin}/faults/app-trusts-any-origin/app/payments`,
            login: [
              { goto: `${partner.origin}/faults/app-trusts-any-origin/app/login` },
              { fill: '#username', value: 'complete' },
              { fill: '#password', value: 'env:PARTNER_PLANTED_PASSWORD' },
              { click: 'button[type=submit]' },
            ],
            frame: 'iframe#payments',
            authError: '#sign-in-problem',
          },
          dataApi: { baseUrl: 'http://127.0.0.1:4401', token: 'env:PARTNER_PLANTED_DATA_API_TOKEN' },
        },
      });
      // The run's signing key, which signs the certificate and must be nowhere else.
      const signingKey = generateKeyPairSync('ed25519').privateKey;
      const signingPem = signingKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      // Traces for every test, every report Playwright can write, and the certification report.
      const run = await runPlaywright(
        ['--project=planted', '--trace=on'],
        {
          CERTIFY_SIGNING_KEY: signingPem,
          PARTNERS_DIR: dir,
          PARTNER_PLANTED_TOKEN_URL: withKey(endpoints.tokenExchangeUrl),
          PARTNER_PLANTED_CLIENT_SECRET: clientSecret,
          PARTNER_PLANTED_PASSWORD: password,
          PARTNER_PLANTED_API_KEY: platformSandbox.apiKey,
          PARTNER_PLANTED_DATA_API_TOKEN: platformSandbox.dataApiToken,
        },
        { reporters: ['list', 'certification', 'html', 'junit', 'blob'], certification: withCertificationReporter },
      );

      expect(issued.length, 'codes and tokens issued during the run').toBeGreaterThan(15);
      const texts = [...textsUnder(run.out), { file: 'stdout', text: run.stdout }, { file: 'stderr', text: run.stderr }];
      // The search is not vacuous: traces with the browser's traffic, every report, and masks were written.
      const files = texts.map((t) => t.file);
      expect(files.filter((file) => /trace\.zip!.*\.network$/.test(file)).length).toBeGreaterThan(5);
      expect(files.some((file) => file.endsWith(path.join('certification', 'planted', 'certification.html')))).toBe(true);
      expect(files.some((file) => /html-report.*index\.html!embedded\.zip!/.test(file))).toBe(true);
      expect(files.some((file) => /blob-report.*\.zip!report\.jsonl$/.test(file))).toBe(true);
      expect(files.some((file) => file.endsWith('junit.xml'))).toBe(true);
      // The HAR, the signature, the fleet overview and the history are searched too.
      for (const written of [
        path.join('planted', 'exchanges.har'),
        path.join('planted', 'certification.json.jws'),
        path.join('certification', 'index.json'),
        path.join('certification', 'index.html'),
      ])
        expect(
          files.some((file) => file.endsWith(written)),
          written,
        ).toBe(true);
      expect(files.some((file) => file.includes(path.join('history', 'planted', '')))).toBe(true);
      expect(texts.find((t) => t.file.endsWith('exchanges.har'))!.text).toContain('%5Bredacted%5D');
      expect(texts.some((t) => /trace\.zip!/.test(t.file) && t.text.includes('/planted/auth?'))).toBe(true);
      expect(texts.some((t) => /trace\.zip!/.test(t.file) && t.text.includes('[redacted]'))).toBe(true);
      // The leaking partner was really met: its echo was judged (a warning), and the report was written whole.
      const certification = JSON.parse(readFileSync(path.join(run.out, 'certification', 'planted', 'certification.json'), 'utf8')) as {
        findings: { rule: string; outcome: string; message: string }[];
      };
      expect(certification.findings.some((f) => f.outcome === 'warning' && f.message.includes('[redacted]'))).toBe(true);
      // The partner's app was driven (its fault found), so its session cookie and the codes it minted were issued.
      expect(certification.findings.filter((f) => f.rule === 'sign-on/partner-app/message-origin').map((f) => f.outcome)).toEqual(['failed']);

      const planted: Record<string, string> = {
        'client secret': clientSecret,
        'client_id:secret': `${profile.clientId}:${clientSecret}`,
        'typed password': password,
        'gateway key': gatewayKey,
        'gateway password': gatewayPassword,
        'api-key': platformSandbox.apiKey,
        'signing key': platformSandbox.mockLinkKey,
        'certificate signing key': signingPem,
        'certificate signing key, its base64': signingPem.replace(/-----[^-]+-----|\s/g, ''),
        'certificate signing key, its private part': signingKey.export({ format: 'jwk' }).d!,
        'data-API token': platformSandbox.dataApiToken,
        // the complete user's tax id and bank account numbers, and the leaking partner's
        'tax id': '12-3456789',
        'bank account number': '000123456789',
        'second bank account number': '000987654321',
        accountNumber: '000555666777',
        'bankAccountNumber.value': '000888999111',
        SSN: '078-05-1120',
        'EIN in company.name': '98-7654321',
        ...Object.fromEntries(issued.map((value, index) => [`code or token ${index}`, value])),
      };
      expect(leaksOf(planted, texts)).toEqual([]);
      expect(texts.filter(({ text }) => /eyJ[\w-]{10,}\.eyJ[\w-]{10,}/.test(text)).map((t) => `a JWT in ${t.file}`)).toEqual([]);

      // The partner's markup, in its evidence, is shown as text in Chromium, and none of it runs.
      const page = await browser.newPage();
      await page.goto(`file://${path.join(run.out, 'certification', 'planted', 'certification.html')}`);
      await expect(page.locator('#evidence')).toContainText('markup=<img src=x onerror=window.partnerMarkupRan=1><script>');
      expect(await page.evaluate(() => (window as { partnerMarkupRan?: number }).partnerMarkupRan)).toBeUndefined();
      expect(await page.locator('#evidence img, #evidence script').count()).toBe(0);
      await page.close();
    } finally {
      await partner.close();
    }
  });

test("a browser probe's own trace, kept where it failed, and every other file hold no lower-case password, letters-only cookie or framed code, in any form or fragment of 10", async () => {
  test.setTimeout(300_000);
  // Random lower-case letters: every fragment of them is a secret, though it reads as letters only (DESIGN §5).
  const letters = (length: number) => Array.from({ length }, () => String.fromCharCode(97 + randomInt(26))).join('');
  const password = letters(24);
  // Every code, token and app session id the partner makes: 15 letters. Named by who asked (the app's login, its page, or the API).
  const issued: { value: string; kind: string }[] = [];
  const fromApp = (frame = '') => /reference-partner[\\/]app\.ts/.test(frame);
  const platform = await startPlatform();
  const partner = await startReferencePartner({
    loginPassword: password,
    appAuthUrl: `${platform.origin}/planted-app/auth`,
    opaque: () => {
      const callers = (new Error().stack ?? '').split('\n').slice(2);
      issued.push({
        value: letters(15),
        kind: fromApp(callers[0]) ? 'session cookie' : callers.some((frame) => fromApp(frame)) ? 'code the app framed' : 'code or token',
      });
      return issued.at(-1)!.value;
    },
  });
  try {
    // The app's fault blocks the platform by CSP: its browser test fails, so the probe's own trace is kept.
    const app = `${partner.origin}/faults/app-csp-blocks-platform/app`;
    const dir = partnersDir({
      'planted-app': {
        ...endpointsOf(referenceProfile(partner.origin)),
        collectMissingAccountInfo: true,
        platform: {
          url: platform.origin,
          apiKey: platformSandbox.apiKey,
          partnerName: 'planted-app',
          hostOrigin: partner.origin,
          mockLinkKey: platformSandbox.mockLinkKey,
        },
        partnerApp: {
          page: `${app}/payments`,
          login: [
            { goto: `${app}/login` },
            { fill: '#username', value: 'complete' },
            { fill: '#password', value: 'env:PARTNER_PLANTED_APP_PASSWORD' },
            { click: 'button[type=submit]' },
          ],
          frame: 'iframe#payments',
          authError: '#sign-in-problem',
        },
      },
    });
    // Without --trace: the partner's project leaves Playwright's tracing off, and each browser probe traces its own context.
    const run = await runPlaywright(
      ['--project=planted-app'],
      { PARTNERS_DIR: dir, PARTNER_PLANTED_APP_PASSWORD: password },
      { reporters: ['list', 'certification', 'html', 'junit', 'blob'] },
    );

    const certification = JSON.parse(readFileSync(path.join(run.out, 'certification', 'planted-app', 'certification.json'), 'utf8')) as {
      findings: { rule: string; outcome: string }[];
    };
    expect(certification.findings.filter((f) => f.rule === 'sign-on/partner-app/csp').map((f) => f.outcome)).toEqual(['failed']);
    // Planted: the app signed the user in (a session), framed codes, and the API issued codes and tokens.
    for (const kind of ['session cookie', 'code the app framed', 'code or token'])
      expect(issued.filter((value) => value.kind === kind).length, kind).toBeGreaterThan(0);
    const texts = [...textsUnder(run.out), { file: 'stdout', text: run.stdout }, { file: 'stderr', text: run.stderr }];
    // The search is not vacuous: the kept trace is in the test output folder and in Playwright's report, with the typed password's step.
    const traces = texts.filter((t) => /\.zip!.*\.trace$/.test(t.file));
    expect(traces.filter((t) => t.file.includes(`${path.sep}test-results${path.sep}`) && t.text.includes('#password')).length).toBeGreaterThan(0);
    expect(traces.filter((t) => t.file.includes(`${path.sep}html-report${path.sep}`)).length).toBeGreaterThan(0);
    expect(texts.some((t) => /\.zip!.*\.network$/.test(t.file) && t.text.includes('reference_app_session'))).toBe(true);
    for (const folder of ['certification', 'test-results', 'html-report'])
      expect(
        texts.some((t) => t.file.startsWith(path.join(run.out, folder))),
        folder,
      ).toBe(true);

    const planted = { 'typed app password': password, ...Object.fromEntries(issued.map(({ value, kind }, index) => [`${kind} ${index}`, value])) };
    expect(leaksOf(planted, texts, { shortest: 10 })).toEqual([]);
  } finally {
    await Promise.all([partner.close(), platform.close()]);
  }
});

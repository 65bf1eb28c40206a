import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { unzipSync } from 'fflate';
import { runPlatformProbes, runProbes } from '../../probes/certification';
import { platformSandbox } from '../../sandbox/platform/server';
import { redact, secretsOf } from '../../reports/redact';
import { endpointsOf, partnersDir, referenceProfile } from '../support/profiles';
import { startPlatform, startReferencePartner } from '../support/sandbox';
import { runPlaywright } from '../support/run-playwright';

test('attached evidence carries no client secret, code, token, bank account number or tax id', async () => {
  const partner = await startReferencePartner();
  try {
    const profile = referenceProfile(partner.origin);
    const results = await runProbes(profile);
    const exchanges = results.flatMap((result) => result.exchanges);
    // Every secret the run handled, read back from the raw evidence itself.
    const planted = new Set<string>([profile.clientSecret!]);
    for (const { request, response } of exchanges) {
      const body = JSON.parse(response?.body || '{}') as Record<string, unknown>;
      for (const key of ['access_token', 'refresh_token']) if (typeof body[key] === 'string') planted.add(body[key]);
      const taxId = (body.company as { taxInfo?: { identifier?: string } } | undefined)?.taxInfo?.identifier;
      if (taxId) planted.add(taxId);
      for (const source of (body.fundingSources as { bankAccountNumber: string }[] | undefined) ?? []) planted.add(source.bankAccountNumber);
      const sent = request.headers['content-type'] === 'application/json' ? (JSON.parse(request.body!) as Record<string, string>) : Object.fromEntries(new URLSearchParams(request.body));
      if (sent.code && !sent.code.startsWith('certify-unknown-')) planted.add(sent.code);
    }
    expect(planted.size).toBeGreaterThan(10);
    for (const value of ['12-3456789', '000123456789', '000987654321']) expect(planted, value).toContain(value);
    const attached = redact(JSON.stringify(exchanges), secretsOf(exchanges, [profile.clientSecret]));
    for (const secret of planted) expect(attached, 'a secret survived redaction').not.toContain(secret);
    expect(attached).toContain('[redacted]');
    expect(attached).toContain('"status":200');
  } finally {
    await partner.close();
  }
});

test('the mock-link and browser evidence carries no api-key, mock-link JWT, tax id or bank account number', async ({ browser }) => {
  const [partner, platform] = await Promise.all([startReferencePartner(), startPlatform()]);
  try {
    const profile = { ...referenceProfile(partner.origin, [], { collectMissingAccountInfo: true }), platform: platform.block() };
    const exchanges = (await runPlatformProbes(profile, browser)).flatMap((result) => result.exchanges);
    const raw = JSON.stringify(exchanges);
    const jwt = /eyJ[\w-]+\.[\w-]+\.[\w-]*/;
    // Planted: the run really carried each of these before redaction.
    for (const value of [platformSandbox.apiKey, '12-3456789']) expect(raw).toContain(value);
    expect(raw).toMatch(jwt);
    const attached = redact(raw, secretsOf(exchanges, [profile.clientSecret]));
    for (const value of [platformSandbox.apiKey, '12-3456789', profile.clientSecret!]) expect(attached).not.toContain(value);
    expect(attached).not.toMatch(jwt);
    expect(attached).toContain('create-mock-link');
  } finally {
    await Promise.all([partner.close(), platform.close()]);
  }
});

/** Every text a folder holds: files as they are, and inside zips (traces) and base64 zips (Playwright's HTML report). */
function textsUnder(dir: string): { file: string; text: string }[] {
  const texts: { file: string; text: string }[] = [];
  const visit = (name: string, bytes: Uint8Array) => {
    if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
      for (const [entry, content] of Object.entries(unzipSync(bytes))) visit(`${name}!${entry}`, content);
      return;
    }
    const text = Buffer.from(bytes).toString('utf8');
    texts.push({ file: name, text });
    for (const [, base64] of text.matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g)) visit(`${name}!embedded.zip`, Buffer.from(base64!, 'base64'));
  };
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) visit(path.join(entry.parentPath, entry.name), readFileSync(path.join(entry.parentPath, entry.name)));
  }
  return texts;
}

test('no planted secret, token, code, api-key, JWT, bank account number or tax id survives in any file of a run, or in its console', async () => {
  test.setTimeout(300_000);
  // Planted: every code and token the partner issues, and its client secret, are values this test chose.
  const issued: string[] = [];
  const partner = await startReferencePartner({
    clientSecret: 'planted-client-secret-Vq8Zr2',
    opaque: () => {
      issued.push(`planted-${issued.length}-${randomBytes(6).toString('hex')}`);
      return issued.at(-1)!;
    },
  });
  try {
    const profile = referenceProfile(partner.origin, ['html-content-type'], { collectMissingAccountInfo: true });
    const platform = { url: 'http://127.0.0.1:4401', apiKey: 'env:PLANTED_API_KEY', partnerName: 'planted', mockLinkKey: platformSandbox.mockLinkKey };
    const dir = partnersDir({
      planted: {
        ...endpointsOf(profile),
        clientSecret: 'env:PLANTED_CLIENT_SECRET',
        collectMissingAccountInfo: true,
        platform,
        dataApi: { baseUrl: 'http://127.0.0.1:4401', token: 'env:PLANTED_DATA_API_TOKEN' },
      },
    });
    // Traces for every test (not only failing ones), Playwright's HTML report, and the certification report.
    const run = await runPlaywright(['--project=planted', '--trace=on'], {
      PARTNERS_DIR: dir,
      PLANTED_CLIENT_SECRET: 'planted-client-secret-Vq8Zr2',
      PLANTED_API_KEY: platformSandbox.apiKey,
      PLANTED_DATA_API_TOKEN: platformSandbox.dataApiToken,
    }, { reporters: ['list', 'certification', 'html'] });
    expect(run.report?.stats.unexpected, 'the html-content-type fault fails the token exchange tests').toBeGreaterThan(0);

    const planted = [
      'planted-client-secret-Vq8Zr2', platformSandbox.apiKey, platformSandbox.mockLinkKey, platformSandbox.dataApiToken,
      // the complete user's tax id and bank account numbers
      '12-3456789', '000123456789', '000987654321',
      ...issued,
    ];
    expect(issued.length, 'codes and tokens issued during the run').toBeGreaterThan(15);
    const texts = [...textsUnder(run.out), { file: 'stdout', text: run.stdout }, { file: 'stderr', text: run.stderr }];
    // The search is not vacuous: traces with the browser's traffic, both HTML reports, and masks were written.
    const files = texts.map((t) => t.file);
    expect(files.filter((file) => /trace\.zip!.*\.network$/.test(file)).length).toBeGreaterThan(5);
    expect(files.some((file) => file.endsWith(path.join('certification', 'planted', 'certification.html')))).toBe(true);
    expect(files.some((file) => /html-report.*index\.html!embedded\.zip!/.test(file))).toBe(true);
    expect(texts.some((t) => /trace\.zip!/.test(t.file) && t.text.includes('/planted/auth?'))).toBe(true);
    expect(texts.some((t) => /trace\.zip!/.test(t.file) && t.text.includes('[redacted]'))).toBe(true);
    const leaks = texts.flatMap(({ file, text }) => [
      ...planted.filter((secret) => text.includes(secret)).map((secret) => `${secret} in ${file}`),
      ...(/eyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]*/.test(text) ? [`a JWT in ${file}`] : []),
    ]);
    expect(leaks).toEqual([]);
  } finally {
    await partner.close();
  }
});

import { expect, test } from '@playwright/test';
import { runPlatformProbes, runProbes } from '../../probes/certification';
import { platformSandbox } from '../../sandbox/platform/server';
import { redact } from '../../redaction/redact';
import { secretsOf } from '../../redaction/secrets';
import { referenceProfile } from '../support/profiles';
import { startPlatform, startReferencePartner } from '../support/sandbox';

// The evidence probes attach, run and masked in this process; redaction.spec.ts searches every file of a whole run.
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
      const sent =
        request.headers['content-type'] === 'application/json'
          ? (JSON.parse(request.body!) as Record<string, string>)
          : Object.fromEntries(new URLSearchParams(request.body));
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

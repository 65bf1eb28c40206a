import { expect, test } from '@playwright/test';
import { runProbes } from '../../probes/certification';
import { redact, secretsOf } from '../../reports/redact';
import { referenceProfile } from '../support/profiles';
import { startReferencePartner } from '../support/sandbox';

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

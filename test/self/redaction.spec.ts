import { expect, test } from '@playwright/test';
import { runProbes } from '../../probes/certification';
import { tokenExchangeProbes } from '../../probes/token-exchange';
import { redact, secretsOf } from '../../reports/redact';
import { referenceProfile } from '../support/profiles';
import { startReferencePartner } from '../support/sandbox';

test('attached evidence carries no client secret, code, access or refresh token', async () => {
  const partner = await startReferencePartner();
  try {
    const profile = referenceProfile(partner.origin);
    const results = await runProbes(profile, tokenExchangeProbes);
    const exchanges = results.flatMap((result) => result.exchanges);
    // Every secret the run handled, read back from the raw evidence itself.
    const planted = new Set<string>([profile.clientSecret!]);
    for (const { request, response } of exchanges) {
      const body = JSON.parse(response?.body || '{}') as Record<string, unknown>;
      for (const key of ['access_token', 'refresh_token']) if (typeof body[key] === 'string') planted.add(body[key]);
      const sent = request.headers['content-type'] === 'application/json' ? (JSON.parse(request.body!) as Record<string, string>) : Object.fromEntries(new URLSearchParams(request.body));
      if (sent.code && !sent.code.startsWith('certify-unknown-')) planted.add(sent.code);
    }
    expect(planted.size).toBeGreaterThan(10);
    const attached = redact(JSON.stringify(exchanges), secretsOf(exchanges, [profile.clientSecret]));
    for (const secret of planted) expect(attached, 'a secret survived redaction').not.toContain(secret);
    expect(attached).toContain('[redacted]');
    expect(attached).toContain('"status":200');
  } finally {
    await partner.close();
  }
});

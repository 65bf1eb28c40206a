import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { notPassing, type Finding } from '../../checks/finding';
import { runProbes, certificationProbes } from '../../probes/certification';
import { accountInfoProbes } from '../../probes/resources';
import type { Profile } from '../../profile/profile-schema';
import { referenceProfile } from '../support/profiles';
import { startReferencePartner } from '../support/sandbox';

/**
 * The reference partner served over https:// with the test CA's certificates (test/support/tls/make.sh
 * writes them): a private CA given as "caFile" certifies; an untrusted issuer, an expired certificate, a
 * certificate for another host and TLS 1.1 are each refused before the request is sent, and named.
 */
const tlsDir = path.resolve('test/support/tls');
const pem = (name: string) => readFileSync(path.join(tlsDir, `${name}.pem`), 'utf8');
const served = (name: string, protocols: { minVersion?: 'TLSv1'; maxVersion?: 'TLSv1.1'; ciphers?: string } = {}) => ({
  key: pem(`${name}-key`),
  cert: pem(name),
  ...protocols,
});
const caFile = path.join(tlsDir, 'ca.pem');

const partners: Record<string, Awaited<ReturnType<typeof startReferencePartner>>> = {};
test.beforeAll(async () => {
  const started = await Promise.all([
    startReferencePartner({ https: served('valid') }),
    startReferencePartner({ https: served('expired') }),
    startReferencePartner({ https: served('wrong-host') }),
    // Node 20's OpenSSL still serves TLS 1.1 at security level 0.
    startReferencePartner({ https: served('valid', { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' }) }),
  ]);
  [partners.valid, partners.expired, partners.wrongHost, partners.tls11] = started;
});
test.afterAll(() => Promise.all(Object.values(partners).map((partner) => partner.close())));

const profileFor = (origin: string, extra: Partial<Profile> = {}): Profile => ({ ...referenceProfile(origin), ...extra });
const findingsOf = async (profile: Profile, probes = certificationProbes) => (await runProbes(profile, probes)).flatMap((result) => result.findings);
/** Probes that need no code: a bad certificate stops the code source too, and these still report. */
const codeless = accountInfoProbes.filter((probe) => probe.codes === 0);
const failures = (findings: Finding[]) => notPassing(findings).map((f) => `${f.rule}: ${f.message}`);

test('over https:// with a private CA given as "caFile", the reference partner certifies, and every TLS rule passed', async () => {
  const findings = await findingsOf(profileFor(partners.valid!.origin, { caFile, environment: 'production' }));
  expect(failures(findings)).toEqual([]);
  expect([...new Set(findings.filter((f) => f.rule.endsWith('/tls')).map((f) => `${f.rule}: ${f.outcome}`))].sort()).toEqual([
    'account-info/tls: passed',
    'funding-sources/tls: passed',
    'token-exchange/tls: passed',
  ]);
});

test('each TLS problem is refused before the request is sent, and named with its fix', async () => {
  const cases = [
    [
      profileFor(partners.valid!.origin),
      `is issued by "partner-certify test CA", which is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE); use a certificate from a public CA, send the intermediate certificates too, or give the private CA's certificate as "caFile" in the profile`,
    ],
    [profileFor(partners.expired!.origin, { caFile }), 'expired on 2020-12-31; renew it'],
    [profileFor(partners.wrongHost!.origin, { caFile }), 'is for DNS:partner.example, not for 127.0.0.1; reissue it with 127.0.0.1 among its names'],
    [profileFor(partners.tls11!.origin, { caFile }), 'negotiated TLSv1.1; serve TLS 1.2 or 1.3 (RFC 9325 §3.1.1: TLS 1.0 and 1.1 MUST NOT be used)'],
  ] as const;
  for (const [profile, problem] of cases) {
    const findings = await findingsOf(profile, codeless);
    const tls = findings.filter((f) => f.outcome === 'failed');
    // Both calls (no token, a made-up token) are refused at the handshake: one rule, each call named.
    expect([...new Set(tls.map((f) => f.rule))], problem).toEqual(['account-info/tls']);
    expect(tls[0]!.message).toContain(problem);
    expect(tls[0]!.message).toMatch(/^"accountInfoUrl": (the certificate of )?127\.0\.0\.1 /);
  }
});

test('a production profile sends nothing over plain http://', async () => {
  const partner = await startReferencePartner();
  try {
    const findings = await findingsOf(profileFor(partner.origin, { environment: 'production' }), codeless);
    expect([...new Set(failures(findings))]).toEqual([
      expect.stringMatching(
        /^account-info\/tls: "accountInfoUrl": 127\.0\.0\.1:\d+ is called over plain http:\/\/ in a production profile, so the request \(and any code, token or secret in it\) was not sent; serve it over https:\/\/$/,
      ),
    ]);
    const stats = (await (await fetch(`${partner.origin}/test-hooks/stats`)).json()) as { requests: number };
    expect(stats.requests).toBe(0);
  } finally {
    await partner.close();
  }
});

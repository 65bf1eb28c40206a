import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Certification } from '../../reports/certification';
import { overviewSchema } from '../../reports/fleet-overview';
import { leaksOf, textsUnder } from '../support/leaks';
import { partnersDir } from '../support/profiles';
import { runPlaywright, type NestedRun } from '../support/run-playwright';
import { startReferencePartner } from '../support/sandbox';
import { blobOf, certificationOf, keyFile, merge, profileOf, publicPem, signing, verify } from '../support/signed-runs';
import { tempDir } from '../support/temp';

/**
 * The red team's attacks on the certification program (earned-certificate.spec.ts) through what a run
 * stores: a partner's secrets in any artifact, and one partner's values masking another's report.
 */

test.describe('4. secrets never leak', () => {
  test.describe.configure({ mode: 'serial' });
  // 20 characters with a backslash: half of it, split off into a field of its own, is 10 characters.
  const clientSecret = `s3\\cr-${randomBytes(4).toString('hex')}-2026x`;
  const keys = { amz: randomBytes(16).toString('hex'), access: `tok-${randomBytes(8).toString('hex')}`, api: randomBytes(10).toString('base64url') };
  const issued: string[] = [];
  const seen = { texts: [] as { file: string; text: string }[], cert: undefined as unknown as Certification, har: '', tokenUrl: '' };

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const partner = await startReferencePartner({
      clientSecret,
      opaque: () => {
        issued.push(randomBytes(18).toString('base64url'));
        return issued.at(-1)!;
      },
    });
    try {
      const keyed = (url: string) => `${url}?X-Amz-Signature=${keys.amz}&access-token=${keys.access}&apiToken=${keys.api}`;
      const endpoints = profileOf(['echoes-secrets', 'echoes-issued-tokens'], partner.origin);
      const dir = partnersDir({
        leaky: { ...endpoints, tokenExchangeUrl: keyed(endpoints.tokenExchangeUrl), accountInfoUrl: keyed(endpoints.accountInfoUrl), clientSecret },
      });
      const run = await runPlaywright(['--project=leaky'], signing(dir), { reporters: ['certification', 'html', 'blob'] });
      const merged = merge([blobOf(run)], signing(dir));
      seen.cert = certificationOf(run, 'leaky');
      seen.har = readFileSync(path.join(run.out, 'certification', 'leaky', 'exchanges.har'), 'utf8');
      seen.tokenUrl = endpoints.tokenExchangeUrl;
      seen.texts = [
        ...textsUnder(run.out),
        ...textsUnder(merged.out),
        { file: 'stdout', text: run.stdout + merged.stdout },
        { file: 'stderr', text: run.stderr + merged.stderr },
      ];
    } finally {
      await partner.close();
    }
  });

  test("the worker's own exchange: its code and token, echoed by every later refusal, are in no artifact, blob or merged report", () => {
    // The worker's token is the first issued: every refusal sent after the worker's exchange lists it.
    expect(seen.har).toMatch(/issued so far: \[redacted\]/);
    expect(issued.length).toBeGreaterThan(15);
    expect(leaksOf(Object.fromEntries(issued.map((value, index) => [`code or token ${index}`, value])), seen.texts)).toEqual([]);
  });

  test('keys typed into profile URLs, under names no mask knows, are in no artifact; the address is shown', () => {
    expect(seen.cert.run.targets['token exchange']).toBe(`${seen.tokenUrl}?X-Amz-Signature=[redacted]&access-token=[redacted]&apiToken=[redacted]`);
    expect(leaksOf({ 'X-Amz-Signature': keys.amz, 'access-token': keys.access, apiToken: keys.api }, seen.texts)).toEqual([]);
  });

  test('a client secret echoed split across two JSON fields leaves no half of it, HTML-escaped or not', () => {
    expect(seen.cert.findings.some((f) => f.rule === 'token-exchange/no-echoed-credentials' && f.outcome === 'failed')).toBe(true);
    expect(
      leaksOf(
        { 'client secret': clientSecret, 'first half of the secret': clientSecret.slice(0, 10), 'second half of the secret': clientSecret.slice(10) },
        seen.texts,
      ),
    ).toEqual([]);
  });
});

test.describe('5. masking never crosses partners', () => {
  test.describe.configure({ mode: 'serial' });
  const attacks = { 'a-verdict': 'NOT CERTIFIED', 'a-structure': '"request": {', 'a-name': 'victim-co' };
  const seen = { out: '', history: '', run: undefined as unknown as NestedRun };

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const attackers = await Promise.all(Object.values(attacks).map((refresh) => startReferencePartner({ refreshToken: () => refresh })));
    try {
      const dir = partnersDir({
        'victim-co': profileOf([]),
        ...Object.fromEntries(Object.keys(attacks).map((name, i) => [name, profileOf([], attackers[i]!.origin)])),
      });
      seen.history = tempDir('history-');
      seen.run = await runPlaywright(
        ['--project=victim-co', ...Object.keys(attacks).map((name) => `--project=${name}`)],
        signing(dir, { CERTIFY_HISTORY_DIR: seen.history }),
        { reporters: ['certification'] },
      );
      seen.out = path.join(seen.run.out, 'certification');
    } finally {
      await Promise.all(attackers.map((partner) => partner.close()));
    }
    // Each attacker's own report is whole too: its value is masked in its evidence, as data.
    for (const name of Object.keys(attacks)) {
      const own = certificationOf(seen.run, name);
      expect(own.verdict, `${name}: ${own.summary}`).toBe('CERTIFIED');
      expect(() => JSON.parse(readFileSync(path.join(seen.out, name, 'exchanges.har'), 'utf8')) as unknown).not.toThrow();
    }
  });

  test('a refresh token reading "NOT CERTIFIED" masks nothing of another partner\'s verdict, banner or overview', () => {
    const victim = certificationOf(seen.run, 'victim-co');
    expect(victim.verdict).toBe('CERTIFIED');
    expect(victim.summary).toMatch(/^CERTIFIED: \d+ of \d+ rules passed/);
    expect(readFileSync(path.join(seen.out, 'victim-co', 'certification.html'), 'utf8')).toMatch(
      /<div class="banner certified" id="verdict" data-verdict="CERTIFIED">\s*<strong>CERTIFIED<\/strong>/,
    );
    const overview = overviewSchema.parse(JSON.parse(readFileSync(path.join(seen.out, 'index.json'), 'utf8')));
    expect(overview.partners.find((p) => p.partner === 'victim-co')?.verdict).toBe('CERTIFIED');
    expect(readFileSync(path.join(seen.out, 'index.html'), 'utf8')).not.toContain('[redacted]');
    expect(verify(path.join(seen.out, 'victim-co', 'certification.json'), ['--key', keyFile(publicPem)]).status).toBe(0);
  });

  test("a refresh token reading '\"request\": {' empties no other partner's HAR or evidence", () => {
    const victim = certificationOf(seen.run, 'victim-co');
    const har = JSON.parse(readFileSync(path.join(seen.out, 'victim-co', 'exchanges.har'), 'utf8')) as { log: { entries: { request: { method: string } }[] } };
    expect(har.log.entries.length).toBe(victim.latency.reduce((sum, row) => sum + row.requests, 0));
    expect(har.log.entries.every((entry) => entry.request.method.length > 0)).toBe(true);
  });

  test("a refresh token reading another partner's name files that partner's run under its own name", () => {
    expect(readdirSync(seen.history).sort()).toEqual([...Object.keys(attacks), 'victim-co'].sort());
    expect(readdirSync(path.join(seen.history, 'victim-co'))).toHaveLength(1);
  });
});

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { partnersDir } from '../support/profiles';
import { runPlaywright, type NestedRun } from '../support/run-playwright';
import { certificationOf, profileOf, signing, signingPem } from '../support/signed-runs';

/**
 * The red team's attacks on the certification program (earned-certificate.spec.ts) through what a run
 * reads: a profile reaching for the harness's own variables or another partner's name, and waivers.
 */

test.describe('1. a profile reads only what is its own', () => {
  test('env:CERTIFY_SIGNING_KEY stops the run before any test, and not a byte reaches the partner', async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests++;
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const dir = partnersDir({
        thief: {
          tokenExchangeUrl: `${origin}/token`,
          accountInfoUrl: `${origin}/account`,
          tokenExchangeEncoding: 'form',
          clientSecret: 'env:CERTIFY_SIGNING_KEY',
          codes: { mintUrl: `${origin}/codes` },
        },
      });
      const run = await runPlaywright(['--project=thief'], signing(dir), { reporters: ['certification'] });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        '"clientSecret" reads env:CERTIFY_SIGNING_KEY, which is one of the harness\'s own variables (CERTIFY_…), which no profile may read',
      );
      expect(requests).toBe(0);
      expect(existsSync(path.join(run.out, 'certification'))).toBe(false);
      expect(run.stdout + run.stderr).not.toContain(signingPem.split('\n')[1]!);
    } finally {
      server.close();
    }
  });
});

test.describe('7. profiles', () => {
  test('one partner name on one platform written as 127.0.0.1 and as localhost is refused, naming both files', async () => {
    const platform = (url: string) => ({ ...profileOf([]), platform: { url, apiKey: 'reference-platform-api-key', partnerName: 'twin' } });
    const run = await runPlaywright(
      ['--project=one', '--project=two'],
      signing(partnersDir({ one: platform('http://127.0.0.1:4401'), two: platform('http://localhost:4401') })),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/two\.json: "platform\.partnerName" is "twin", as in .*one\.json on the same platform/);
  });

  test('a URL read from env: is shown in the certificate, its query values masked', async () => {
    test.setTimeout(120_000);
    const gateway = randomBytes(12).toString('hex');
    const endpoints = profileOf([]);
    const dir = partnersDir({ gated: { ...endpoints, accountInfoUrl: 'env:PARTNER_GATED_ACCOUNT_URL' } });
    const run = await runPlaywright(
      ['--project=gated', 'suites/account-info.spec.ts'],
      signing(dir, { PARTNER_GATED_ACCOUNT_URL: `${endpoints.accountInfoUrl}?gateway-key=${gateway}` }),
      { reporters: ['certification'] },
    );
    const cert = certificationOf(run, 'gated');
    expect(cert.run.targets['account information']).toBe(`${endpoints.accountInfoUrl}?gateway-key=[redacted]`);
    expect(readFileSync(path.join(run.out, 'certification', 'gated', 'certification.json'), 'utf8')).not.toContain(gateway);
  });

  test('a profile name of 250 characters is one line naming the limit, never a file-system error', async () => {
    const name = 'p'.repeat(250);
    const run = await runPlaywright([`--project=${name}`], signing(partnersDir({ [name]: profileOf([]) })));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the file name has 250 characters before ".json"; the project name is part of the report\'s folder names, so keep it to 64');
    expect(run.stdout + run.stderr).not.toContain('ENAMETOOLONG');
  });
});

test.describe('8. waivers are bounded and visible', () => {
  const waiversOf = (dir: string, partner: string, waivers: object[]) => writeFileSync(path.join(dir, `${partner}.waivers.json`), JSON.stringify({ waivers }));
  const soon = () => new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  const lastNameRule = 'account-info/user.lastName/pattern';
  const terms = { rule: lastNameRule, reason: 'the platform accepts apostrophes since release 7.2', approvedBy: 'Dana Ruiz, platform integration' };
  const refused = async (waivers: object[]) => {
    const dir = partnersDir({ bravo: profileOf(['apostrophe-last-name']) });
    waiversOf(dir, 'bravo', waivers);
    return runPlaywright(['--project=bravo'], signing(dir));
  };

  test('an expiry of 9999-12-31 is refused before any test, naming the last day allowed', async () => {
    const run = await refused([{ ...terms, expires: '9999-12-31' }]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /bravo\.waivers\.json: "waivers\.0\.expires" is 9999-12-31, more than 180 days ahead; a waiver is reviewed at least every 180 days: give \d{4}-\d\d-\d\d or earlier/,
    );
  });

  test('an approver written as a zero-width space is refused', async () => {
    const run = await refused([{ ...terms, approvedBy: '\u200b', expires: soon() }]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"waivers.0.approvedBy" holds invisible characters (U+200B); write it in plain letters');
  });

  test('malformed dates are one line each, naming the file and the field, never a stack trace', async () => {
    const run = await refused(['2027-13-45', '0000-00-00', '31/12/2027'].map((expires) => ({ ...terms, expires })));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'bravo.waivers.json: "waivers.0.expires" is not a calendar date ("2027-13-45"); write a real day, YYYY-MM-DD, such as "2027-03-31"',
    );
    expect(run.stderr).toContain('bravo.waivers.json: "waivers.1.expires" is not a calendar date ("0000-00-00")');
    expect(run.stderr).toContain('bravo.waivers.json: "waivers.2.expires" must be a date written YYYY-MM-DD');
    expect(run.stderr).not.toContain('RangeError');
  });

  test('no waiver for a rule whose failure lets someone else in', async () => {
    const run = await refused([{ ...terms, rule: 'token-exchange/no-token-without-credentials', expires: soon() }]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"waivers.0.rule" is token-exchange/no-token-without-credentials, which cannot be waived');
  });

  const both = { run: undefined as unknown as NestedRun };
  const apostropheRun = async () => {
    if (both.run) return both.run;
    const dir = partnersDir({ bravo: profileOf(['apostrophe-last-name']), mallory: profileOf(['markup-last-name']) });
    const waiver = { ...terms, message: '"user.lastName" is "O\'Brien";*', expires: soon() };
    for (const partner of ['bravo', 'mallory']) waiversOf(dir, partner, [waiver]);
    return (both.run = await runPlaywright(['--project=bravo', '--project=mallory'], signing(dir), { reporters: ['certification'] }));
  };

  test.describe(() => {
    test.describe.configure({ mode: 'serial' });
    test("the README's apostrophe waiver covers O'Brien, never O'Brien<script>…: its message matches whole", async () => {
      test.setTimeout(120_000);
      const run = await apostropheRun();
      const mallory = certificationOf(run, 'mallory');
      expect(mallory.verdict).toBe('NOT CERTIFIED');
      expect(mallory.rules.find((rule) => rule.id === lastNameRule)?.outcome).toBe('failed');
      expect(mallory.waivers[0]?.status).toBe('stale');
      expect(certificationOf(run, 'bravo').rules.find((rule) => rule.id === lastNameRule)?.outcome).toBe('waived');
    });

    test('a waived run\'s banner says "CERTIFIED with 1 waiver", in its own colour', async () => {
      test.setTimeout(120_000);
      const run = await apostropheRun();
      expect(certificationOf(run, 'bravo').summary).toMatch(/^CERTIFIED with 1 waiver: /);
      const html = readFileSync(path.join(run.out, 'certification', 'bravo', 'certification.html'), 'utf8');
      expect(html).toMatch(/<div class="banner certified-waived" id="verdict" data-verdict="CERTIFIED">\s*<strong>CERTIFIED with 1 waiver<\/strong>/);
      expect(html).toContain('.banner.certified-waived{background:var(--waive)}');
    });
  });
});

import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { buildCertification } from '../../reports/certification';
import { signDetached, signingKeyFrom } from '../../reports/signing';
import { keptOutcome } from '../../run/outcome';
import { runDirVariable } from '../../run/run-dir';
import { everyRuleJudged, runInfo } from '../support/certifications';
import { partnersDir } from '../support/profiles';
import { runPlaywright, type NestedRun } from '../support/run-playwright';
import { startReferencePartner } from '../support/sandbox';
import { blobOf, certificationIn, certificationOf, keyFile, merge, profileOf, publicPem, signing, verify } from '../support/signed-runs';
import { tempDir } from '../support/temp';

/**
 * A certificate that can only be earned. The attacks of an independent red team on the certification
 * program, each replayed as it broke it: as a partner who wants a certificate it has not earned, and as
 * a careless operator. Each that produced a (signed) CERTIFIED now produces INCOMPLETE or NOT CERTIFIED,
 * or is refused before any test; a genuine certificate still verifies with the trusted key. Here, what a
 * verdict and a signature stand for; what a run reads and what it stores: earned-certificate-profiles-and-waivers.spec.ts
 * and earned-certificate-secrets.spec.ts.
 */

/** A partner that fails a MUST in a full run: it issues a token for "grant_type=password" without credentials. */
const failsAMust = profileOf(['grants-without-credentials']);
const grantsTest = 'other grant types are refused, and none yields a token without client credentials';

test.describe('2. CERTIFIED only for a whole run of the partner', () => {
  test.describe.configure({ mode: 'serial' });
  const today = { dir: '', shards: [] as NestedRun[] };
  const yesterday = { shards: [] as NestedRun[] };
  /** The shard of a run that ran the grants test, and the other one. */
  const split = (shards: readonly NestedRun[]) => {
    const ranGrants = shards.find((shard) => certificationOf(shard, 'delta').tests.some((t) => t.title === grantsTest && t.status !== 'not-run'))!;
    return { withGrants: ranGrants, without: shards.find((shard) => shard !== ranGrants)! };
  };

  test("one shard's blob merged while the other never arrived: INCOMPLETE, naming the missing shard", async () => {
    test.setTimeout(180_000);
    // Today the partner fails a MUST; yesterday, under the same name, it did not.
    today.dir = partnersDir({ delta: failsAMust });
    const yesterdayDir = partnersDir({ delta: profileOf([]) });
    const shardsOf = (dir: string, id: string) =>
      [1, 2].map((n) => runPlaywright(['--project=delta', `--shard=${n}/2`], signing(dir, { CERTIFY_RUN_ID: id }), { reporters: ['certification', 'blob'] }));
    [today.shards, yesterday.shards] = await Promise.all([Promise.all(shardsOf(today.dir, 'ci-today')), Promise.all(shardsOf(yesterdayDir, 'ci-yesterday'))]);
    const { without } = split(today.shards);
    expect(certificationOf(without, 'delta').counts.failed).toBe(0);
    const merged = merge([blobOf(without)], signing(today.dir));
    expect(existsSync(path.join(merged.out, 'delta', 'certification.json')), `${merged.stdout}\n${merged.stderr}`).toBe(true);
    const cert = certificationIn(merged.out, 'delta');
    expect(cert.verdict, cert.summary).toBe('INCOMPLETE');
    expect(cert.incomplete).toEqual(
      expect.arrayContaining([expect.stringMatching(/^shard \d of 2 is missing from the merge; gather every shard's blob report$/)]),
    );
    expect(merged.status).toBe(1);
    // Signed as what it is, and the signature is genuine: verify accepts it with the trusted key.
    const verified = verify(path.join(merged.out, 'delta', 'certification.json'), ['--key', keyFile(publicPem)]);
    expect(verified.status, verified.stdout).toBe(0);
    expect(verified.stdout).toContain('verdict:   INCOMPLETE: ');
  });

  test("an older run's passing shard merged with today's other shard: INCOMPLETE, two runs, dated by the tests", async () => {
    const before = Date.now();
    const merged = merge([blobOf(split(yesterday.shards).withGrants), blobOf(split(today.shards).without)], signing(today.dir));
    const cert = certificationIn(merged.out, 'delta');
    expect(cert.verdict, cert.summary).toBe('INCOMPLETE');
    expect(cert.incomplete[0]).toBe(
      'the results come from 2 different runs (ci-today, ci-yesterday); merge only the blobs of one run, whose shards all ran with one CERTIFY_RUN_ID',
    );
    expect(Date.parse(cert.run.finishedAt)).toBeLessThan(before);
  });

  test('the merged blob of a run that ran one test (-g): PARTIAL, never CERTIFIED', async () => {
    test.setTimeout(120_000);
    const dir = partnersDir({ delta: failsAMust });
    const run = await runPlaywright(['--project=delta', '-g', 'unknown code'], signing(dir), { reporters: ['certification', 'blob'] });
    expect(certificationOf(run, 'delta').verdict).toBe('PARTIAL');
    const merged = merge([blobOf(run)], signing(dir));
    const cert = certificationIn(merged.out, 'delta');
    expect(cert.verdict, cert.summary).toBe('PARTIAL');
    expect(cert.partial?.leftOut).toContain(grantsTest);
  });

  test('-G (grep-invert) and a value attached to -g leave tests out: PARTIAL, found by what ran, not by the options', async () => {
    test.setTimeout(120_000);
    const dir = partnersDir({ delta: failsAMust });
    const runs = await Promise.all(
      [['-G', 'other grant types'], ['-g^(?!.*other grant types)']].map((options) =>
        runPlaywright(['--project=delta', ...options], signing(dir), { reporters: ['certification'] }),
      ),
    );
    for (const run of runs) {
      const cert = certificationOf(run, 'delta');
      expect(cert.verdict, cert.summary).toBe('PARTIAL');
      expect(cert.partial?.leftOut).toEqual([grantsTest]);
      expect(run.code).toBe(0);
    }
  });

  test('--retries=2 against a partner that takes a made-up code once: NOT CERTIFIED, with the failed attempt in the report', async () => {
    test.setTimeout(120_000);
    // A partner of this test's own: its "once" is not spent by another test.
    const partner = await startReferencePartner();
    try {
      const dir = partnersDir({ delta: profileOf(['accepts-unknown-code-once'], partner.origin) });
      const run = await runPlaywright(['--project=delta', '--retries=2'], signing(dir), { reporters: ['certification'] });
      const cert = certificationOf(run, 'delta');
      expect(cert.verdict, cert.summary).toBe('NOT CERTIFIED');
      expect(cert.rules.find((rule) => rule.id === 'token-exchange/unknown-code-rejected')?.outcome).toBe('failed');
      const retried = cert.tests.find((t) => t.probe === 'token-exchange/unknown-code')!;
      expect(retried).toMatchObject({ status: 'passed', attempts: 2, earlierAttempts: [{ status: 'failed' }] });
      expect(readFileSync(path.join(run.out, 'certification', 'delta', 'certification.html'), 'utf8')).toContain(
        `${retried.title}: 2 attempts, the last passed`,
      );
      expect(run.code).toBe(1);
    } finally {
      await partner.close();
    }
  });

  test('a waiver of token-exchange/transport, where nothing listens: INCOMPLETE, for a waiver never makes a rule judged', async () => {
    test.setTimeout(120_000);
    const dir = partnersDir({ delta: { ...profileOf([]), tokenExchangeUrl: 'http://127.0.0.1:9/oauth/token' } });
    const expires = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    writeFileSync(
      path.join(dir, 'delta.waivers.json'),
      JSON.stringify({
        waivers: [{ rule: 'token-exchange/transport', reason: 'the token endpoint is being moved', approvedBy: 'Dana Ruiz, platform integration', expires }],
      }),
    );
    // Past the preflight, which would stop the run at the dead endpoint: what a waiver does to a run is judged here.
    const runDir = tempDir('run-');
    const run = await runPlaywright(
      ['--project=delta'],
      { ...signing(dir), CERTIFY_NO_PREFLIGHT: '1', [runDirVariable]: runDir },
      { reporters: ['certification'] },
    );
    const cert = certificationOf(run, 'delta');
    expect(cert.verdict, cert.summary).toBe('INCOMPLETE');
    expect(cert.rules.find((rule) => rule.id === 'token-exchange/transport')?.outcome).toBe('waived');
    expect(cert.summary).toMatch(/ not checked \(\d+ blocked by token-exchange\/transport \(waived, yet what it blocked was not judged\)/);
    // Playwright's own exit code is 1; the run keeps its outcome for the harness's command, which exits 3 for it.
    expect(run.code).toBe(1);
    expect(keptOutcome(runDir)).toEqual({ kind: 'incomplete', uncertified: ['delta INCOMPLETE'] });
  });

  test('a merged certificate names the endpoints the run called, not those of the profile at merge time', async () => {
    // After the shards ran, the profile is pointed at production; the merge must still say "staging".
    writeFileSync(
      path.join(today.dir, 'delta.json'),
      JSON.stringify({
        ...failsAMust,
        tokenExchangeUrl: 'https://production.partner.example/oauth/token',
        accountInfoUrl: 'https://production.partner.example/api/account',
      }),
    );
    const merged = merge(today.shards.map(blobOf), signing(today.dir));
    const cert = certificationIn(merged.out, 'delta');
    expect(cert.verdict, cert.summary).toBe('NOT CERTIFIED');
    expect(cert.run.targets['token exchange']).toBe(failsAMust.tokenExchangeUrl);
    expect(cert.run.shards).toEqual({ total: 2, merged: [1, 2] });
    const har = JSON.parse(readFileSync(path.join(merged.out, 'delta', 'exchanges.har'), 'utf8')) as { log: { entries: { request: { url: string } }[] } };
    const hosts = new Set(har.log.entries.map((entry) => new URL(entry.request.url).host));
    expect([...hosts]).toEqual([new URL(cert.run.targets['token exchange']!).host]);
  });
});

test.describe('3. verify proves who signed', () => {
  test.describe.configure({ mode: 'serial' });
  const signed = { genuine: '', forged: '', thumbprint: '', attacker: '' };

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const dir = partnersDir({ mallory: failsAMust });
    const run = await runPlaywright(['--project=mallory', 'suites/token-exchange.spec.ts'], signing(dir), { reporters: ['certification'] });
    signed.genuine = path.join(run.out, 'certification', 'mallory');
    const cert = certificationIn(path.join(run.out, 'certification'), 'mallory');
    expect(cert.verdict).toBe('NOT CERTIFIED');
    // The forgery: the verdict rewritten, the platform's thumbprint kept, signed by the partner's own key,
    // which names itself as the platform team, an escape sequence hiding the rest of the line.
    const forged = tempDir('forged-');
    cpSync(signed.genuine, forged, { recursive: true });
    const rewritten = `${JSON.stringify({ ...cert, verdict: 'CERTIFIED', summary: 'CERTIFIED: every rule passed' }, null, 2)}\n`;
    writeFileSync(path.join(forged, 'certification.json'), rewritten);
    const attacker = signingKeyFrom({
      CERTIFY_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      CERTIFY_SIGNER: 'Platform integration team\u001b[8m (hidden)',
    })!;
    writeFileSync(path.join(forged, 'certification.json.jws'), `${await signDetached(Buffer.from(rewritten), attacker, new Date())}\n`);
    Object.assign(signed, { forged: path.join(forged, 'certification.json'), thumbprint: cert.signing!.keyThumbprint, attacker: attacker.thumbprint });
  });

  test('without a trusted key, verify exits 1: a signature anyone can make proves integrity only', () => {
    const unpinned = verify(signed.forged);
    expect(unpinned.status).toBe(1);
    expect(unpinned.stdout).toContain('✗ whose signature it is was not checked: the signature proves integrity only');
    // The genuine certificate too: not who signed it is known without a trusted key.
    expect(verify(path.join(signed.genuine, 'certification.json')).status).toBe(1);
  });

  test('the key certification.json names must be the key that signed it; only a trusted key passes', () => {
    expect(verify(signed.forged).stdout).toContain(`✗ certification.json names the signing key ${signed.thumbprint}, but key ${signed.attacker} signed it`);
    const pinned = verify(signed.forged, ['--key', keyFile(publicPem)]);
    expect(pinned.status).toBe(1);
    expect(pinned.stdout).toContain('not by a trusted key');
    // The partner's own key as --key still fails: the file names another key than the one that signed.
    expect(verify(signed.forged, ['--key', signed.attacker]).status).toBe(1);
    // The genuine certificate: with --key, and with the key pinned in trusted-signers.pub.
    expect(verify(path.join(signed.genuine, 'certification.json'), ['--key', keyFile(publicPem)]).status).toBe(0);
    const cwd = tempDir('checkout-');
    writeFileSync(path.join(cwd, 'trusted-signers.pub'), `# the platform integration team\n${publicPem}`);
    const trusted = verify(path.join(signed.genuine, 'certification.json'), [], cwd);
    expect(trusted.status, trusted.stdout).toBe(0);
    expect(trusted.stdout).toContain('(a trusted key: listed in trusted-signers.pub)');
    expect(verify(signed.forged, [], cwd).status).toBe(1);
  });

  test("the header's signer is printed with its escape sequence shown, never sent to the terminal", () => {
    const printed = verify(signed.forged).stdout;
    expect(printed).toContain('Platform integration team\\u{1b}[8m (hidden)');
    expect(printed).not.toContain('\u001b');
  });
});

test.describe('6. the history checks what it reads', () => {
  test("another partner's certification dated 9999 in the history is no previous run: the next full run is CERTIFIED, not PARTIAL", async () => {
    test.setTimeout(120_000);
    const history = tempDir('history-');
    const planted = buildCertification(runInfo({ partner: 'other', startedAt: '9999-12-31T00:00:00.000Z', finishedAt: '9999-12-31T00:00:00.000Z' }), [
      everyRuleJudged([], { title: 'a test alpha2 does not have', status: 'failed' }),
    ]);
    const folder = path.join(history, 'alpha2');
    mkdirSync(folder);
    writeFileSync(path.join(folder, '9999-12-31T00-00-00.000Z.json'), `${JSON.stringify(planted)}\n`);
    const run = await runPlaywright(['--project=alpha2'], signing(partnersDir({ alpha2: profileOf([]) }), { CERTIFY_HISTORY_DIR: history }), {
      reporters: ['certification'],
    });
    const cert = certificationOf(run, 'alpha2');
    expect(cert.verdict, cert.summary).toBe('CERTIFIED');
    expect(cert.comparison).toBeNull();
    expect(run.stderr).toContain('history: an entry is left out of the comparison and the overview: ');
    expect(run.stderr).toContain('is a run of "other", not of alpha2');
  });
});

import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Certification } from '../../reports/certification';
import { buildCertification } from '../../reports/certification';
import { overviewSchema } from '../../reports/fleet-overview';
import { signDetached, signingKeyFrom } from '../../reports/signing';
import { incompleteExitCode } from '../../reports/certification-reporter';
import type { Fault } from '../../sandbox/reference-partner/faults';
import type { LeakFault } from '../../sandbox/reference-partner/hostile';
import { everyRuleJudged, runInfo } from '../support/certifications';
import { leaksOf, textsUnder } from '../support/leaks';
import { endpointsOf, partnersDir, referenceProfile } from '../support/profiles';
import { runPlaywright, type NestedRun } from '../support/run-playwright';
import { startReferencePartner } from '../support/sandbox';
import { tempDir } from '../support/temp';

/**
 * A certificate that can only be earned. The attacks of an independent red team on the certification
 * program, each replayed as it broke it: as a partner who wants a certificate it has not earned, and as
 * a careless operator. Each that produced a (signed) CERTIFIED now produces INCOMPLETE or NOT CERTIFIED,
 * or is refused before any test; a genuine certificate still verifies with the trusted key.
 */

const sandbox = 'http://127.0.0.1:4400';
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const signingPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const signing = (dir: string, more: Record<string, string> = {}) => ({
  PARTNERS_DIR: dir,
  CERTIFY_SIGNING_KEY: signingPem,
  CERTIFY_SIGNER: 'Platform integration team',
  CERTIFY_HISTORY_DIR: tempDir('history-'),
  ...more,
});
const profileOf = (faults: readonly (Fault | LeakFault)[], origin = sandbox) => endpointsOf(referenceProfile(origin, faults));
/** A partner that fails a MUST in a full run: it issues a token for "grant_type=password" without credentials. */
const failsAMust = profileOf(['grants-without-credentials']);
const grantsTest = 'other grant types are refused, and none yields a token without client credentials';

const certificationIn = (dir: string, partner: string) => JSON.parse(readFileSync(path.join(dir, partner, 'certification.json'), 'utf8')) as Certification;
const certificationOf = (run: NestedRun, partner: string) => {
  // A run that wrote no certification says why: what it printed.
  if (!existsSync(path.join(run.out, 'certification', partner, 'certification.json')))
    throw new Error(`no certification of ${partner} (exit ${run.code}):\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
  return certificationIn(path.join(run.out, 'certification'), partner);
};
const tsx = path.resolve('node_modules/.bin/tsx');
/** `npm run verify`, from `cwd` (where it looks for trusted-signers.pub). */
const verify = (file: string, args: string[] = [], cwd = tempDir('verify-')) =>
  spawnSync(tsx, [path.resolve('scripts/verify.ts'), file, ...args], { encoding: 'utf8', cwd });
const keyFile = (pem: string) => {
  const file = path.join(tempDir('keys-'), 'key.pub');
  writeFileSync(file, pem);
  return file;
};

/** `playwright merge-reports` of these blobs, with the certification reporter, into a folder of its own. */
function merge(blobs: readonly string[], env: Record<string, string>): { status: number | null; out: string; stdout: string; stderr: string } {
  const dir = tempDir('blobs-');
  for (const [index, blob] of blobs.entries()) copyFileSync(blob, path.join(dir, `blob-${index + 1}.zip`));
  const out = tempDir('merged-');
  const merged = spawnSync(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'merge-reports', `--reporter=${path.resolve('reports/certification-reporter.ts')}`, dir],
    {
      encoding: 'utf8',
      env: { ...process.env, ...env, CERTIFICATION_REPORT_DIR: out },
    },
  );
  return { status: merged.status, out, stdout: merged.stdout, stderr: merged.stderr };
}
const blobOf = (run: NestedRun) => path.join(run.out, 'blob-report', readdirSync(path.join(run.out, 'blob-report'))[0]!);

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
    const run = await runPlaywright(['--project=delta'], { ...signing(dir), CERTIFY_NO_PREFLIGHT: '1' }, { reporters: ['certification'] });
    const cert = certificationOf(run, 'delta');
    expect(cert.verdict, cert.summary).toBe('INCOMPLETE');
    expect(cert.rules.find((rule) => rule.id === 'token-exchange/transport')?.outcome).toBe('waived');
    expect(cert.summary).toMatch(/ not checked \(\d+ blocked by token-exchange\/transport \(waived, yet what it blocked was not judged\)/);
    expect(run.code).toBe(incompleteExitCode);
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

import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { buildCertification, type Certification, type TestRecord } from '../../reports/certification';
import { overviewHtml, overviewOf } from '../../reports/fleet-overview';
import { harOf } from '../../reports/har';
import { writePartnerFiles } from '../../reports/partner-files';
import { historyDirOf, keepRun, recentRuns } from '../../reports/history';
import { Egress } from '../../run/egress';
import { Vault } from '../../redaction/vault';
import { partialOf, runProblems } from '../../reports/run-info';
import { publicKeyOf, signDetached, signingKeyFrom, verifyDetached } from '../../reports/signing';
import { redact } from '../../redaction/redact';
import { everyRuleJudged, runInfo } from '../support/certifications';
import { tempDir } from '../support/temp';

/** The run's egress, with nothing to mask: the files as the reports render them. */
const egress = new Egress(new Vault());

const record = (title: string, status: TestRecord['status'], outcome: 'passed' | 'failed' = 'passed'): TestRecord => ({
  title,
  area: 'token-exchange',
  status,
  durationMs: 1,
  errors: [],
  exchanges: [],
  findings: [{ rule: 'token-exchange/expires-in', field: 'expires_in', clause: 'RFC6749 §5.1', level: 'MUST', outcome, message: 'm', impact: 'i' }],
});
const runAt = (partner: string, finishedAt: string) => runInfo({ partner, startedAt: finishedAt, finishedAt });
const certAt = (partner: string, finishedAt: string, outcome: 'passed' | 'failed', previous?: Certification) =>
  buildCertification(
    runAt(partner, finishedAt),
    [record('a', outcome === 'failed' ? 'failed' : 'passed', outcome), everyRuleJudged([], { title: 'b' })],
    previous,
  );
const plan = [
  { probe: 'token-exchange/a', title: 'a' },
  { probe: 'token-exchange/b', title: 'b' },
];

test('a run is partial when it did not run every test of the plan, whatever chose them, or when it is a shard', () => {
  const before = certAt('acme', '2026-11-01T00:00:00.000Z', 'failed');
  const onlyB = [{ title: 'b', probe: 'token-exchange/b', status: 'passed' }];
  expect(partialOf(onlyB, plan, before, null)).toEqual({
    reason: "1 of the partner's 2 tests were left out of the run",
    ran: ['b'],
    leftOut: ['a'],
    failedBeforeNotRun: ['a'],
  });
  expect(partialOf([...onlyB, { title: 'a', probe: 'token-exchange/a', status: 'passed' }], plan, before, null)).toBeNull();
  // Without a plan (a configuration of the user's own), a test that failed last time and did not run.
  expect(partialOf(onlyB, undefined, before, null)?.reason).toBe('tests that failed last time were left out');
  expect(partialOf(onlyB, plan, undefined, { current: 1, total: 2 })?.reason).toMatch(/^shard 1 of 2/);
  // A partial run is never CERTIFIED, even when everything it ran passed.
  const partial = buildCertification(runAt('acme', '2026-11-02T00:00:00.000Z'), [everyRuleJudged([], { title: 'b' })], before, {
    partial: partialOf(onlyB, plan, before, null),
  });
  expect(partial.verdict).toBe('PARTIAL');
  expect(partial.summary).toMatch(
    /^PARTIAL: partial run: 1 test ran \(1 of the partner's 2 tests were left out of the run\), 1 that failed last time did not; run them all to certify, \d+ of \d+ rules passed/,
  );
});

test('results of several runs, of different profiles, or with a shard missing are not one whole run', () => {
  const stamp = (id: string, current: number | null, profile = 'p1') => ({ id, shard: current === null ? null : { current, total: 2 }, profile });
  expect(runProblems([stamp('r1', 1), stamp('r1', 2)], [stamp('r1', 1), stamp('r1', 2)], false)).toEqual([]);
  expect(runProblems([stamp('r1', 1), stamp('r2', 2)], [stamp('r1', 1)], false)).toEqual([
    'the results come from 2 different runs (r1, r2); merge only the blobs of one run, whose shards all ran with one CERTIFY_RUN_ID',
  ]);
  expect(runProblems([stamp('r1', 1)], [stamp('r1', 1)], true)).toEqual(["shard 2 of 2 is missing from the merge; gather every shard's blob report"]);
  // A shard that held none of the plan's tests is missing nothing.
  expect(runProblems([stamp('r1', 1)], [stamp('r1', 1)], false)).toEqual([]);
  expect(runProblems([stamp('r1', 1, 'p1'), stamp('r1', 2, 'p2')], [stamp('r1', 1, 'p1'), stamp('r1', 2, 'p2')], false)).toEqual([
    'its tests ran with different profiles; run every shard from one checkout and one profile',
  ]);
  // Any of them keeps the certificate from CERTIFIED, however well the tests went.
  expect(buildCertification(runInfo(), [everyRuleJudged()], undefined, { runProblems: ['shard 2 of 2 is missing from the merge'] }).verdict).toBe('INCOMPLETE');
});

test('the history sits beside reports/out, inside a report folder moved elsewhere, or where CERTIFY_HISTORY_DIR says', () => {
  expect(historyDirOf('reports/out', {})).toBe(path.resolve('reports/history'));
  expect(historyDirOf('/tmp/x', {})).toBe('/tmp/x/history');
  expect(historyDirOf('/tmp/x', { CERTIFY_HISTORY_DIR: 'kept' })).toBe(path.resolve('kept'));
});

test('the history keeps each run; the previous run is the newest; the overview says since when a verdict holds', async () => {
  const dir = tempDir('history-');
  const runs = [
    certAt('acme', '2026-11-01T00:00:00.000Z', 'failed'),
    certAt('acme', '2026-11-02T00:00:00.000Z', 'passed'),
    certAt('acme', '2026-11-03T00:00:00.000Z', 'passed'),
  ];
  for (const run of runs) await keepRun(dir, { json: `${JSON.stringify(run)}\n`, certification: run }, egress);
  // An entry that cannot be read, newest by its name, is passed over, and said so once.
  writeFileSync(path.join(dir, 'acme', '2026-11-09T00-00-00.000Z.json'), '{');
  const warnings: string[] = [];
  const options = { now: new Date('2026-11-10T00:00:00Z'), warn: (line: string) => warnings.push(line) };
  expect(recentRuns(dir, 'acme', 1, options).at(-1)?.run.finishedAt).toBe('2026-11-03T00:00:00.000Z');
  expect(warnings).toEqual([
    expect.stringMatching(/^history: an entry is left out of the comparison and the overview: .*2026-11-09T00-00-00\.000Z\.json is not a certification\.json/),
  ]);
  expect(recentRuns(dir, 'acme', 10, options).map((r) => r.run.finishedAt)).toEqual(runs.map((r) => r.run.finishedAt));
  expect(recentRuns(dir, 'nobody', 1, options)).toEqual([]);
  const now = certAt('acme', '2026-11-04T00:00:00.000Z', 'passed', runs[2]);
  const [row] = overviewOf(
    [{ certification: now, report: 'acme/certification.html', history: recentRuns(dir, 'acme', 10, options) }],
    new Date('2026-11-04T00:00:01Z'),
  ).partners;
  expect(row).toMatchObject({
    verdict: 'CERTIFIED',
    since: '2026-11-02T00:00:00.000Z',
    history: [{ verdict: 'NOT CERTIFIED' }, { verdict: 'CERTIFIED' }, { verdict: 'CERTIFIED' }, { verdict: 'CERTIFIED' }],
  });
});

test("the history reads only what is the partner's: another partner's run, one from the future or filed under another time is left out", async () => {
  const dir = tempDir('history-');
  const own = certAt('alpha2', '2026-11-02T00:00:00.000Z', 'passed');
  await keepRun(dir, { json: `${JSON.stringify(own)}\n`, certification: own }, egress);
  const planted = (cert: Certification, name: string) => writeFileSync(path.join(dir, 'alpha2', name), `${JSON.stringify(cert)}\n`);
  // Another partner's certification, dated 9999, copied into alpha2's folder under its own time.
  planted(certAt('other', '9999-12-31T00:00:00.000Z', 'passed'), '9999-12-31T00-00-00.000Z.json');
  planted(certAt('alpha2', '9999-12-30T00:00:00.000Z', 'passed'), '9999-12-30T00-00-00.000Z.json');
  planted(certAt('alpha2', '2026-11-03T00:00:00.000Z', 'passed'), '9999-12-29T00-00-00.000Z.json');
  const warnings: string[] = [];
  const runs = recentRuns(dir, 'alpha2', 10, { now: new Date('2026-11-25T00:00:00Z'), warn: (line) => warnings.push(line) });
  expect(runs.map((run) => run.run.finishedAt)).toEqual(['2026-11-02T00:00:00.000Z']);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(
    /^history: 3 entries are left out of the comparison and the overview: .*9999-12-31T00-00-00\.000Z\.json is a run of "other", not of alpha2 \(and 2 more\)$/,
  );
});

test("the overview escapes a partner's data, and links each report", () => {
  const cert = certAt('acme', '2026-11-04T00:00:00.000Z', 'passed');
  const hostile = { ...cert, summary: '<img src=x onerror=alert(1)>' };
  const page = overviewHtml(overviewOf([{ certification: hostile, report: 'acme/certification.html', history: [] }], new Date()));
  expect(page).not.toContain('<img src=x');
  expect(page).toContain('href="acme/certification.html"');
});

test('a detached signature verifies against the same bytes and no others, and names its key', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
  const key = signingKeyFrom({ CERTIFY_SIGNING_KEY: jwk, CERTIFY_SIGNER: 'team' })!;
  const pem = signingKeyFrom({ CERTIFY_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() })!;
  expect(pem.thumbprint).toBe(key.thumbprint);
  const payload = Buffer.from('{"verdict":"CERTIFIED"}\n');
  const jws = await signDetached(payload, key, new Date('2026-11-24T10:00:00Z'));
  expect(jws).toMatch(/^[\w-]+\.\.[\w-]+$/);
  const pinned = publicKeyOf(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  await expect(verifyDetached(jws, payload, pinned)).resolves.toEqual({
    thumbprint: key.thumbprint,
    signer: 'team',
    signedAt: new Date('2026-11-24T10:00:00Z'),
  });
  await expect(verifyDetached(jws, Buffer.from('{"verdict":"CERTIFIEd"}\n'))).rejects.toThrow(/signature verification failed/);
  await expect(
    verifyDetached(jws, payload, publicKeyOf(generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString())),
  ).rejects.toThrow(/not by a trusted key/);
  expect(() =>
    signingKeyFrom({ CERTIFY_SIGNING_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }),
  ).toThrow(/not an Ed25519 private key in PEM \(PKCS#8\) or JWK \(it is an ec key\)/);
  // The key is masked wherever the run writes: as given, its base64, and its private part.
  const d = JSON.parse(jwk) as { d: string };
  expect(
    redact(
      `key ${d.d} and ${jwk}`,
      key.secrets.map((value) => ({ value })),
    ),
  ).not.toContain(d.d);
});

test("a HAR entry's URL is a URI: a mask's brackets are percent-encoded, and the mask stays one", () => {
  const exchange = {
    request: { method: 'GET', url: 'http://127.0.0.1:4400/oauth/token?client_secret=[redacted]&x=a b', headers: {} },
    startedAt: '2026-11-24T10:00:00.000Z',
    durationMs: 12.5,
  };
  const har = harOf([{ title: 't', exchanges: [exchange] }], { name: 'partner-certify', version: '0' });
  const url = har.log.entries[0]!.request.url;
  expect(url).toBe('http://127.0.0.1:4400/oauth/token?client_secret=%5Bredacted%5D&x=a%20b');
  expect(redact(url, [])).toBe(url);
  expect(har.log.entries[0]).toMatchObject({ time: 12.5, response: { status: 0 }, timings: { wait: 12.5 } });
});

test('a signed run writes the signature over certification.json as written; an unsigned run removes an earlier one', async () => {
  const dir = tempDir('partner-');
  const key = signingKeyFrom({ CERTIFY_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() })!;
  const cert = certAt('acme', '2026-11-04T00:00:00.000Z', 'passed');
  const creator = { name: 'partner-certify', version: '0' };
  const signed = await writePartnerFiles(dir, { tests: [] }, () => cert, { egress, signing: key, creator });
  expect(signed.certification.signing).toEqual({ keyThumbprint: key.thumbprint, signer: null });
  await expect(verifyDetached(readFileSync(path.join(dir, 'certification.json.jws'), 'utf8'), Buffer.from(signed.json))).resolves.toMatchObject({
    thumbprint: key.thumbprint,
  });
  await writePartnerFiles(dir, { tests: [] }, () => cert, { egress, signing: undefined, creator });
  expect(existsSync(path.join(dir, 'certification.json.jws'))).toBe(false);
});

import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { buildCertification, type Certification, type TestRecord } from '../../reports/certification';
import { overviewHtml, overviewOf } from '../../reports/fleet-overview';
import { harOf } from '../../reports/har';
import { writePartnerFiles } from '../../reports/partner-files';
import { historyDirOf, keepRun, recentRuns } from '../../reports/history';
import { choosingOption, partialOf } from '../../reports/run-info';
import { publicKeyOf, signDetached, signingKeyFrom, verifyDetached } from '../../reports/signing';
import { redact } from '../../shared/redaction/redact';
import { tempDir } from '../support/temp';

const record = (title: string, status: TestRecord['status'], outcome: 'passed' | 'failed' = 'passed'): TestRecord => ({
  title, area: 'token-exchange', status, durationMs: 1, errors: [], exchanges: [],
  findings: [{ rule: 'token-exchange/expires-in', field: 'expires_in', clause: 'RFC6749 §5.1', level: 'MUST', outcome, message: 'm', impact: 'i' }],
});
const runAt = (partner: string, finishedAt: string) => ({ partner, targets: {}, harness: { version: '0', commit: null }, startedAt: finishedAt, finishedAt, status: 'passed' as const, node: 'v20', playwright: '1.65', chromium: null });
const certAt = (partner: string, finishedAt: string, outcome: 'passed' | 'failed', previous?: Certification) =>
  buildCertification(runAt(partner, finishedAt), [record('a', outcome === 'failed' ? 'failed' : 'passed', outcome), record('b', 'passed')], previous);

test('a run is partial when an option chose its tests, when it is a shard, or when it left out a test that failed last time', () => {
  const before = certAt('acme', '2026-11-01T00:00:00.000Z', 'failed');
  const onlyB = [{ title: 'b', status: 'passed' }];
  expect(partialOf(onlyB, before, undefined, null)).toEqual({ reason: 'tests that failed last time were left out', ran: ['b'], failedBeforeNotRun: ['a'] });
  expect(partialOf([...onlyB, { title: 'a', status: 'passed' }], before, undefined, null)).toBeNull();
  expect(partialOf(onlyB, undefined, '--last-failed', null)?.reason).toBe('--last-failed chose the tests');
  expect(partialOf(onlyB, undefined, undefined, { current: 1, total: 2 })?.reason).toMatch(/^shard 1 of 2/);
  // A partial run is never CERTIFIED, even when everything it ran passed.
  const partial = buildCertification(runAt('acme', '2026-11-02T00:00:00.000Z'), [record('b', 'passed')], before, { partial: partialOf(onlyB, before, undefined, null) });
  expect(partial.verdict).toBe('PARTIAL');
  expect(partial.summary).toMatch(/^PARTIAL: partial run: 1 test ran \(tests that failed last time were left out\), 1 that failed last time did not; run them all to certify, 1 of \d+ rules passed/);
});

test('choosingOption reads the options of `playwright test` that choose tests, and none of merge-reports', () => {
  expect(choosingOption(['node', 'cli.js', 'test', '--project=x', '--last-failed'])).toBe('--last-failed');
  expect(choosingOption(['node', 'cli.js', 'test', '--grep=token'])).toBe('--grep');
  expect(choosingOption(['node', 'cli.js', 'test', '-g', 'token'])).toBe('-g');
  expect(choosingOption(['node', 'cli.js', 'test', '--project=x', '--workers=2'])).toBeUndefined();
  expect(choosingOption(['node', 'cli.js', 'merge-reports', '--grep=x'])).toBeUndefined();
});

test('the history sits beside reports/out, inside a report folder moved elsewhere, or where CERTIFY_HISTORY_DIR says', () => {
  expect(historyDirOf('reports/out', {})).toBe(path.resolve('reports/history'));
  expect(historyDirOf('/tmp/x', {})).toBe('/tmp/x/history');
  expect(historyDirOf('/tmp/x', { CERTIFY_HISTORY_DIR: 'kept' })).toBe(path.resolve('kept'));
});

test('the history keeps each run; the previous run is the newest; the overview says since when a verdict holds', () => {
  const dir = tempDir('history-');
  const runs = [certAt('acme', '2026-11-01T00:00:00.000Z', 'failed'), certAt('acme', '2026-11-02T00:00:00.000Z', 'passed'), certAt('acme', '2026-11-03T00:00:00.000Z', 'passed')];
  for (const run of runs) keepRun(dir, `${JSON.stringify(run)}\n`, run);
  // An entry that cannot be read, newest by its name, is passed over.
  writeFileSync(path.join(dir, 'acme', '2026-11-09T00-00-00.000Z.json'), '{');
  expect(recentRuns(dir, 'acme', 1).at(-1)?.run.finishedAt).toBe('2026-11-03T00:00:00.000Z');
  expect(recentRuns(dir, 'acme', 10).map((r) => r.run.finishedAt)).toEqual(runs.map((r) => r.run.finishedAt));
  expect(recentRuns(dir, 'nobody', 1)).toEqual([]);
  const now = certAt('acme', '2026-11-04T00:00:00.000Z', 'passed', runs[2]);
  const [row] = overviewOf([{ certification: now, report: 'acme/certification.html', history: recentRuns(dir, 'acme', 10) }], new Date('2026-11-04T00:00:01Z')).partners;
  expect(row).toMatchObject({ verdict: 'CERTIFIED', since: '2026-11-02T00:00:00.000Z', history: [{ verdict: 'NOT CERTIFIED' }, { verdict: 'CERTIFIED' }, { verdict: 'CERTIFIED' }, { verdict: 'CERTIFIED' }] });
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
  await expect(verifyDetached(jws, payload, pinned)).resolves.toEqual({ thumbprint: key.thumbprint, signer: 'team', signedAt: new Date('2026-11-24T10:00:00Z') });
  await expect(verifyDetached(jws, Buffer.from('{"verdict":"CERTIFIEd"}\n'))).rejects.toThrow(/signature verification failed/);
  await expect(verifyDetached(jws, payload, publicKeyOf(generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString()))).rejects.toThrow(/not by the key given with --key/);
  expect(() => signingKeyFrom({ CERTIFY_SIGNING_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() })).toThrow(/not an Ed25519 private key in PEM \(PKCS#8\) or JWK \(it is an ec key\)/);
  // The key is masked wherever the run writes: as given, its base64, and its private part.
  const d = JSON.parse(jwk) as { d: string };
  expect(redact(`key ${d.d} and ${jwk}`, key.secrets.map((value) => ({ value })))).not.toContain(d.d);
});

test("a HAR entry's URL is a URI: a mask's brackets are percent-encoded, and the mask stays one", () => {
  const exchange = { request: { method: 'GET', url: 'http://127.0.0.1:4400/oauth/token?client_secret=[redacted]&x=a b', headers: {} }, startedAt: '2026-11-24T10:00:00.000Z', durationMs: 12.5 };
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
  const signed = await writePartnerFiles(dir, cert, [], { secrets: [], signing: key, creator });
  expect(signed.certification.signing).toEqual({ keyThumbprint: key.thumbprint, signer: null });
  await expect(verifyDetached(readFileSync(path.join(dir, 'certification.json.jws'), 'utf8'), Buffer.from(signed.json))).resolves.toMatchObject({ thumbprint: key.thumbprint });
  await writePartnerFiles(dir, cert, [], { secrets: [], signing: undefined, creator });
  expect(existsSync(path.join(dir, 'certification.json.jws'))).toBe(false);
});

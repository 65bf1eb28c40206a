import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { overviewSchema } from '../../reports/fleet-overview';
import type { Fault } from '../../sandbox/reference-partner/faults';
import { partnersDir } from '../support/profiles';
import { runPlaywright, type NestedRun } from '../support/run-playwright';
import { certificationOf, profileOf } from '../support/signed-runs';
import { tempDir } from '../support/temp';

/**
 * Certification as a program, run as the integration team runs it: three partners (one conformant, one
 * with a waived failure, one failing), then a second run in which the conformant one regresses; the fleet
 * overview, the history, the signed certificate, the HAR, and a re-run of what failed. Shards and runs that
 * reach no test: certification-program-sharded-and-empty-runs.spec.ts.
 */

// A waiver runs at most 180 days: this one, 90.
const waiverTerms = {
  reason: "the spec's name pattern refuses O'Brien; the platform accepts apostrophes since release 7.2",
  approvedBy: 'Dana Ruiz, platform integration',
  expires: new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10),
};
function fleet(alphaFaults: readonly Fault[]) {
  const dir = partnersDir({ alpha: profileOf(alphaFaults), bravo: profileOf(['apostrophe-last-name']), charlie: profileOf(['expires-in-string']) });
  writeFileSync(
    path.join(dir, 'bravo.waivers.json'),
    JSON.stringify({ $schema: '../partners/waivers.schema.json', waivers: [{ rule: 'account-info/user.lastName/pattern', ...waiverTerms }] }),
  );
  return dir;
}

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const signingKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
let history: string;
const env = (dir: string) => ({
  PARTNERS_DIR: dir,
  CERTIFY_HISTORY_DIR: history,
  CERTIFY_SIGNING_KEY: signingKey,
  CERTIFY_SIGNER: 'Platform integration team',
});
const projects = ['--project=alpha', '--project=bravo', '--project=charlie'];

test.describe.configure({ mode: 'serial' });
let first: NestedRun;
let second: NestedRun;

test('three partners: certified, certified with a waived failure, not certified; each run is kept in the history', async () => {
  test.setTimeout(120_000);
  history = tempDir('history-');
  first = await runPlaywright(projects, env(fleet([])), { reporters: ['certification'] });
  expect(first.code, first.stdout).toBe(1);
  expect(certificationOf(first, 'alpha').verdict).toBe('CERTIFIED');
  const bravo = certificationOf(first, 'bravo');
  expect(bravo.verdict).toBe('CERTIFIED');
  expect(bravo.summary).toMatch(/^CERTIFIED with 1 waiver: .*1 rule waived \(1 waiver used\)/);
  expect(bravo.rules.find((rule) => rule.id === 'account-info/user.lastName/pattern')?.outcome).toBe('waived');
  expect(bravo.findings.filter((f) => f.outcome === 'waived').map((f) => [f.rule, f.waivedOutcome, f.waiver?.approvedBy])).toContainEqual([
    'account-info/user.lastName/pattern',
    'failed',
    waiverTerms.approvedBy,
  ]);
  expect(bravo.waivers).toEqual([expect.objectContaining({ waiver: 1, status: 'used', ...waiverTerms })]);
  expect(certificationOf(first, 'charlie').verdict).toBe('NOT CERTIFIED');
  expect(first.stdout).toContain(`bravo: ${bravo.summary}`);
  for (const partner of ['alpha', 'bravo', 'charlie']) expect(readdirSync(path.join(history, partner))).toHaveLength(1);
});

test('a second run where one partner regresses: the overview shows both runs and the regression, in Chromium', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  second = await runPlaywright(projects, env(fleet(['po-box-line1'])), { reporters: ['certification'] });
  const overview = overviewSchema.parse(JSON.parse(readFileSync(path.join(second.out, 'certification', 'index.json'), 'utf8')));
  expect(overview.partners.map((p) => [p.partner, p.verdict, p.history.map((h) => h.verdict)])).toEqual([
    ['alpha', 'NOT CERTIFIED', ['CERTIFIED', 'NOT CERTIFIED']],
    ['bravo', 'CERTIFIED', ['CERTIFIED', 'CERTIFIED']],
    ['charlie', 'NOT CERTIFIED', ['NOT CERTIFIED', 'NOT CERTIFIED']],
  ]);
  const [alpha, bravo, charlie] = overview.partners;
  // The fault's PO box is in the company's address, which its legal address repeats.
  expect(alpha!.regressed).toEqual(['account-info/company.address.line1/po-box', 'account-info/company.legalAddress.line1/po-box']);
  expect(alpha!.previous?.verdict).toBe('CERTIFIED');
  expect(alpha!.since).toBe(alpha!.finishedAt);
  expect(bravo!.since).toBe(certificationOf(first, 'bravo').run.finishedAt);
  expect([bravo!.waived, bravo!.waiversUsed, bravo!.regressed, charlie!.regressed]).toEqual([1, 1, [], []]);
  expect(charlie!.failed).toBeGreaterThan(0);

  const file = path.join(second.out, 'certification', 'index.html');
  const page = await browser.newPage({ viewport: { width: 1280, height: 560 } });
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`file://${file}`);
  await expect(page.locator('#totals')).toContainText('3 partners');
  await expect(page.locator('#totals')).toContainText('1 certified');
  await expect(page.locator('#totals')).toContainText('1 regressed');
  const row = page.locator('tr.partner[data-partner="alpha"]');
  await expect(row).toHaveClass(/regressed/);
  await expect(row).toContainText('account-info/company.address.line1/po-box regressed');
  expect(await row.locator('.history .run').evaluateAll((runs: Element[]) => runs.map((run) => run.className))).toEqual([
    'run v-CERTIFIED',
    'run v-NOT-CERTIFIED',
  ]);
  await expect(page.locator('tr.partner[data-partner="bravo"]')).toContainText('1 (1 waiver)');
  expect(requests).toEqual([`file://${file}`]);
  const shot = testInfo.outputPath('fleet-overview.png');
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach('fleet overview', { path: shot, contentType: 'image/png' });
  if (process.env.UPDATE_DOCS) copyFileSync(shot, 'docs/fleet-overview.png');
  // Each partner's link opens its report, which shows a waiver with its terms.
  await page.locator('tr.partner[data-partner="bravo"] a').click();
  await expect(page.locator('#verdict')).toHaveAttribute('data-verdict', 'CERTIFIED');
  // A certificate that rests on a waiver is never read as a clean one: its own words and colour.
  await expect(page.locator('#verdict')).toHaveClass(/certified-waived/);
  await expect(page.locator('#verdict strong')).toHaveText('CERTIFIED with 1 waiver');
  await expect(page.locator('tr[data-rule="account-info/user.lastName/pattern"]')).toContainText(
    `Waived by waiver #1 (${waiverTerms.reason}; approved by ${waiverTerms.approvedBy}, until ${waiverTerms.expires})`,
  );
  await expect(page.locator('#waivers tr.waiver')).toHaveAttribute('data-status', 'used');
  await page.close();
});

test('a run of one partner keeps every partner with a report on the overview; a zero is not red, and a partner fixed says so', async ({ browser }) => {
  test.setTimeout(120_000);
  const folder = path.join(second.out, 'certification');
  const third = await runPlaywright(['--project=alpha'], { ...env(fleet([])), CERTIFICATION_REPORT_DIR: folder }, { reporters: ['certification'] });
  expect(third.code).toBe(0);
  const overview = overviewSchema.parse(JSON.parse(readFileSync(path.join(folder, 'index.json'), 'utf8')));
  expect(overview.partners.map((p) => [p.partner, p.verdict])).toEqual([
    ['alpha', 'CERTIFIED'],
    ['bravo', 'CERTIFIED'],
    ['charlie', 'NOT CERTIFIED'],
  ]);
  expect(overview.partners[0]!.fixed).toEqual(['account-info/company.address.line1/po-box', 'account-info/company.legalAddress.line1/po-box']);
  const page = await browser.newPage();
  await page.goto(`file://${path.join(folder, 'index.html')}`);
  await expect(page.locator('#totals')).toContainText('3 partners');
  await expect(page.locator('#totals span.muted')).toHaveText('0 regressed');
  await expect(page.locator('tr.partner[data-partner="alpha"] td.n').first()).not.toHaveClass(/v-NOT-CERTIFIED/);
  await page.close();
});

const verify = (file: string, ...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/verify.ts', file, ...args], { encoding: 'utf8' });

test('npm run verify: a signed run verifies, with who signed, when and the verdict; one byte changed in any file fails it', async () => {
  const signed = path.join(second.out, 'certification', 'bravo');
  const keys = tempDir('keys-');
  const keyFile = (name: string, pem: string) => (writeFileSync(path.join(keys, name), pem), path.join(keys, name));
  const ok = verify(path.join(signed, 'certification.json'), '--key', keyFile('platform.pub', publicKey.export({ type: 'spki', format: 'pem' }).toString()));
  console.log(ok.stdout);
  expect(ok.status, ok.stdout + ok.stderr).toBe(0);
  expect(ok.stdout).toContain('signed by: Platform integration team, Ed25519 key SHA-256');
  expect(ok.stdout).toMatch(/signed at: \d{4}-\d\d-\d\dT/);
  expect(ok.stdout).toContain('verdict:   CERTIFIED with 1 waiver: ');
  const thumbprint = /Ed25519 key SHA-256 ([\w-]{43})/.exec(ok.stdout)![1]!;
  expect(readFileSync(path.join(signed, 'certification.html'), 'utf8')).toContain(thumbprint);
  expect(verify(path.join(signed, 'certification.json'), '--key', thumbprint).status).toBe(0);
  const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const wrongKey = verify(path.join(signed, 'certification.json'), '--key', keyFile('other.pub', other));
  expect(wrongKey.status).toBe(1);
  expect(wrongKey.stdout).toContain('not by a trusted key');
  for (const name of ['certification.json', 'certification.html', 'exchanges.har']) {
    const copy = tempDir('tampered-');
    cpSync(signed, copy, { recursive: true });
    const bytes = readFileSync(path.join(copy, name));
    bytes[bytes.length >> 1]! ^= 0x01;
    writeFileSync(path.join(copy, name), bytes);
    const result = verify(path.join(copy, 'certification.json'), '--key', thumbprint);
    console.log(`${name} with one byte changed:\n${result.stdout}`);
    expect(result.status, name).toBe(1);
    expect(result.stdout).toContain('✗');
  }
});

test('the HAR holds every exchange of the run, with timings, and is valid HAR 1.2 (har-schema)', async () => {
  const har = JSON.parse(readFileSync(path.join(first.out, 'certification', 'alpha', 'exchanges.har'), 'utf8')) as {
    log: { entries: { startedDateTime: string; time: number; request: { url: string }; comment: string }[] };
  };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as object;
  ajv.addMetaSchema(json('node_modules/ajv/dist/refs/json-schema-draft-06.json'));
  const harSchemas = 'node_modules/har-schema/lib';
  for (const file of readdirSync(harSchemas).filter((name) => name.endsWith('.json'))) ajv.addSchema(json(path.join(harSchemas, file)));
  const valid = ajv.validate('har.json#', har);
  expect(ajv.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  const alpha = certificationOf(first, 'alpha');
  expect(har.log.entries.length).toBe(alpha.latency.reduce((sum, row) => sum + row.requests, 0));
  expect(new Set(har.log.entries.map((entry) => entry.comment))).toEqual(new Set(alpha.tests.filter((t) => t.status === 'passed').map((t) => t.title)));
  expect(har.log.entries.every((entry) => entry.time >= 0)).toBe(true);
  console.log(
    `exchanges.har of the reference run: ${har.log.entries.length} entries, valid HAR 1.2 (har-schema ${(json('node_modules/har-schema/package.json') as { version: string }).version})`,
  );
});

test('--last-failed re-runs what failed: the report says it is partial and which tests ran, and never CERTIFIED', async () => {
  test.setTimeout(120_000);
  // charlie's fault fixed; Playwright's record of what failed is the second run's.
  const lastRun = path.join(second.out, 'test-results', '.last-run.json');
  const rerun = await runPlaywright(['--project=charlie', '--last-failed', `--last-failed-file=${lastRun}`], env(partnersDir({ charlie: profileOf([]) })), {
    reporters: ['certification'],
  });
  const charlie = certificationOf(rerun, 'charlie');
  expect(rerun.code).toBe(0);
  expect(charlie.verdict).toBe('PARTIAL');
  const failedBefore = certificationOf(second, 'charlie')
    .tests.filter((t) => t.status === 'failed')
    .map((t) => t.title);
  const total = certificationOf(second, 'charlie').tests.length;
  expect(charlie.partial?.reason).toBe(`${total - failedBefore.length} of the partner's ${total} tests were left out of the run`);
  expect(charlie.partial?.ran.sort()).toEqual(failedBefore.sort());
  expect(charlie.summary).toMatch(
    new RegExp(
      `^PARTIAL: partial run: ${failedBefore.length} tests? ran \\(${total - failedBefore.length} of the partner's ${total} tests were left out of the run\\); run them all to certify`,
    ),
  );
  expect(readFileSync(path.join(rerun.out, 'certification', 'charlie', 'certification.html'), 'utf8')).toContain('A partial run');
});

test('a signing key that cannot be used fails the run, saying why and how to make one; the reports are written unsigned', async () => {
  const dir = partnersDir({ echo: profileOf([]) });
  const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const run = await runPlaywright(
    ['--project=echo', 'suites/funding-sources.spec.ts'],
    { ...env(dir), CERTIFY_SIGNING_KEY: ecKey },
    { reporters: ['certification'] },
  );
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(
    'CERTIFY_SIGNING_KEY is not an Ed25519 private key in PEM (PKCS#8) or JWK (it is an ec key); make one with: openssl genpkey -algorithm ed25519; the reports are written unsigned',
  );
  expect(readdirSync(path.join(run.out, 'certification', 'echo')).sort()).toEqual(['certification.html', 'certification.json', 'exchanges.har']);
});

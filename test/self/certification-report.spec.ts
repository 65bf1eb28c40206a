import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { allRules } from '../../checks/catalogue';
import { anchor as evidenceAnchor } from '../../reports/html-evidence';
import { incompleteExitCode } from '../../run/outcome';
import type { Fault } from '../../sandbox/reference-partner/faults';
import { endpointsOf, partnersDir, referenceAs, referenceProfile } from '../support/profiles';
import { readCertification, runNode, runPlaywright, type NestedRun } from '../support/run-playwright';
import { boxOnPage, firstScreen, inPageLinks, linksNotLanding, pageHeight } from '../support/report-page';
import { tempDir } from '../support/temp';

/**
 * The certification reporter, run as a partner engineer runs it: nested Playwright runs of a profile in
 * PARTNERS_DIR, then the JSON parsed and checked against the published schema, and the HTML opened in Chromium.
 */

const faults: Fault[] = ['expires-in-string', 'apostrophe-last-name', 'po-box-line1'];

const faultyProfile = (name: string) => referenceAs(name, faults);

function validate(certification: unknown) {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const valid = ajv.validate(JSON.parse(readFileSync('schemas/certification.schema.json', 'utf8')) as object, certification);
  expect(ajv.errors ?? [], 'certification.json matches schemas/certification.schema.json').toEqual([]);
  expect(valid).toBe(true);
}

test.describe.configure({ mode: 'serial' });
let faulty: NestedRun;

test('a partner with faults switched on is NOT CERTIFIED, with the counts, its failures and their evidence', async () => {
  test.setTimeout(180_000);
  faulty = await runPlaywright(['--project=faulty'], { PARTNERS_DIR: faultyProfile('faulty') }, { reporters: ['certification'] });
  expect(faulty.code).toBe(1);
  const certification = readCertification(faulty, 'faulty');
  validate(certification);
  expect(certification.verdict).toBe('NOT CERTIFIED');
  const failedRules = certification.rules.filter((rule) => rule.outcome === 'failed').map((rule) => rule.id);
  expect(failedRules).toEqual(
    expect.arrayContaining(['token-exchange/expires-in', 'account-info/user.lastName/pattern', 'account-info/company.address.line1/po-box']),
  );
  // One defect, one failure: the platform rightly refuses the account information at sign-on by code, so the
  // browser's code-path rules are blocked by the field rule that failed first, not failed a second time.
  expect(certification.rules.find((rule) => rule.id === 'sign-on/app/shown')).toMatchObject({
    outcome: 'not-checked',
    blockedBy: expect.stringMatching(/^account-info\//),
  });
  expect(certification.counts.failed).toBe(failedRules.length);
  expect(certification.counts.testsNotCompleted).toBe(0);
  const partnerRules = allRules.filter((rule) => rule.owner === 'partner').length;
  expect(certification.summary).toMatch(new RegExp(`^NOT CERTIFIED: ${failedRules.length} rules failed, \\d+ of ${partnerRules} rules passed`));
  expect(certification.platform?.verdict, certification.platform?.summary).toBe('CONFORMS');
  // A loopback platform with nothing said of its kind is the bundled emulator: its section is the harness's self-check.
  expect(certification.platform?.emulator).toBe(true);
  // Printed at the end of the run, with where the report is.
  expect(faulty.stdout).toContain(`faulty: ${certification.summary}`);
  expect(faulty.stdout).toMatch(/report: .*certification[/\\]faulty[/\\]certification\.html/);
  // Every finding carries its rule, field, clause, level, outcome, message, impact and test.
  const base = 'clause,field,impact,level,message,outcome,rule,test';
  expect(
    new Set(
      certification.findings.map((finding) =>
        Object.keys(finding)
          .filter((key) => key !== 'code' && key !== 'params' && key !== 'blockedBy')
          .sort()
          .join(),
      ),
    ),
  ).toEqual(new Set([base]));
  // A field rule's problem also says what kind it is and the values it quotes, as data.
  const structured = certification.findings.filter((finding) => finding.code !== undefined);
  expect(structured.length).toBeGreaterThan(0);
  expect(structured.find((finding) => finding.rule === 'account-info/user.lastName/pattern')).toMatchObject({
    code: 'pattern',
    params: { value: '"O\'Brien"' },
  });
  expect(certification.run).toMatchObject({
    partner: 'faulty',
    status: 'failed',
    node: process.version,
    playwright: expect.stringMatching(/^1\.\d+/),
    chromium: expect.stringMatching(/^chromium \d+/),
  });
  expect(certification.run.targets['token exchange']).toContain('/faults/expires-in-string');
  expect(certification.latency.find((row) => row.endpoint === 'token exchange')).toMatchObject({ requests: expect.any(Number), p50Ms: expect.any(Number) });
  expect(certification.latency.filter((row) => !(row.p50Ms <= row.p95Ms && row.p95Ms <= row.maxMs))).toEqual([]);
});

test('the HTML report opens offline in Chromium: the banner, failures first, evidence with a curl, no request', async ({ browser }, testInfo) => {
  const file = path.join(faulty.out, 'certification', 'faulty', 'certification.html');
  const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`file://${file}`);
  await expect(page.locator('#verdict')).toHaveAttribute('data-verdict', 'NOT CERTIFIED');
  await expect(page.locator('#verdict')).toContainText(/\d+ rules failed/);
  // In every area, failures come before anything else.
  for (const area of await page.locator('section.area').all()) {
    const outcomes = await area.locator('tr.rule').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-outcome')));
    const firstOther = outcomes.findIndex((outcome) => outcome !== 'failed');
    expect(outcomes.slice(firstOther === -1 ? outcomes.length : firstOther)).not.toContain('failed');
  }
  // The areas with failures come first, and the failure shows its message, fix and clause.
  await expect(page.locator('section.area').first().locator('tr.rule').first()).toHaveAttribute('data-outcome', 'failed');
  const expiresIn = page.locator('tr[data-rule="token-exchange/expires-in"]');
  await expect(expiresIn).toContainText('"expires_in" is a string ("3600"); send a JSON number');
  await expect(expiresIn).toContainText('Fix: "expires_in", when present, is a positive integer JSON number');
  await expect(expiresIn).toContainText('RFC6749 §5.1');
  // The evidence of a failing HTTP check, redacted, with a curl whose secrets are placeholders.
  const curl = page.locator('#evidence pre.curl').first();
  await expect(curl).toContainText("curl -i -X POST 'http://127.0.0.1:4400/faults/");
  await expect(page.locator('#evidence')).toContainText('"client_secret":"<CLIENT_SECRET>"');
  await expect(page.locator('#evidence')).not.toContainText('reference-sandbox-secret-4b1d');
  // Personal data masked, except the field a failure names.
  await expect(page.locator('#evidence')).not.toContainText('ada.lovelace@example.com');
  await expect(page.locator('#evidence')).toContainText('"email": "a•••@example.com"');
  await expect(page.locator(`#${'test-account-information-passes-every-field-rule-of-spec-2-3-alike-on-a-second-call'}`)).toContainText(
    '"lastName": "O\'Brien"',
  );
  // The first screen is what to do: the root causes only, each once, what they blocked folded under them.
  const fixFirst = page.locator('#fix-first li[data-rule]');
  expect((await fixFirst.evaluateAll((items) => items.map((item) => item.getAttribute('data-rule')))).sort()).toEqual([
    'account-info/company.address.line1/po-box',
    'account-info/company.legalAddress.line1/po-box',
    'account-info/user.lastName/pattern',
    'token-exchange/expires-in',
  ]);
  await expect(page.locator('#fix-first li[data-rule="account-info/user.lastName/pattern"]')).toContainText(
    /\d+ rules? could not be judged until this is fixed/,
  );
  await expect(page.locator('#fix-first')).not.toContainText('sign-on/app/shown: ');
  expect((await page.locator('#fix-first').boundingBox())!.y).toBeLessThan(700);
  // Passed rules are folded, each with what it requires; a note shows what it noted.
  await expect(page.locator('details.passed').first()).not.toHaveAttribute('open');
  await expect(page.locator('details.passed tr[data-rule="token-exchange/status"]')).toContainText('has status 200');
  await expect(page.locator('tr[data-rule="token-exchange/negative-cases-encoding"]')).toContainText('the negative cases were sent');
  // Screens of the embedded app, inlined and folded, opening at full size.
  expect(await page.locator('#screenshots img').count()).toBeGreaterThan(5);
  expect(await page.locator('#screenshots img').first().getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  await page.locator('#screens > summary').click();
  const screen = page.locator('#screenshots figure').first();
  const small = (await screen.locator('img').boundingBox())!.width;
  await screen.locator('img').click();
  expect((await screen.locator('img').boundingBox())!.width).toBeGreaterThan(small);
  await page.goto(`file://${file}`);
  await expect(page.locator('#latency-conditions')).toContainText(/up to \d+ requests in flight at once, on a machine of \d+ cores/);
  // Nothing but the page itself, opened twice here.
  expect(requests).toEqual([`file://${file}`, `file://${file}`]);
  // Prints to PDF (the print stylesheet keeps the banner's colour and rows whole).
  expect((await page.pdf({ format: 'A4' })).subarray(0, 5).toString()).toBe('%PDF-');
  const shot = testInfo.outputPath('certification-report.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('certification report', { path: shot, contentType: 'image/png' });
  // `UPDATE_DOCS=1` refreshes the picture in docs/.
  if (process.env.UPDATE_DOCS) copyFileSync(shot, 'docs/certification-report.png');
  await page.close();
});

test("a failed report's first screen (1280×800) holds the verdict, what to fix first and the counts; every in-page link lands", async ({
  browser,
}, testInfo) => {
  const page = await browser.newPage({ viewport: firstScreen });
  await page.goto(`file://${path.join(faulty.out, 'certification', 'faulty', 'certification.html')}`);
  for (const part of ['#verdict', '#fix-first', '#summary']) expect((await boxOnPage(page, part)).bottom, part).toBeLessThanOrEqual(firstScreen.height);
  await expect(page.locator('#summary tr')).toHaveCount(1 + 4);
  // Three root causes shown, the fourth folded under them.
  await expect(page.locator('#fix-first > ol > li')).toHaveCount(3);
  await expect(page.locator('#fix-first > details > summary')).toHaveText('1 more root cause');
  // The evidence and the screens are folded: the report was 13,901 px tall at this width (20,800 px with more faults).
  const height = await pageHeight(page);
  testInfo.annotations.push({ type: 'page height', description: `${height} px` });
  expect(height).toBeLessThan(6_000);
  const { hrefs, unresolved } = await inPageLinks(page);
  testInfo.annotations.push({ type: 'in-page links', description: String(hrefs.length) });
  expect(unresolved).toEqual([]);
  expect(hrefs).toContain('#rule-token-exchange/expires-in');
  expect(hrefs).toContain(`#${evidenceAnchor("the configured encoding's token exchange issues a working token")}`);
  expect(await linksNotLanding(page, hrefs)).toEqual([]);
  // A link to a test's evidence lands on its folded exchanges, in any browser: one more click opens them.
  await page.goto(`file://${path.join(faulty.out, 'certification', 'faulty', 'certification.html')}`);
  await page.locator('tr[data-rule="token-exchange/expires-in"] a', { hasText: 'issues a working token' }).click();
  const exchanges = page.locator(`#${evidenceAnchor("the configured encoding's token exchange issues a working token")}`);
  await expect(exchanges.locator('> summary')).toBeInViewport();
  await exchanges.locator('> summary').click();
  await expect(exchanges.locator('.exchange h4').first()).toBeInViewport();
  await expect(exchanges.locator('pre.curl').first()).toBeVisible();
  await page.close();
});

test('--compare names what was fixed, what regressed and what is new since the previous report', async () => {
  test.setTimeout(180_000);
  // The previous run failed these; this one runs the conformant reference partner under the same name.
  const previous = path.join(faulty.out, 'certification', 'faulty', 'certification.json');
  const before = readCertification(faulty, 'faulty');
  const run = await runPlaywright(
    ['--project=faulty', 'suites/token-exchange.spec.ts', 'suites/account-info.spec.ts'],
    { PARTNERS_DIR: referenceAs('faulty'), CERTIFY_COMPARE: previous },
    { reporters: ['certification'] },
  );
  const certification = readCertification(run, 'faulty');
  expect(certification.comparison?.previous.finishedAt).toBe(before.run.finishedAt);
  expect(certification.comparison?.fixed).toEqual(expect.arrayContaining(['token-exchange/expires-in', 'account-info/user.lastName/pattern']));
  expect(certification.comparison?.regressed).toEqual([]);
  expect(certification.comparison?.new).toEqual([]);
  // The report lists what changed, and says in words what did not.
  const page = readFileSync(path.join(run.out, 'certification', 'faulty', 'certification.html'), 'utf8');
  const since = page.slice(page.indexOf('<section id="comparison">'), page.indexOf('</section>', page.indexOf('<section id="comparison">')));
  expect(since).toContain(`<h3>Fixed (${certification.comparison?.fixed.length})</h3>`);
  expect(since).toContain('; nothing regressed, no new failure.</p>');
  expect(since).not.toContain('<h3>Regressed');
  // The other direction: the faulty run against this one shows them as regressions.
  const back = await runPlaywright(
    ['--project=faulty', 'suites/token-exchange.spec.ts'],
    { PARTNERS_DIR: faultyProfile('faulty'), CERTIFY_COMPARE: path.join(run.out, 'certification') },
    { reporters: ['certification'] },
  );
  expect(readCertification(back, 'faulty').comparison?.regressed).toEqual(['token-exchange/expires-in']);
});

test('a run that times out still writes both files, INCOMPLETE (never NOT CERTIFIED without a failed rule), naming the tests that did not run', async () => {
  test.setTimeout(120_000);
  // A partner whose token endpoint never finishes its answer, and a run deadline long before any test's.
  const dir = partnersDir({ hanging: { ...endpointsOf(referenceProfile('http://127.0.0.1:4400', ['token-slow-drip'])), requestTimeoutMs: 60_000 } });
  // Past the preflight, whose mint request would drip too: what an unfinished run writes is judged here. Through
  // the harness's own command, which alone exits 3 (Playwright's own exit code is 1).
  const out = tempDir('hanging-');
  const command = await runNode(
    [
      '--import',
      'tsx',
      'scripts/certify.ts',
      'hanging',
      '--no-preflight',
      '--global-timeout=15000',
      `--output=${path.join(out, 'test-results')}`,
      'suites/token-exchange.spec.ts',
    ],
    {
      PARTNERS_DIR: dir,
      CERTIFICATION_REPORT_DIR: path.join(out, 'certification'),
      CERTIFY_HISTORY_DIR: path.join(out, 'history'),
      PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(out, 'html-report'),
      PLAYWRIGHT_HTML_OPEN: 'never',
    },
  );
  const run: NestedRun = { ...command, out };
  const certification = readCertification(run, 'hanging');
  validate(certification);
  expect(certification.run.status).toBe('timedout');
  expect(certification.verdict).toBe('INCOMPLETE');
  expect(certification.counts.failed).toBe(0);
  expect(certification.counts.testsNotCompleted).toBeGreaterThan(0);
  expect(certification.incomplete).toEqual(expect.arrayContaining([expect.stringMatching(/^\d+ tests? did not complete \(/), 'the run ended timedout']));
  // Its own exit code: try again, not fix this.
  expect(run.code, run.stderr).toBe(incompleteExitCode);
  expect(certification.tests.filter((t) => !t.complete).length).toBe(certification.counts.testsNotCompleted);
  expect(existsSync(path.join(run.out, 'certification', 'hanging', 'certification.html'))).toBe(true);
});

test('npm run certify names the partners it knows when given none or an unknown one', () => {
  const certify = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/certify.ts', ...args], { encoding: 'utf8' });
  const none = certify();
  expect(none.status).toBe(2);
  expect(none.stderr).toContain('usage: npm run certify -- <partner>');
  expect(none.stderr).toMatch(/partners: .*reference/);
  const unknown = certify('nope');
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toMatch(/no partner "nope"; partners: .*reference/);
});

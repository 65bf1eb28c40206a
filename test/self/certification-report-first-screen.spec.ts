import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { allRules } from '../../checks/catalogue';
import type { Certification } from '../../reports/certification';
import { endpointsOf, partnersDir, referenceProfile } from '../support/profiles';
import { boxOnPage, firstScreen, inPageLinks, linksNotLanding, pageHeight } from '../support/report-page';
import { readCertification, runPlaywright } from '../support/run-playwright';

/**
 * A green report's first screen is the answer: a partner certified with three warnings, whose profile names no
 * platform (so the platform is NOT CHECKED and the sign-on rules do not apply), run twice, the second compared
 * with the first.
 */

const warned: string[] = ['token-exchange/cache-control', 'account-info/null-values', 'funding-sources/bankRoutingNumber/aba'];
const profile = endpointsOf(referenceProfile('http://127.0.0.1:4400', ['no-cache-control', 'null-line2', 'routing-checksum']));

test.describe.configure({ mode: 'serial' });
let page: Page;
let cert: Certification;
let previous: Certification;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  const dir = partnersDir({ green: profile });
  const first = await runPlaywright(['--project=green'], { PARTNERS_DIR: dir }, { reporters: ['certification'] });
  previous = readCertification(first, 'green');
  const compare = path.join(first.out, 'certification', 'green', 'certification.json');
  const second = await runPlaywright(['--project=green'], { PARTNERS_DIR: dir, CERTIFY_COMPARE: compare }, { reporters: ['certification'] });
  cert = readCertification(second, 'green');
  expect(cert.verdict, cert.summary).toBe('CERTIFIED');
  expect(cert.rules.filter((rule) => rule.outcome === 'warning').map((rule) => rule.id)).toEqual(warned);
  page = await browser.newPage({ viewport: firstScreen });
  await page.goto(`file://${path.join(second.out, 'certification', 'green', 'certification.html')}`);
});

test.afterAll(async () => page?.close());

test('the platform NOT CHECKED is grey, as a partial run is, never green', async () => {
  expect(cert.platform?.verdict).toBe('NOT CHECKED');
  await expect(page.locator('.platform-verdict strong')).toHaveCount(2);
  for (const verdict of await page.locator('.platform-verdict strong').all()) {
    await expect(verdict).toHaveText('NOT CHECKED');
    await expect(verdict).toHaveCSS('color', 'rgb(95, 99, 104)');
  }
});

test('under the verdict, the warnings in one line, each rule linked to its row', async () => {
  const line = page.locator('#warnings');
  await expect(line).toHaveText(`3 warnings, none of which fails a certification: ${warned.join(', ')}.`);
  expect(await line.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(warned.map((id) => `#rule-${id}`));
  const [verdict, box] = [await boxOnPage(page, '#verdict'), await boxOnPage(page, '#warnings')];
  expect(box.top).toBeGreaterThan(verdict.bottom);
  expect(box.bottom).toBeLessThanOrEqual(firstScreen.height);
  expect(box.bottom - box.top, 'one line').toBeLessThan(30);
});

test('every in-page link names an element, and following each shows it; a warning links to its evidence', async ({}, testInfo) => {
  const { hrefs, unresolved } = await inPageLinks(page);
  testInfo.annotations.push({ type: 'in-page links', description: String(hrefs.length) });
  expect(unresolved).toEqual([]);
  expect(await linksNotLanding(page, hrefs)).toEqual([]);
  const evidence = await page.locator('tr[data-rule="token-exchange/cache-control"] a', { hasText: 'issues a working token' }).getAttribute('href');
  await expect(page.locator(`details.evidence[id="${evidence!.slice(1)}"]`)).toContainText('HTTP 200');
  const height = await pageHeight(page);
  testInfo.annotations.push({ type: 'page height', description: `${height} px` });
  expect(height).toBeLessThan(6_000);
});

test('an unchanged comparison is one line', async () => {
  expect(cert.comparison).toMatchObject({ fixed: [], regressed: [], new: [] });
  const comparison = page.locator('#comparison');
  await expect(comparison).toHaveText(
    `Unchanged since the previous run (finished ${previous.run.finishedAt}, CERTIFIED): no rule fixed, regressed or newly failed.`,
  );
  await expect(comparison).toHaveJSProperty('tagName', 'P');
  const box = await boxOnPage(page, '#comparison');
  expect(box.bottom - box.top, 'one line').toBeLessThan(30);
});

test('a spelling note is shown as a note, at INFO, though its rule is MUST when it fails', async () => {
  const id = 'account-info/company.address.postalcode/spelling';
  expect(allRules.find((rule) => rule.id === id)?.level).toBe('MUST');
  const row = page.locator(`tr[data-rule="${id}"]`);
  await expect(row).toHaveAttribute('data-outcome', 'info');
  await expect(row.locator('.outcome')).toHaveText('i note');
  await expect(row.locator('td[data-level]')).toHaveText('INFO');
  await expect(row).toContainText('"company.address.postalCode" is spelled "postalCode"; the platform accepts either');
});

test('rules not judged come after the passed ones, folded, with their count', async () => {
  const signOn = page.locator('#area-sign-on');
  const unjudged = cert.rules.filter((rule) => rule.area === 'sign-on' && rule.owner === 'partner' && rule.outcome === 'skipped').length;
  expect(unjudged).toBeGreaterThan(0);
  await expect(signOn.locator('details.not-judged > summary')).toHaveText(`${unjudged} not applicable`);
  await expect(signOn.locator('details.not-judged')).not.toHaveAttribute('open');
  await expect(signOn.locator('details.not-judged tr.rule')).toHaveCount(unjudged);
  for (const area of await page.locator('#rules section.area').all()) {
    const order = await area.evaluate((section) =>
      [...section.querySelectorAll('tr.rule')].map((row) => `${row.closest('details')?.className ?? 'open'}:${row.getAttribute('data-outcome')}`),
    );
    const rank = (entry: string) => ['open', 'passed', 'not-judged'].indexOf(entry.split(':')[0]!);
    expect(order.map(rank), (await area.getAttribute('id')) ?? 'an area').toEqual(order.map(rank).sort((a, b) => a - b));
    expect(order.filter((entry) => /:(skipped|not-checked)$/.test(entry) && !entry.startsWith('not-judged:'))).toEqual([]);
  }
});

import { test, expect } from '@playwright/test';
import { populationConsole, populationHtml } from '../../population/report-html';
import { populationReport } from '../../population/report-model';
import { noSharedIds } from '../../population/shared-ids';
import { populationReportSchema } from '../../population/report-schema';
import { summarySchema, type OutcomeCounts, type PopulationSummary } from '../../population/summary-schema';

/** The population report: shares of the payloads, rules ranked by users affected, and no shape shared by fewer than k users. */

const k = 5;
const common = "Aaaaaa'Aaaaa"; // exactly k users
const frequent = 'Aaaaaaa'; // more than k
const hostileShape = '<script>alert(1)</script>'; // a shape is built from the value: it may hold markup
const hostileAdvice = 'Send <script>x</script> as the last name';
const rare = ['Aa#a#aQ', 'AA Aaa ##', '(###) ### ####']; // fewer than k each

const outcomes = (signsIn: number, asked: number, typed: number, error: number): OutcomeCounts => ({
  'signs-in': signsIn,
  'asked-before-payment': asked,
  'typed-at-sign-on': typed,
  'error-screen': error,
});

/** Counts as kept, each key standing for as many people as users (up to the 20 remembered). */
const keptOf = (counts: Record<string, number>) => ({
  counts,
  off: 0,
  lost: 0,
  people: Object.fromEntries(Object.entries(counts).map(([key, count]) => [key, Array.from({ length: Math.min(count, 20) }, (_, i) => i)])),
});

const tally = (failed: number, warned: number, shapes: Record<string, number> = {}, advice: Record<string, Record<string, number>> = {}) => ({
  failed,
  warned,
  codes: { pattern: failed + warned },
  shapes: keptOf(shapes),
  advice: Object.fromEntries(Object.entries(advice).map(([code, counts]) => [code, keptOf(counts)])),
});

const summary: PopulationSummary = summarySchema.parse({
  version: 1,
  settings: { collectMissingAccountInfo: true, invalidRequired: 'typed-again', invalidOptional: 'error-screen', date: '2025-01-31' },
  parts: 1,
  input: {
    payloads: 1000,
    unreadable: { 'not JSON': 25 },
    unreadableLines: { 'not JSON': Array.from({ length: 25 }, (_, i) => 100 - i) },
    problems: [],
    notes: [],
  },
  outcomes: outcomes(700, 100, 150, 50),
  errorReasons: { 'invalid Yes* value': 50 },
  causes: { 'account-info/user.lastName/pattern': 30, 'account-info/user.lastName/pattern account-info/user.phone/present': 20 },
  causesUncounted: 0,
  sharedIds: noSharedIds(),
  seen: { bytes: 0, lines: 0, digest: '' },
  typedFields: { '2': 50, '1': 100 },
  beforePayment: { users: 100, 'user.phone': 80, 'user.dateOfBirth': 20 },
  alternatives: {
    collectMissingAccountInfo: outcomes(700, 100, 0, 200), // 150 users move: many
    invalidRequired: outcomes(700, 100, 145, 55), // 5 users move, 0.5% of 1000: not many
    invalidOptional: outcomes(690, 100, 150, 60), // 10 users, 1% of 1000: many
  },
  rules: {
    'account-info/user.lastName/pattern': tally(
      120,
      0,
      { [frequent]: 9, [common]: k, [hostileShape]: 6, [rare[0]!]: 4, [rare[1]!]: 1 },
      { pattern: { [hostileAdvice]: 90, 'Use letters only': 30 } },
    ),
    'account-info/user.phone/characters': tally(40, 10, { [rare[2]!]: 3 }, { pattern: { 'Send 10 digits': 50 } }),
    'account-info/company.address.postalcode/pattern': tally(40, 30),
    'account-info/company.address.city/length': tally(40, 30),
    'account-info/user.firstName/length': tally(0, 300),
    'account-info/user.email/format': tally(0, 0),
  },
});

const report = populationReport(summary, { k });
const json = JSON.stringify(report);
const page = populationHtml(report);
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

test('a shape shared by fewer than k users appears nowhere: not in the model, the JSON or the HTML', () => {
  const lastName = report.fixFirst.find((fix) => fix.rule === 'account-info/user.lastName/pattern')!;
  const phone = report.fixFirst.find((fix) => fix.rule === 'account-info/user.phone/characters')!;
  for (const shape of rare) expect(lastName.shapes.map((s) => s.shape)).not.toContain(shape);
  expect(lastName.rareShapes).toBe(5);
  expect(phone.shapes).toEqual([]);
  expect(phone.rareShapes).toBe(3);
  for (const shape of rare) {
    expect(json).not.toContain(shape);
    expect(page).not.toContain(shape);
    expect(page).not.toContain(escaped(shape));
  }
});

test('a shape shared by exactly k users is named, shapes most users first', () => {
  const lastName = report.fixFirst.find((fix) => fix.rule === 'account-info/user.lastName/pattern')!;
  expect(lastName.shapes).toEqual([
    { shape: frequent, count: 9 },
    { shape: hostileShape, count: 6 },
    { shape: common, count: k },
  ]);
  expect(page).toContain(escaped(common));
  expect(json).toContain(JSON.stringify(common));
});

test('no more than 10 shapes a rule, the rest counted', () => {
  const shapes = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`A${'a'.repeat(i)}`, k + i]));
  const many = populationReport({ ...summary, rules: { 'account-info/user.firstName/pattern': tally(500, 0, shapes) } }, { k });
  expect(many.fixFirst[0]!.shapes).toHaveLength(10);
  expect(many.fixFirst[0]!.shapes[0]).toEqual({ shape: `A${'a'.repeat(11)}`, count: k + 11 });
  expect(many.fixFirst[0]!.otherShapes).toBe(k + k + 1);
});

test('rules rank by users failed, then warned, then id; a rule that affects no one is left out', () => {
  expect(report.fixFirst.map((fix) => fix.rule)).toEqual([
    'account-info/user.lastName/pattern',
    'account-info/company.address.city/length',
    'account-info/company.address.postalcode/pattern',
    'account-info/user.phone/characters',
    'account-info/user.firstName/length',
  ]);
  expect(report.fixFirst[0]).toMatchObject({ failed: 120, warned: 0, users: 120, share: 0.12, codes: [{ code: 'pattern', count: 120 }] });
  expect(report.fixFirst[0]!.advice).toEqual([{ code: 'pattern', text: hostileAdvice, count: 90 }]);
  expect(page.indexOf('user.lastName/pattern')).toBeLessThan(page.indexOf('company.address.city/length'));
});

test('every outcome has its count and its share of the payloads, to 4 decimals', () => {
  expect(report.outcomes).toEqual({
    'signs-in': { count: 700, share: 0.7 },
    'asked-before-payment': { count: 100, share: 0.1 },
    'typed-at-sign-on': { count: 150, share: 0.15 },
    'error-screen': { count: 50, share: 0.05 },
  });
  const odd = populationReport({ ...summary, input: { ...summary.input, payloads: 3 }, outcomes: outcomes(1, 0, 2, 0) }, { k });
  expect(odd.outcomes['signs-in'].share).toBe(0.3333);
  expect(odd.outcomes['typed-at-sign-on'].share).toBe(0.6667);
  expect(report.typedFields).toEqual([
    { fields: 1, count: 100, share: 0.1 },
    { fields: 2, count: 50, share: 0.05 },
  ]);
  expect(report.beforePayment.users).toEqual({ count: 100, share: 0.1 });
  expect(report.beforePayment.fields.map((f) => f.field)).toEqual(['user.phone', 'user.dateOfBirth']);
});

test('the input keeps the first 20 unreadable lines; the settings say which are not the emulator defaults', () => {
  expect(report.input.unreadable).toEqual([{ problem: 'not JSON', count: 25, lines: Array.from({ length: 20 }, (_, i) => 76 + i) }]);
  expect(report.notEmulatorDefaults).toEqual(['invalidRequired']);
  expect(report.k).toBe(k);
  expect(report.version).toBe(1);
});

test('a shape or advice holding <script> is escaped in the HTML; the page has its CSP and no script', () => {
  expect(page).not.toContain('<script');
  expect(page).toContain(escaped(hostileShape));
  expect(page).toContain(escaped(hostileAdvice));
  expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
  expect(page).toContain('How will your users fare?');
  expect(page).toContain('a shape is shown only when at least 5 people share it, counted by user.id');
});

test('the report, and its JSON read back, parse with populationReportSchema; a shape under k does not', () => {
  expect(populationReportSchema.parse(report)).toEqual(report);
  expect(populationReportSchema.parse(JSON.parse(json))).toEqual(report);
  const leaky = structuredClone(report);
  leaky.fixFirst[0]!.shapes.push({ shape: rare[0]!, count: 4 });
  expect(populationReportSchema.safeParse(leaky).success).toBe(false);
});

test('changesMany: an outcome moves by at least 1% of the payloads or by 100 users', () => {
  const many = Object.fromEntries(report.alternatives.map((a) => [a.setting, a.changesMany]));
  expect(many).toEqual({ collectMissingAccountInfo: true, invalidRequired: false, invalidOptional: true });
  const collect = report.alternatives.find((a) => a.setting === 'collectMissingAccountInfo')!;
  expect(collect.value).toBe(false);
  expect(collect.outcomes['error-screen']).toEqual({ count: 200, share: 0.2, change: 150 });
  expect(collect.outcomes['typed-at-sign-on'].change).toBe(-150);
  // 100 users of 1,000,000 is 0.01%, but 100 users.
  const big = (error: number) =>
    populationReport(
      {
        ...summary,
        input: { ...summary.input, payloads: 1_000_000 },
        outcomes: outcomes(999_000, 0, 0, 1000),
        alternatives: { ...summary.alternatives, invalidRequired: outcomes(999_000 - (error - 1000), 0, 0, error) },
      },
      { k },
    ).alternatives.find((a) => a.setting === 'invalidRequired')!.changesMany;
  expect(big(1100)).toBe(true);
  expect(big(1099)).toBe(false);
  expect(page).toContain('id="settings-matter"');
});

test('k below 1 would name every shape: it is refused', () => {
  expect(() => populationReport(summary, { k: 0 })).toThrow(RangeError);
});

test('the console names the outcomes, the top 3 fixes and where the reports are', () => {
  const text = populationConsole(report, { html: '/out/population.html', json: '/out/population.json' });
  expect(text).toContain('700');
  expect(text).toContain('70.0%');
  expect(text).toContain('1. account-info/user.lastName/pattern');
  expect(text).toContain('3. account-info/company.address.postalcode/pattern');
  expect(text).not.toContain('4. ');
  expect(text).toContain('/out/population.html');
  expect(text).toContain('/out/population.json');
  expect(text).not.toContain('\u001b[');
});

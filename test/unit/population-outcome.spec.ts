import { expect, test } from '@playwright/test';
import { accountInfoFieldRules } from '../../checks/account-info';
import { evaluateAll } from '../../checks/finding';
import { fundingSourceRules } from '../../checks/funding-sources';
import type { Payload } from '../../checks/payload';
import { emulatorChoices, signOnDecision, type SignOnSettings } from '../../checks/sign-on-decision';
import { generatePopulation } from '../../population/generate';
import { shapeOf } from '../../population/shape';
import { alternativeSettings, otherWay, type AlternativeSetting, type OutcomeCounts, type OutcomeKey, type Settings } from '../../population/summary-schema';
import { addFundingAnswer, addUser, adviceOf, emptyFunding, emptySummary, noOutcomes, outcomeOf } from '../../population/tally';
import { users } from '../../sandbox/reference-partner/users';
import { edited, omit } from '../support/account-info-payloads';

/** A user's outcome is the platform's decision at sign-on (checks/sign-on-decision.ts) under the run's settings, and each the other way. */

const now = new Date('2026-11-27T00:00:00Z');
const date = '2026-11-27';
const problemsOnly = { problemsOnly: true };
const emulator: SignOnSettings = { collectMissingAccountInfo: false, ...emulatorChoices };
const found = (payload: Payload, collectMissingAccountInfo: boolean) =>
  evaluateAll(accountInfoFieldRules, payload, { now, collectMissingAccountInfo }, problemsOnly);
const decided = (payload: Payload, settings: SignOnSettings) =>
  signOnDecision(payload, { now, collectMissingAccountInfo: settings.collectMissingAccountInfo }, settings);

test('the summary counts each user under its settings and under each setting the other way, from one evaluation', () => {
  const payloads = [
    edited({}),
    edited({ 'user.lastName': "O'Brien" }),
    edited({ 'company.businessType': 'guild' }),
    edited({ 'user.phone': omit }),
    edited({ 'company.legalName': omit }),
    edited({ 'user.email': omit }),
  ];
  const outcomes = (counts: Partial<Record<OutcomeKey, number>>) => ({ ...noOutcomes(), ...counts });
  const strict: Settings = { ...emulator, date };
  const summary = emptySummary(strict);
  payloads.forEach((payload, i) => addUser(summary, payload, found(payload, false), i));
  expect(summary.outcomes).toEqual(outcomes({ 'signs-in': 1, 'asked-before-payment': 1, 'error-screen': 4 }));
  expect(summary.errorReasons).toEqual({ MISSING_REQUIRED_ACCOUNT_INFO: 2, INVALID_ACCOUNT_INFO: 2 });
  expect(summary.beforePayment).toEqual({ users: 1, 'company.legalName': 1 });
  expect(summary.alternatives).toEqual({
    collectMissingAccountInfo: outcomes({ 'signs-in': 1, 'asked-before-payment': 1, 'typed-at-sign-on': 1, 'error-screen': 3 }),
    invalidRequired: outcomes({ 'signs-in': 1, 'asked-before-payment': 1, 'typed-at-sign-on': 1, 'error-screen': 3 }),
    invalidOptional: outcomes({ 'signs-in': 1, 'asked-before-payment': 2, 'error-screen': 3 }),
  });
  const collecting = emptySummary({ ...strict, collectMissingAccountInfo: true });
  payloads.forEach((payload, i) => addUser(collecting, payload, found(payload, true), i));
  expect([collecting.outcomes, collecting.typedFields]).toEqual([
    outcomes({ 'signs-in': 1, 'asked-before-payment': 1, 'typed-at-sign-on': 1, 'error-screen': 3 }),
    { 1: 1 },
  ]);
  expect(collecting.alternatives.collectMissingAccountInfo).toEqual(summary.outcomes);
});

test("on the generator's users (written from the spec alone), every count is signOnDecision's, under the settings and each the other way", () => {
  for (const settings of [emulator, { collectMissingAccountInfo: true, invalidRequired: 'typed-again', invalidOptional: 'dropped' } as const]) {
    const summary = emptySummary({ ...settings, date });
    const expected: Record<'outcomes' | AlternativeSetting, OutcomeCounts> = {
      outcomes: noOutcomes(),
      ...(Object.fromEntries(alternativeSettings.map((setting) => [setting, noOutcomes()])) as Record<AlternativeSetting, OutcomeCounts>),
    };
    for (const payload of generatePopulation({ users: 1000, seed: 4, now })) {
      addUser(summary, payload, found(payload, settings.collectMissingAccountInfo), 0);
      expected.outcomes[outcomeOf(decided(payload, settings))]++;
      for (const setting of alternativeSettings) expected[setting][outcomeOf(decided(payload, { ...settings, [setting]: otherWay(setting, settings) }))]++;
    }
    expect({ outcomes: summary.outcomes, ...summary.alternatives }).toEqual(expected);
    expect(summary.outcomes['error-screen']).toBeGreaterThan(0);
  }
});

test('a funding answer counts every source a rule refuses, past the 20 issues a report lists of one rule', () => {
  const [complete] = users.complete.data().fundingSources as Payload[];
  const sources = Array.from({ length: 30 }, (_, i) => ({ ...complete, id: `fs-${i}`, type: i < 25 ? 'card' : 'ach' }));
  const funding = emptyFunding();
  addFundingAnswer(
    funding,
    { fundingSources: sources },
    evaluateAll(fundingSourceRules, { fundingSources: sources }, { now, collectMissingAccountInfo: false }, problemsOnly),
    0,
  );
  expect([funding.sources, funding.unusableSources, funding.outcomes['some-unusable']]).toEqual([30, 25, 1]);
  expect(funding.rules['funding-sources/type/enum']).toMatchObject({ failed: 1, codes: { enum: 1 } });
});

test("shapes carry no one's letters or digits; advice keeps the harness's words and drops the values", () => {
  expect(shapeOf("O'Brien")).toBe("A'Aaaaa");
  expect(shapeOf('PO Box 12')).toBe('AA Aaa ##');
  expect(shapeOf('(212) 555 0142')).toBe('(###) ### ####');
  expect(shapeOf('José')).toBe('Aaaä');
  expect(shapeOf('x'.repeat(100) + '1'.repeat(100))).toBe('aaaa####################…');
  const payload = edited({ 'user.lastName': "Zyx'Quorble", 'user.dateOfBirth': '2010-03-14' });
  const advice = found(payload, false).map(adviceOf);
  expect(advice.join('\n')).not.toMatch(/Zyx|Quorble|2010|03-14/);
  expect(advice.join('\n')).toContain('"user.lastName" is …; the platform accepts only');
});

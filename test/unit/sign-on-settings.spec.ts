import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { accountInfoFieldRules } from '../../checks/account-info';
import { evaluateAll } from '../../checks/finding';
import type { Payload } from '../../checks/payload';
import {
  decideSignOn,
  emulatorChoices,
  invalidOptionalChoices,
  invalidRequiredChoices,
  signOnDecision,
  type SignOnDecision,
  type SignOnSettings,
} from '../../checks/sign-on-decision';
import { edited, omit } from '../support/account-info-payloads';
import { oddAccountInfo } from '../support/odd-payloads';

/** What the spec leaves open at sign-on (§7), as settings of the platform's decision: each one's effect, and one evaluation serving them all. */

const now = new Date('2026-11-27T00:00:00Z');
const problemsOnly = { problemsOnly: true };
const emulator: SignOnSettings = { collectMissingAccountInfo: false, ...emulatorChoices };
const everySetting: SignOnSettings[] = [false, true].flatMap((collectMissingAccountInfo) =>
  invalidRequiredChoices.flatMap((invalidRequired) =>
    invalidOptionalChoices.map((invalidOptional) => ({ collectMissingAccountInfo, invalidRequired, invalidOptional })),
  ),
);
/** `settings` with each setting the other way. */
const flipped = (settings: SignOnSettings): [string, SignOnSettings][] => [
  ['collectMissingAccountInfo', { ...settings, collectMissingAccountInfo: !settings.collectMissingAccountInfo }],
  ['invalidRequired', { ...settings, invalidRequired: settings.invalidRequired === 'error-screen' ? 'typed-again' : 'error-screen' }],
  ['invalidOptional', { ...settings, invalidOptional: settings.invalidOptional === 'error-screen' ? 'dropped' : 'error-screen' }],
];
const found = (payload: Payload, collectMissingAccountInfo: boolean) =>
  evaluateAll(accountInfoFieldRules, payload, { now, collectMissingAccountInfo }, problemsOnly);
const decided = (payload: Payload, settings: SignOnSettings) =>
  signOnDecision(payload, { now, collectMissingAccountInfo: settings.collectMissingAccountInfo }, settings);
/** A decision as the user meets it: the screen, why, the fields typed and those asked before the first payment. */
const met = (decision: SignOnDecision) =>
  decision.screen === 'error'
    ? { screen: 'error', reason: decision.reason, rules: decision.problems.map((problem) => problem.rule) }
    : {
        screen: decision.screen,
        typed: decision.screen === 'collect' ? decision.fields.map((field) => field.path) : [],
        beforePayment: decision.beforePayment,
      };

test('problems found under either collectMissingAccountInfo decide as signOnDecision does, under each of the 8 settings; each setting moves some users', () => {
  const moves = new Set<string>();
  fc.assert(
    fc.property(oddAccountInfo, fc.boolean(), (payload, foundUnder) => {
      const problems = found(payload, foundUnder);
      for (const settings of everySetting) {
        const decision = decideSignOn(problems, settings);
        expect(met(decision)).toEqual(met(decided(payload, settings)));
        for (const [setting, other] of flipped(settings)) if (decideSignOn(problems, other).screen !== decision.screen) moves.add(setting);
      }
    }),
    { numRuns: 1000 },
  );
  expect([...moves].sort()).toEqual(['collectMissingAccountInfo', 'invalidOptional', 'invalidRequired']);
});

test('collectMissingAccountInfo: a missing Yes* field is typed at sign-on, or the error screen; a missing Yes field is the error screen either way', () => {
  const noPhone = edited({ 'user.phone': omit });
  expect(met(decided(noPhone, emulator))).toEqual({ screen: 'error', reason: 'MISSING_REQUIRED_ACCOUNT_INFO', rules: ['account-info/user.phone/present'] });
  expect(met(decided(noPhone, { ...emulator, collectMissingAccountInfo: true }))).toEqual({ screen: 'collect', typed: ['user.phone'], beforePayment: [] });
  const noEmail = edited({ 'user.email': omit });
  expect(decided(noEmail, { ...emulator, collectMissingAccountInfo: true })).toMatchObject({ screen: 'error', reason: 'MISSING_REQUIRED_ACCOUNT_INFO' });
  for (const settings of everySetting) expect(met(decided(edited({}), settings))).toEqual({ screen: 'app', typed: [], beforePayment: [] });
});

test('invalidRequired: an invalid Yes* value is the error screen, or typed again (an address of the wrong type: its 4 parts); an invalid Yes value is the error screen either way', () => {
  const irish = edited({ 'user.lastName': "O'Brien" });
  const typedAgain = { ...emulator, invalidRequired: 'typed-again' } as const;
  expect(met(decided(irish, emulator))).toEqual({ screen: 'error', reason: 'INVALID_ACCOUNT_INFO', rules: ['account-info/user.lastName/pattern'] });
  expect(met(decided(irish, typedAgain))).toEqual({ screen: 'collect', typed: ['user.lastName'], beforePayment: [] });
  const addressText = edited({ 'company.address': '12 Main Street' });
  const parts = ['line1', 'city', 'state', 'postalcode'].map((part) => `company.address.${part}`);
  expect(met(decided(addressText, typedAgain))).toEqual({ screen: 'collect', typed: parts, beforePayment: [] });
  expect(decided(edited({ 'user.email': 'ada at example' }), typedAgain)).toMatchObject({ screen: 'error', reason: 'INVALID_ACCOUNT_INFO' });
});

test('invalidOptional: an invalid no** value is the error screen, or dropped and asked before the first payment; a no* value dropped is asked for nowhere; a Yes* value is not dropped', () => {
  const guild = edited({ 'company.businessType': 'guild' });
  const dropped = { ...emulator, invalidOptional: 'dropped' } as const;
  expect(met(decided(guild, emulator))).toEqual({ screen: 'error', reason: 'INVALID_ACCOUNT_INFO', rules: ['account-info/company.businessType/enum'] });
  expect(met(decided(guild, dropped))).toEqual({ screen: 'app', typed: [], beforePayment: ['company.businessType'] });
  const naics = edited({ 'company.industry.naicsCode': 1234567 });
  expect(decided(naics, emulator)).toMatchObject({ screen: 'error', reason: 'INVALID_ACCOUNT_INFO' });
  expect(met(decided(naics, dropped))).toEqual({ screen: 'app', typed: [], beforePayment: [] });
  expect(decided(edited({ 'user.lastName': "O'Brien" }), dropped)).toMatchObject({ screen: 'error', reason: 'INVALID_ACCOUNT_INFO' });
});

test('a missing no** field is asked for before the first payment under every setting; with the others, what each setting allows at once', () => {
  for (const settings of everySetting) {
    expect(met(decided(edited({ 'company.legalName': omit }), settings))).toEqual({ screen: 'app', typed: [], beforePayment: ['company.legalName'] });
  }
  const all = edited({ 'user.lastName': "O'Brien", 'company.businessType': 'guild', 'user.phone': omit, 'company.legalName': omit });
  const lenient = { collectMissingAccountInfo: true, invalidRequired: 'typed-again', invalidOptional: 'dropped' } as const;
  expect(met(decided(all, lenient))).toEqual({
    screen: 'collect',
    typed: ['user.lastName', 'user.phone'],
    beforePayment: ['company.businessType', 'company.legalName'],
  });
});

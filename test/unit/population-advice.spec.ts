import { expect, test } from '@playwright/test';
import { accountInfoFieldRules } from '../../checks/account-info';
import { evaluateAll, type Finding } from '../../checks/finding';
import { fundingSourceRules } from '../../checks/funding-sources';
import type { Payload } from '../../checks/payload';
import { shapeOf } from '../../population/shape';
import { adviceOf } from '../../population/tally';
import { edited, omit } from '../support/account-info-payloads';

/**
 * Population advice keeps the rule's own words and numbers and holds nothing of a user's value, in any script (issue
 * 52, items 3 and 8): every rule's advice rendered with planted values.
 */

const now = new Date('2026-11-28T00:00:00Z');
const problems = (payload: Payload, rules = accountInfoFieldRules) =>
  evaluateAll(rules, payload, { now, collectMissingAccountInfo: false }, { problemsOnly: true });
const adviceBy = (findings: Finding[]) => Object.fromEntries(findings.map((finding) => [`${finding.rule}#${finding.code}`, adviceOf(finding)]));

/** Planted values, each failing a rule, in scripts and digits beyond ASCII, with controls that reorder text. */
const planted = {
  'user.lastName': 'Жанна',
  'user.firstName': 'Ωmega',
  'user.phone': '４１５５５５０１３４',
  'company.phoneNumber': '٤١٥-٥٥٥-٠١٣٤',
  'company.address.city': 'Spring\u202Efield\u2067',
  'company.address.line1': 'Rue\u0085 du Lac',
  'company.address.state': 'il',
  'company.legalAddress.state': 'Illinois',
  'company.address.postalcode': '627',
  'user.dateOfBirth': '2010-07-19',
  'company.industry.naicsCode': 98765,
  'company.taxInfo': { type: 'ITIN', identifier: '812-70-4444' },
  'company.businessType': 'Gilde',
  'company.name': '\u200F!',
};
const plantedTexts = [
  'Жанна',
  'Ωmega',
  '４１５',
  '٤١٥',
  'Spring',
  'field',
  'Rue',
  'Lac',
  'il',
  'Illinois',
  '627',
  '2010',
  '07-19',
  '98765',
  '812',
  '4444',
  'Gilde',
];

test("every advice keeps the harness's words and numbers whole, and holds no planted letter, digit or control", () => {
  const findings = problems(edited(planted));
  const advice = adviceBy(findings);
  const all = Object.values(advice).join('\n');
  for (const text of plantedTexts) expect(all, text).not.toContain(text);
  // Nothing raw beyond printable ASCII but the shapes' marks and the harness's own dashes and ellipsis.
  expect(all.replace(/[\x20-\x7e\n]|[ÄäÄ·…–]/g, '')).toBe('');
  expect(advice['account-info/user.lastName/pattern#pattern']).toBe(
    '"user.lastName" is …; the platform accepts only the letters a-z and A-Z, spaces, "-", "," and ".", not "Ä", "ä", "ä"; send the name without them',
  );
  expect(advice['account-info/user.phone/characters#characters']).toBe(
    '"user.phone" is …; it holds "#", "#", "#", "#", "#"; send only digits and "-", "+", "(", ")", "." (e.g. "212-555-0142")',
  );
  expect(advice['account-info/company.address.city/pattern#pattern'] ?? advice['account-info/company.address.city/length#length']).toBeUndefined();
  expect(advice['account-info/company.address.state/code#code']).toBe('"company.address.state" is …; not the uppercase code without "US-"; send "AA"');
  expect(advice['account-info/company.legalAddress.state/code#code']).toBe(
    '"company.legalAddress.state" is …; not a US state or territory code; send the two uppercase letters, e.g. "IL" (docs/REFERENCE-LISTS.md lists them)',
  );
  expect(advice['account-info/company.address.postalcode/length#length']).toBe('"company.address.postalcode" is …; # characters; send at least 5');
  expect(advice['account-info/user.dateOfBirth/age#age']).toBe(
    '"user.dateOfBirth" is …; the user is ## on 2026-11-28; the platform accepts only users aged 18 or older',
  );
  expect(advice['account-info/company.industry.naicsCode/code#code']).toBe(
    '"company.industry.naicsCode" is …; # digits; send a 2, 4 or 6 digit NAICS code (e.g. 54 or 541511)',
  );
  expect(advice['account-info/company.taxInfo.identifier/itin-prefix#itin-prefix']).toBe(
    '"company.taxInfo.identifier" is …; an ITIN, but it starts with "#"; every ITIN starts with 9, so check the type and the number',
  );
  expect(advice['account-info/company.businessType/enum#enum']).toContain(
    'send one of "partnership", "sole-proprietorship", "llc", "corporation", "trust", "non-profit", "municipality", "ngo" (exact case)',
  );
  expect(advice['account-info/company.name/length#length']).toBe('"company.name" is …; # characters; send at least 3');
});

test('a control or bidirectional character is named in a shape, never written; letters and digits of every script are their shapes', () => {
  expect(shapeOf('a\u202Eb')).toBe('aU+202Ea');
  expect(shapeOf('\u0085\u200F\u2067')).toBe('U+0085U+200FU+2067');
  expect(shapeOf('Жанна Ωmega')).toBe('Äääää Äaaaa');
  expect(shapeOf('４١५')).toBe('###');
  expect(shapeOf('😀')).toBe('·');
  // Private-use and unassigned characters (letters of names in Hong Kong's legacy encodings) are letters' shapes, cut as
  // letters are: named, they would spell the name (the round-11 red team's W\uE8C5ng).
  expect(shapeOf('W\uE8C5ng')).toBe('A□aa');
  expect(shapeOf('\uE000\uE001\uE002\uE003\uE004\uE005\u{F0000}\u0378')).toBe('□□□□');
  // Tag characters spell hidden ASCII (U+E0053 is a tagged S): a letter's shape too (the round-13 red team's Jo + SMITH).
  expect(shapeOf(`Jo${[...'SMITH'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}`)).toBe('Aa□□□□');
  expect(shapeOf('\u{E0041}')).toBe('□');
});

test('the advice of a field missing, of the wrong type and of a funding source holds the harness words only', () => {
  const advice = adviceBy(problems(edited({ 'user.phone': omit, 'company.industry.naicsCode': '541611 ' })));
  expect(advice['account-info/user.phone/present#missing']).toBe(
    '"user.phone" is missing and "collectMissingAccountInfo" is off, so sign-on shows the error screen; send it, or turn collectMissingAccountInfo on',
  );
  expect(advice['account-info/company.industry.naicsCode/type#type']).toBe(
    '"company.industry.naicsCode" is a string that holds a number, with white space around it; the endpoint must send it as a JSON number, without quotes or white space',
  );
  const funding = adviceBy(
    problems({ fundingSources: [{ id: 'a', type: 'ach', bankAccountNumber: '1', bankRoutingNumber: '12345678', nickname: 'ﾆ' }, 'x'] }, fundingSourceRules),
  );
  expect(funding['funding-sources/fundingSources/items#items']).toBe(
    '"fundingSources" is …; entries # are not objects; send each source as {"id": …, "type": "ach", …}',
  );
  expect(funding['funding-sources/bankRoutingNumber/aba#aba']).toBe(
    '"fundingSources[0].bankRoutingNumber" is …; not 9 digits; send the 9-digit ABA routing number',
  );
  expect(funding['funding-sources/nickname/length#length']).toBe('"fundingSources[0].nickname" is …; # characters; send 2 to 40, or leave it out');
});

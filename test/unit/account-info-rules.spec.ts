import { accountInfoFieldRules } from '../../checks/account-info';
import { expect, test } from '@playwright/test';
import * as accountAddress from '../../checks/account-info-address';
import * as accountCompany from '../../checks/account-info-company';
import * as accountUser from '../../checks/account-info-user';
import { ageOn } from '../../checks/account-info-user';
import { evaluate, evaluateAll, type Outcome } from '../../checks/finding';
import type { Payload, PayloadContext, PayloadRule } from '../../checks/payload';
import { isPoBox } from '../../checks/po-box';
import { users } from '../../sandbox/reference-partner/users';

const account = { ...accountUser, ...accountCompany, ...accountAddress };

const now = new Date('2026-11-21T12:00:00Z');
const ctx: PayloadContext = { now, collectMissingAccountInfo: false };
const omit = Symbol('omit');

/** The complete user with each path set to its value (or removed), as the partner would send it. */
function edited(edits: Record<string, unknown>): Payload {
  const payload = structuredClone(users.complete.data().accountInfo) as Payload;
  for (const [path, value] of Object.entries(edits)) {
    const steps = path.split('.');
    const last = steps.pop()!;
    const parent = steps.reduce<Record<string, unknown>>((node, step) => node[step] as Record<string, unknown>, payload);
    if (value === omit) delete parent[last];
    else parent[last] = value;
  }
  return payload;
}
const payloadWith = (path: string, value: unknown) => edited({ [path]: value });

const outcomeOf = (rule: PayloadRule, payload: Payload, context = ctx): Outcome[] => evaluate(rule, payload, context).map((f) => f.outcome);

/** [value, outcome] pairs for one rule, on the field the rule reports on. */
function cases(rule: PayloadRule, table: [unknown, Outcome][]) {
  const label = (value: unknown) => (value === omit ? '(absent)' : (JSON.stringify(value) ?? '').replace(/^(.{12}).{4,}(.)$/, '$1…$2'));
  test(`${rule.id}: ${table.map(([value, outcome]) => `${label(value)} → ${outcome}`).join(', ')}`, () => {
    for (const [value, outcome] of table) expect(outcomeOf(rule, payloadWith(rule.field, value)), JSON.stringify(value)).toEqual([outcome]);
  });
}

test.describe('markers decide the outcome of a missing field', () => {
  test('Yes: missing or null fails, even with collectMissingAccountInfo', () => {
    for (const value of [omit, null]) {
      expect(outcomeOf(account.email.present, payloadWith('user.email', value))).toEqual(['failed']);
      expect(outcomeOf(account.email.present, payloadWith('user.email', value), { now, collectMissingAccountInfo: true })).toEqual(['failed']);
    }
  });
  test('Yes*: missing fails without collectMissingAccountInfo and warns with it', () => {
    expect(outcomeOf(account.phone.present, payloadWith('user.phone', omit))).toEqual(['failed']);
    expect(outcomeOf(account.phone.present, payloadWith('user.phone', null), { now, collectMissingAccountInfo: true })).toEqual(['warning']);
    expect(evaluate(account.phone.present, payloadWith('user.phone', omit), { now, collectMissingAccountInfo: true })[0]!.message).toContain(
      'the user is asked to type it',
    );
  });
  test('no** and no*: missing is a note, whatever the profile says', () => {
    expect(outcomeOf(account.taxInfo.present, payloadWith('company.taxInfo', omit))).toEqual(['info']);
    expect(evaluate(account.taxInfo.present, payloadWith('company.taxInfo', omit), ctx)[0]!.message).toContain('before their first payment');
    expect(outcomeOf(account.naicsCode.present, payloadWith('company.industry.naicsCode', omit))).toEqual(['info']);
  });
  test('present but invalid fails for every marker', () => {
    expect(outcomeOf(account.taxId.digits, payloadWith('company.taxInfo.identifier', '12-34'))).toEqual(['failed']);
    expect(outcomeOf(account.naicsCode.code, payloadWith('company.industry.naicsCode', 541))).toEqual(['failed']);
  });
  test('fields under a missing object are skipped, not failed', () => {
    expect(outcomeOf(account.address.city.present, payloadWith('company.address', omit))).toEqual(['skipped']);
  });
});

test.describe('user', () => {
  cases(account.userId.type, [
    ['u-1', 'passed'],
    [1001, 'failed'],
  ]);
  cases(account.userId.nonEmpty, [
    ['u', 'passed'],
    ['', 'failed'],
  ]);
  cases(account.email.format, [
    ['a@example.com', 'passed'],
    ['o.brien@example.co.uk', 'passed'],
    ['a@', 'failed'],
    ['a b@example.com', 'failed'],
    ['example.com', 'failed'],
  ]);
  for (const name of [account.firstName, account.lastName]) {
    cases(name.length, [
      ['Al', 'passed'],
      ['A', 'failed'],
      ['L'.repeat(100), 'passed'],
      ['L'.repeat(101), 'failed'],
    ]);
    cases(name.pattern, [
      ['Mary-Jane', 'passed'],
      ['St. John, Jr.', 'passed'],
      ["O'Brien", 'failed'],
      ['José', 'failed'],
      ['Ada2', 'failed'],
    ]);
  }
  cases(account.phone.characters, [
    ['212-555-0142', 'passed'],
    ['+1(212)555.0142', 'passed'],
    ['212 555 0142', 'failed'],
    ['212-555-0142 x1', 'failed'],
  ]);
  cases(account.phone.digits, [
    ['212-555-014', 'passed'],
    ['21255501', 'failed'],
    ['2125-5501', 'failed'],
  ]);
  cases(account.phone.usNumber, [
    ['212-555-0142', 'passed'],
    ['787-555-0101', 'passed'],
    ['123-456-7890', 'failed'],
    ['+44-20-7946-0958', 'failed'],
    ['+1-416-555-0199', 'failed'],
  ]);
  test('a phone with a space is judged by its digits too, so both its problems show in one run; one too short is said so', () => {
    const judged = (phone: string) =>
      evaluateAll([account.phone.characters, account.phone.usNumber], payloadWith('user.phone', phone), ctx).map(
        (f) => `${f.rule.split('/').at(-1)}: ${f.outcome}`,
      );
    expect(judged('(555) 010-0199')).toEqual(['characters: failed', 'us-number: failed']);
    expect(judged('(212) 555-0142')).toEqual(['characters: failed', 'us-number: passed']);
    const [short] = evaluateAll([account.phone.usNumber], payloadWith('user.phone', '555-0142'), ctx);
    expect(short).toMatchObject({
      outcome: 'skipped',
      message: '"user.phone" has fewer than 9 digits, which its digits rule names; a number is judged once it has them',
    });
  });
  cases(account.dateOfBirth.format, [
    ['1985-12-10', 'passed'],
    ['1985-12-10T00:00:00Z', 'failed'],
    ['12/10/1985', 'failed'],
    ['1985-1-10', 'failed'],
  ]);
  cases(account.dateOfBirth.calendarDate, [
    ['2000-02-29', 'passed'],
    ['1900-02-29', 'failed'],
    ['1985-02-30', 'failed'],
    ['1985-13-01', 'failed'],
  ]);
});

test.describe('age on the run date (UTC)', () => {
  const age = (dateOfBirth: string) => outcomeOf(account.dateOfBirth.age, payloadWith('user.dateOfBirth', dateOfBirth));
  test('18 on the day of the 18th birthday, 17 the day before', () => {
    expect(age('2008-11-21')).toEqual(['passed']);
    expect(age('2008-11-22')).toEqual(['failed']);
  });
  test('119 years and 364 days passes; the 120th birthday fails', () => {
    expect(age('1906-11-22')).toEqual(['passed']);
    expect(age('1906-11-21')).toEqual(['failed']);
  });
  test('the run date is taken in UTC, not in local time', () => {
    const lateEvening = new Date('2026-11-21T23:30:00Z');
    expect(ageOn('2008-11-21', lateEvening)).toBe(18);
    expect(ageOn('2008-11-22', new Date('2026-11-21T00:00:00Z'))).toBe(17);
  });
  test('a 29 February birthday is reached on 1 March in common years, on 29 February in leap years', () => {
    expect(ageOn('2008-02-29', new Date('2026-02-28T12:00:00Z'))).toBe(17);
    expect(ageOn('2008-02-29', new Date('2026-03-01T12:00:00Z'))).toBe(18);
    expect(ageOn('2012-02-29', new Date('2032-02-28T12:00:00Z'))).toBe(19);
    expect(ageOn('2012-02-29', new Date('2032-02-29T12:00:00Z'))).toBe(20); // a leap year: the birthday itself
    expect(ageOn('2012-02-29', new Date('2030-02-28T12:00:00Z'))).toBe(17);
    expect(ageOn('2012-02-29', new Date('2030-03-01T12:00:00Z'))).toBe(18);
    expect(ageOn('2004-02-29', new Date('2022-02-28T12:00:00Z'))).toBe(17);
    expect(ageOn('1992-02-29', new Date('2010-02-28T12:00:00Z'))).toBe(17);
    expect(ageOn('2000-02-29', new Date('2018-03-01T00:00:00Z'))).toBe(18);
  });
});

test.describe('company', () => {
  cases(account.companyName.length, [
    ['ACE', 'passed'],
    ['AE', 'failed'],
  ]);
  cases(account.companyName.alphanumerics, [
    ['A1 & Co', 'passed'],
    ['A & .', 'failed'],
    ['&&&', 'failed'],
  ]);
  cases(account.businessType.enum, [
    ['sole-proprietorship', 'passed'],
    ['ngo', 'passed'],
    ['LLC', 'failed'],
    ['limited', 'failed'],
  ]);
  cases(account.taxType.enum, [
    ['EIN', 'passed'],
    ['ein', 'failed'],
    ['TIN', 'failed'],
  ]);
  cases(account.taxId.digits, [
    ['123456789', 'passed'],
    ['12-3456789', 'passed'],
    ['12-345678', 'failed'],
    ['12 3456789', 'failed'],
    ['1234567890', 'passed'],
  ]);
  cases(account.naicsCode.type, [
    [541511, 'passed'],
    ['541511', 'failed'],
  ]);
  cases(account.naicsCode.code, [
    [10, 'passed'],
    [9, 'failed'],
    [99, 'passed'],
    [100, 'failed'],
    [999, 'failed'],
    [1000, 'passed'],
    [9999, 'passed'],
    [10000, 'failed'],
    [99999, 'failed'],
    [100000, 'passed'],
    [999999, 'passed'],
    [1000000, 'failed'],
    [5415.5, 'failed'],
  ]);
  cases(account.naicsCode.sector, [
    [541511, 'passed'],
    [31, 'passed'],
    [92, 'passed'],
    [991234, 'warning'],
    [10, 'warning'],
  ]);

  const taxed = (type: string, identifier: string, businessType = 'sole-proprietorship') =>
    edited({ 'company.businessType': businessType, 'company.taxInfo': { type, identifier } });
  test('SSN or ITIN only with trust or sole-proprietorship', () => {
    expect(outcomeOf(account.taxType.businessType, taxed('SSN', '123-45-6789', 'trust'))).toEqual(['passed']);
    expect(outcomeOf(account.taxType.businessType, taxed('ITIN', '912-70-1234'))).toEqual(['passed']);
    expect(outcomeOf(account.taxType.businessType, taxed('SSN', '123-45-6789', 'llc'))).toEqual(['failed']);
    expect(outcomeOf(account.taxType.businessType, taxed('EIN', '12-3456789', 'llc'))).toEqual(['skipped']);
  });
  test('an ITIN starts with 9', () => {
    expect(outcomeOf(account.taxId.itinPrefix, taxed('ITIN', '912-70-1234'))).toEqual(['passed']);
    expect(outcomeOf(account.taxId.itinPrefix, taxed('ITIN', '870-70-1234'))).toEqual(['failed']);
    expect(outcomeOf(account.taxId.itinPrefix, taxed('SSN', '870-70-1234'))).toEqual(['passed']);
  });
  test('plausibility: SSN area, ITIN group, EIN prefix (SHOULD)', () => {
    for (const area of ['000', '666', '900', '999']) expect(outcomeOf(account.taxId.ssnArea, taxed('SSN', `${area}-12-3456`)), area).toEqual(['warning']);
    for (const area of ['001', '665', '667', '899']) expect(outcomeOf(account.taxId.ssnArea, taxed('SSN', `${area}-12-3456`)), area).toEqual(['passed']);
    for (const group of ['50', '65', '70', '88', '90', '92', '94', '99'])
      expect(outcomeOf(account.taxId.itinGroup, taxed('ITIN', `900-${group}-1234`)), group).toEqual(['passed']);
    for (const group of ['49', '66', '69', '89', '93'])
      expect(outcomeOf(account.taxId.itinGroup, taxed('ITIN', `900-${group}-1234`)), group).toEqual(['warning']);
    for (const prefix of ['01', '06', '10', '27', '48', '50', '68', '71', '77', '80', '88', '95', '98', '99'])
      expect(outcomeOf(account.taxId.einPrefix, taxed('EIN', `${prefix}-3456789`, 'llc')), prefix).toEqual(['passed']);
    for (const prefix of ['00', '07', '09', '17', '19', '28', '29', '49', '69', '70', '78', '79', '89', '96', '97'])
      expect(outcomeOf(account.taxId.einPrefix, taxed('EIN', `${prefix}-3456789`, 'llc')), prefix).toEqual(['warning']);
  });
  test('tax identifiers never appear whole in a message', () => {
    const [finding] = evaluate(account.taxId.digits, taxed('EIN', '98765432', 'llc'), ctx);
    expect(finding!.message).not.toContain('98765432');
    expect(finding!.message).toContain('5432');
  });
});

test.describe('Address object, for both addresses', () => {
  for (const address of [account.address, account.legalAddress]) {
    cases(address.line1.length, [
      ['1 A St', 'passed'],
      ['', 'failed'],
    ]);
    cases(address.line1.poBox, [
      ['12 Main Street', 'passed'],
      ['PO Box 12', 'failed'],
    ]);
    cases(address.line1.houseNumber, [
      ['12 Main Street', 'passed'],
      ['Main Street', 'warning'],
    ]);
    cases(address.city.length, [
      ['X', 'passed'],
      ['', 'failed'],
    ]);
    cases(address.state.code, [
      ['IL', 'passed'],
      ['DC', 'passed'],
      ['PR', 'passed'],
      ['UM', 'passed'],
      ['il', 'failed'],
      ['US-IL', 'failed'],
      ['Illinois', 'failed'],
      ['ON', 'failed'],
    ]);
    cases(address.postalcode.length, [
      ['62701', 'passed'],
      ['6270', 'failed'],
      ['62701-1234', 'passed'],
    ]);
    cases(address.postalcode.pattern, [
      ['62701 1234', 'passed'],
      ['K1A 0B1', 'failed'],
    ]);
  }
  test('either spelling of the postal code is accepted and named; two different values fail', () => {
    const both = payloadWith('company.address.postalcode', '62704');
    expect(outcomeOf(account.address.postalcode.spelling, both)).toEqual(['failed']);
    const same = payloadWith('company.address.postalcode', '62701');
    expect(outcomeOf(account.address.postalcode.spelling, same)).toEqual(['info']);
    const lower = payloadWith('company.address', { line1: '1 A St', city: 'X', state: 'IL', postalcode: '62701' });
    expect(evaluate(account.address.postalcode.spelling, lower, ctx)[0]!.message).toContain('spelled "postalcode"');
    expect(outcomeOf(account.address.postalcode.present, lower)).toEqual(['passed']);
  });
});

test.describe('the PO-box detector', () => {
  const positives = [
    'PO Box 123',
    'P.O. Box 123',
    'P O Box 123',
    'PO-Box 123',
    'POBOX 123',
    'P0 Box 123',
    'P.O.B. 123',
    'POB 123',
    'Post Office Box 123',
    'Post Box 123',
    'p/o box 123',
    'Box #123',
    'Box 123',
    'po box 9',
    'P. O. Box 77',
    'p.o.box 5',
    'PO. Box 12',
    'Caller 4521',
    'Caller Box 12',
    'Drawer 20',
    'Drawer #3',
    'Lockbox 330',
    'Lock Box 45',
    'Firm Caller 7',
    'Postbox 14',
    'P O B 88',
    'Box No. 9',
    '123 Main St PO Box 5',
    'PO BOX 1000',
    'P.O.Box 77',
    'Pob 12',
    'POST OFFICE BOX 5',
  ];
  const negatives = [
    '12 Boxwood Lane',
    '400 Box Elder Street',
    '9 Box Canyon Road',
    '77 Boxer Avenue',
    '1 Xbox Way',
    '15 Jukebox Road',
    '88 Sandbox Court',
    '3 Box Turtle Trail',
    '100 Post Office Square',
    '5 Post Oak Boulevard',
    '21 Post Road',
    '61 Postal Way',
    '1 Poblano Way',
    '18 Pollard Road',
    '450 Po River Drive',
    '32 Drawbridge Road',
    '7 Callery Pear Lane',
    '14 Office Park Drive',
    '500 Pine Box Alley',
    '23 Boxford Road',
    '1600 Pennsylvania Avenue NW',
    '350 Fifth Avenue',
    '1 Infinite Loop',
    '742 Evergreen Terrace',
    '221B Baker Street',
    '55 Lockwood Drive',
    '8 Pob Hill',
    '90 Poe Street',
    '16 Bayview Terrace',
    '2 Opportunity Boulevard',
    '10 Boxborough Road',
  ];
  test(`flags all ${positives.length} PO-box forms`, () => {
    expect(positives.length).toBeGreaterThanOrEqual(30);
    expect(positives.filter((line) => !isPoBox(line))).toEqual([]);
  });
  test(`passes all ${negatives.length} street addresses`, () => {
    expect(negatives.length).toBeGreaterThanOrEqual(30);
    expect(negatives.filter(isPoBox)).toEqual([]);
  });
});

test('extra "company.phoneNumber" is checked by the phone rules at SHOULD level', () => {
  expect(outcomeOf(account.companyPhone.characters, payloadWith('company.phoneNumber', '212 555 0199'))).toEqual(['warning']);
  expect(outcomeOf(account.companyPhone.usNumber, payloadWith('company.phoneNumber', '212-555-0199'))).toEqual(['passed']);
  expect(outcomeOf(account.companyPhone.type, payloadWith('company.phoneNumber', omit))).toEqual(['skipped']);
});

test('a rule never throws, whatever the payload', () => {
  const weird: unknown[] = [{}, { user: null }, { user: [] }, { company: { address: 'x', taxInfo: [1] } }, { user: { dateOfBirth: '0000-00-00' } }];
  for (const payload of weird) for (const rule of accountInfoFieldRules) expect(() => rule.check(payload as Payload, ctx)).not.toThrow();
});

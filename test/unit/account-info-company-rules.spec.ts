import { expect, test } from '@playwright/test';
import { evaluate } from '../../checks/finding';
import { account, cases, ctx, edited, omit, outcomeOf, payloadWith } from '../support/account-info-payloads';

test.describe('company', () => {
  test(
    ...cases(account.companyName.length, [
      ['ACE', 'passed'],
      ['AE', 'failed'],
    ]),
  );
  test(
    ...cases(account.companyName.alphanumerics, [
      ['A1 & Co', 'passed'],
      ['A & .', 'failed'],
      ['&&&', 'failed'],
    ]),
  );
  test(
    ...cases(account.businessType.enum, [
      ['sole-proprietorship', 'passed'],
      ['ngo', 'passed'],
      ['LLC', 'failed'],
      ['limited', 'failed'],
    ]),
  );
  test(
    ...cases(account.taxType.enum, [
      ['EIN', 'passed'],
      ['ein', 'failed'],
      ['TIN', 'failed'],
    ]),
  );
  test(
    ...cases(account.taxId.digits, [
      ['123456789', 'passed'],
      ['12-3456789', 'passed'],
      ['12-345678', 'failed'],
      ['12 3456789', 'failed'],
      ['1234567890', 'passed'],
    ]),
  );
  test(
    ...cases(account.naicsCode.type, [
      [541511, 'passed'],
      ['541511', 'failed'],
    ]),
  );
  test(
    ...cases(account.naicsCode.code, [
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
    ]),
  );
  test(
    ...cases(account.naicsCode.sector, [
      [541511, 'passed'],
      [31, 'passed'],
      [92, 'passed'],
      [991234, 'warning'],
      [10, 'warning'],
    ]),
  );

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

test('extra "company.phoneNumber" is checked by the phone rules at SHOULD level', () => {
  expect(outcomeOf(account.companyPhone.characters, payloadWith('company.phoneNumber', '212 555 0199'))).toEqual(['warning']);
  expect(outcomeOf(account.companyPhone.usNumber, payloadWith('company.phoneNumber', '212-555-0199'))).toEqual(['passed']);
  expect(outcomeOf(account.companyPhone.type, payloadWith('company.phoneNumber', omit))).toEqual(['skipped']);
});

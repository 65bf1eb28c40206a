import { expect, test } from '@playwright/test';
import { evaluate } from '../../checks/finding';
import { isPoBox } from '../../checks/po-box';
import { account, cases, ctx, outcomeOf, payloadWith } from '../support/account-info-payloads';

test.describe('Address object, for both addresses', () => {
  for (const address of [account.address, account.legalAddress]) {
    test(
      ...cases(address.line1.length, [
        ['1 A St', 'passed'],
        ['', 'failed'],
      ]),
    );
    test(
      ...cases(address.line1.poBox, [
        ['12 Main Street', 'passed'],
        ['PO Box 12', 'failed'],
      ]),
    );
    test(
      ...cases(address.line1.houseNumber, [
        ['12 Main Street', 'passed'],
        ['Main Street', 'warning'],
      ]),
    );
    test(
      ...cases(address.city.length, [
        ['X', 'passed'],
        ['', 'failed'],
      ]),
    );
    test(
      ...cases(address.state.code, [
        ['IL', 'passed'],
        ['DC', 'passed'],
        ['PR', 'passed'],
        ['UM', 'passed'],
        ['il', 'failed'],
        ['US-IL', 'failed'],
        ['Illinois', 'failed'],
        ['ON', 'failed'],
      ]),
    );
    test(
      ...cases(address.postalcode.length, [
        ['62701', 'passed'],
        ['6270', 'failed'],
        ['62701-1234', 'passed'],
      ]),
    );
    test(
      ...cases(address.postalcode.pattern, [
        ['62701 1234', 'passed'],
        ['K1A 0B1', 'failed'],
      ]),
    );
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

  test('a line of thousands of spaces between the letters of "P O Box" is judged at once, not backtracked over for minutes', () => {
    expect(isPoBox(`p${' '.repeat(100_000)}o${' '.repeat(100_000)}x`)).toBe(false);
    expect(isPoBox(`p${' \t'.repeat(100_000)}o. box 12`)).toBe(true);
  });
});

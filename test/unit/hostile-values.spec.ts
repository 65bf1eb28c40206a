import { expect, test } from '@playwright/test';
import { accountInfoFieldRules } from '../../checks/account-info';
import { evaluateAll } from '../../checks/finding';
import { ctx, edited } from '../support/account-info-payloads';

/**
 * Every check is linear in its input: each text field of account information given values of 200,000 characters
 * built to make a careless regular expression backtrack (runs of white space, separators, punctuation, marks between
 * the letters a pattern looks for). A quadratic rule takes minutes here, past the test's timeout.
 */

const paths = [
  'user.firstName',
  'user.lastName',
  'user.phone',
  'user.email',
  'user.dateOfBirth',
  'company.name',
  'company.phoneNumber',
  'company.address.line1',
  'company.address.city',
  'company.address.state',
  'company.address.postalCode',
  'company.taxInfo.identifier',
];
const n = 100_000;
const hostile = [
  `a${' '.repeat(n)}b`,
  ' -'.repeat(n),
  `${'.'.repeat(2 * n)}!`,
  `${'1-'.repeat(n)}x`,
  `p${' .'.repeat(n)}o`,
  `${'ä'.repeat(n)}\u0301`,
  `a@${'b.'.repeat(n)}`,
];

test('each text field judged on values built to backtrack, in linear time', () => {
  for (const at of paths)
    for (const value of hostile) {
      const problems = evaluateAll(accountInfoFieldRules, edited({ [at]: value }), ctx, { problemsOnly: true });
      expect(problems.length, `${at}: ${value.slice(0, 8)}`).toBeGreaterThan(0);
    }
});

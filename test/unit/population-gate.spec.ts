import { expect, test } from '@playwright/test';
import { crossed, parseFailIf } from '../../population/fail-if';
import { binaryKind, headerProblem, inputRefusal, nearestPath } from '../../population/input-gate';
import { emptyInput, noOutcomes } from '../../population/tally';
import { dateProblem } from '../../population/option-checks';

/** The population gate's rules, alone (the command's exits: test/self/population-gate.spec.ts). */

const paths = ['user.id', 'user.firstName', 'user.lastName', 'company.legalName', 'company.address.postalcode', 'company.address.postalCode'];

test('a column name is matched to the spec path it most likely means, or to none', () => {
  expect(nearestPath('first_name', paths)).toBe('user.firstName');
  expect(nearestPath('LegalName', paths)).toBe('company.legalName');
  expect(nearestPath('postal-code', paths)).toBe('company.address.postalcode');
  expect(nearestPath('lastname1', paths)).toBe('user.lastName');
  expect(nearestPath('ssn', paths)).toBeUndefined();
  expect(nearestPath('x', paths)).toBeUndefined();
  // One spec path among unknown columns is enough: the others are ignored as today.
  expect(headerProblem(['id', 'user.firstName'], new Set(paths))).toBeUndefined();
  // A header no identifier: none of it is named.
  expect(headerProblem(['Ann Lee 415 555 0134'], new Set(paths))).not.toContain('Ann');
  expect(headerProblem(['Zqorbla', 'Quixote', 'zq@example.com'], new Set(paths))).not.toMatch(/Zq|Quix|example/);
});

test('binary inputs are known by their first bytes; text is not', () => {
  expect(binaryKind(Buffer.from('SQLite format 3\0…'))).toBe('a SQLite database');
  expect(binaryKind(Buffer.from('PAR1xyz'))).toBe('a Parquet file');
  expect(binaryKind(Buffer.from('{"user": {}}\n'))).toBeUndefined();
  expect(binaryKind(Buffer.from('user.id,user.firstName\n'))).toBeUndefined();
  expect(binaryKind(Buffer.from('\ufeffuser.id'))).toBeUndefined();
  expect(binaryKind(Buffer.from('u\0s\0e\0r\0'))).toBe('binary data (or text in UTF-16)');
});

test('--fail-if: a share or a number of users, crossed only above it', () => {
  const gate = parseFailIf('error-screen>5%');
  expect(gate).toEqual({ outcome: 'error-screen', bound: { share: 0.05 }, text: 'error-screen>5%' });
  expect(parseFailIf('error-screen>120%')).toBe('--fail-if error-screen>120%: a share is at most 100%');
  expect(parseFailIf('signs-in>2.5')).toBe('--fail-if signs-in>2.5: a number of users is whole; for a share, add %');
  const outcomes = { ...noOutcomes(), 'signs-in': 95, 'error-screen': 5 };
  expect(crossed([gate as Exclude<typeof gate, string>], outcomes)).toEqual([]);
  expect(crossed([parseFailIf('error-screen>4') as Exclude<typeof gate, string>], outcomes)).toEqual([
    '--fail-if error-screen>4: 5 of 100 users (5.0%) meet error-screen',
  ]);
});

test('an input is refused when it held no record to judge, or more unreadable than the bound', () => {
  expect(inputRefusal(emptyInput(), 0.01)).toBe('no record judged: the input is empty; export one account-information object a user');
  const some = { ...emptyInput(), payloads: 99, unreadable: { 'not-json': 1 }, unreadableLines: { 'not-json': [7] } };
  expect(inputRefusal(some, 0.01)).toBeUndefined();
  expect(inputRefusal({ ...some, unreadable: { 'not-json': 2 } }, 0.01)).toBe(
    '2 of 101 records (2%) could not be judged (not-json, first at line 7), more than --max-unreadable 1%: fix the export, or raise --max-unreadable',
  );
});

test('--now is a real calendar day', () => {
  expect(dateProblem('2024-02-29')).toBeUndefined();
  expect(dateProblem('2025-02-30')).toBe('--now 2025-02-30: give a real date as YYYY-MM-DD');
  expect(dateProblem('2025-2-3')).toBe('--now 2025-2-3: give a real date as YYYY-MM-DD');
});

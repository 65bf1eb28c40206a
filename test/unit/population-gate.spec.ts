import { expect, test } from '@playwright/test';
import { Share, crossed, parseFailIf, shareOf } from '../../population/fail-if';
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
  // One NUL in a record of a text export is that record's problem, not the file's (the sixteenth red team).
  const records = Array.from({ length: 40 }, (_, i) => JSON.stringify({ user: { id: `u${i}`, firstName: i === 2 ? 'An\0n' : 'Zoë' } }));
  expect(binaryKind(Buffer.from(records.join('\n')))).toBeUndefined();
  expect(binaryKind(Buffer.from(`[${records.join(',')}]`))).toBeUndefined();
  expect(binaryKind(Buffer.from(`user.id,user.firstName\nu1,An\0n\nu2,Bo\n`))).toBeUndefined();
  expect(binaryKind(Buffer.from(records.join('\n'), 'utf16le'))).toBe('binary data (or text in UTF-16)');
  expect(binaryKind(Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919 + 13) % 256)))).toBe('binary data (or text in UTF-16)');
});

test('--fail-if: a share or a number of users, crossed only above it', () => {
  const gate = parseFailIf('error-screen>5%');
  expect(gate).toEqual({ outcome: 'error-screen', bound: { share: new Share('5') }, text: 'error-screen>5%' });
  expect(parseFailIf('error-screen>120%')).toBe('--fail-if error-screen>120%: a share is at most 100%');
  expect(parseFailIf('signs-in>2.5')).toBe('--fail-if signs-in>2.5: a number of users is whole; for a share, add %');
  // A fraction a double cannot hold is still one (the sixteenth red team): 66.9999999999999999 read as 67.
  expect(parseFailIf('error-screen>66.9999999999999999')).toBe('--fail-if error-screen>66.9999999999999999: a number of users is whole; for a share, add %');
  expect(parseFailIf('error-screen>67.00')).toMatchObject({ bound: { users: 67 } });
  expect(parseFailIf('error-screen>9007199254740993')).toBe('--fail-if error-screen>9007199254740993: a number of users is at most 9,007,199,254,740,991');
  const outcomes = { ...noOutcomes(), 'signs-in': 95, 'error-screen': 5 };
  expect(crossed([gate as Exclude<typeof gate, string>], outcomes)).toEqual([]);
  expect(crossed([parseFailIf('error-screen>4') as Exclude<typeof gate, string>], outcomes)).toEqual([
    '--fail-if error-screen>4: 5 of 100 users (5.0%) meet error-screen',
  ]);
});

test('a share is compared exactly as written: a run exactly at its bound does not cross it (the fifteenth red team)', () => {
  const outcomes = { ...noOutcomes(), 'signs-in': 993, 'error-screen': 7 };
  const gate = (text: string) => parseFailIf(text) as Exclude<ReturnType<typeof parseFailIf>, string>;
  expect(crossed([gate('error-screen>0.7%')], outcomes)).toEqual([]);
  expect(crossed([gate('error-screen>0.69999%')], outcomes)).toEqual(['--fail-if error-screen>0.69999%: 7 of 1,000 users (0.7%) meet error-screen']);
  // Every bound from 0.1% to 99.9%, each at a run of 1,000 users exactly at it: 7 / 1000 > 0.7 / 100 in floating point.
  for (let tenths = 1; tenths < 1000; tenths++) {
    const percent = (tenths / 10).toFixed(1);
    const share = shareOf('max-unreadable', `${percent}%`) as Share;
    expect({ percent, at: share.exceededBy(tenths, 1000), above: share.exceededBy(tenths + 1, 1000) }).toEqual({ percent, at: false, above: true });
  }
  expect(new Share('100').exceededBy(5, 5)).toBe(false);
  expect(new Share('0').exceededBy(0, 0)).toBe(false);
});

test('an input is refused when it held no record to judge, or more unreadable than the bound', () => {
  expect(inputRefusal(emptyInput(), new Share('1'))).toBe('no record judged: the input is empty; export one account-information object a user');
  const some = { ...emptyInput(), payloads: 99, unreadable: { 'not-json': 1 }, unreadableLines: { 'not-json': [7] } };
  expect(inputRefusal(some, new Share('1'))).toBeUndefined();
  expect(inputRefusal({ ...some, unreadable: { 'not-json': 2 } }, new Share('1'))).toBe(
    '2 of 101 records (2%) could not be judged (not-json, first at line 7), more than --max-unreadable 1%: fix the export, or raise --max-unreadable',
  );
});

test('--now is a real calendar day', () => {
  expect(dateProblem('2024-02-29')).toBeUndefined();
  expect(dateProblem('2025-02-30')).toBe('--now 2025-02-30: give a real date as YYYY-MM-DD');
  expect(dateProblem('2025-2-3')).toBe('--now 2025-2-3: give a real date as YYYY-MM-DD');
  // A date no one's ages are judged on (the eighteenth red team's --now 0000-01-01).
  expect(dateProblem('0000-01-01')).toBe('--now 0000-01-01: give a date from 1900-01-01 on');
  expect(dateProblem('1900-01-01')).toBeUndefined();
});

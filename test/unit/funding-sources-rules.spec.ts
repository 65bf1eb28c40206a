import { expect, test } from '@playwright/test';
import { evaluate, type Outcome } from '../../checks/finding';
import * as funding from '../../checks/funding-sources';
import type { Payload, PayloadRule } from '../../checks/payload';
import { abaChecksumValid } from '../../checks/reference-data';
import { accountInfoConsistent, fundingSourceIdsStable, fundingSourcesResource } from '../../checks/resources';

const ctx = { now: new Date('2026-11-21T12:00:00Z'), collectMissingAccountInfo: false };
const source = {
  id: 'fs-1',
  type: 'ach',
  nickname: 'Operating',
  bankAccountNumber: '000123456789',
  bankRoutingNumber: '011000015',
  accountNumberLast4Digits: '6789',
};
const body = (...sources: unknown[]): Payload => ({ fundingSources: sources });
const outcomes = (rule: PayloadRule, payload: Payload) => evaluate(rule, payload, ctx).map((f) => f.outcome);

function cases(rule: PayloadRule, property: string, table: [unknown, Outcome][]) {
  test(`${rule.id}: ${table.map(([value, outcome]) => `${JSON.stringify(value)} → ${outcome}`).join(', ')}`, () => {
    for (const [value, outcome] of table) expect(outcomes(rule, body({ ...source, [property]: value })), JSON.stringify(value)).toEqual([outcome]);
  });
}

cases(funding.type.enum, 'type', [
  ['ach', 'passed'],
  ['ACH', 'failed'],
  ['card', 'failed'],
]);
cases(funding.nickname.length, 'nickname', [
  ['Op', 'passed'],
  ['O', 'failed'],
  ['N'.repeat(40), 'passed'],
  ['N'.repeat(41), 'failed'],
]);
cases(funding.last4.digits, 'accountNumberLast4Digits', [
  ['6789', 'passed'],
  ['678', 'failed'],
  ['56789', 'failed'],
  ['67a9', 'failed'],
]);
cases(funding.last4.matchesAccount, 'accountNumberLast4Digits', [
  ['6789', 'passed'],
  ['4321', 'info'],
]);
cases(funding.routingNumber.aba, 'bankRoutingNumber', [
  ['011000015', 'passed'],
  ['021000021', 'passed'],
  ['011000016', 'warning'],
  ['01100001', 'warning'],
]);
cases(funding.accountNumber.fullNumber, 'bankAccountNumber', [
  ['000123456789', 'passed'],
  ['X7Y123456789', 'passed'],
  ['12345', 'passed'],
  ['****6789', 'warning'],
  ['XXXXXX6789', 'warning'],
  ['xxxx6789', 'warning'],
  ['•••• 6789', 'warning'],
  ['...6789', 'warning'],
  ['##6789', 'warning'],
  ['6789', 'warning'],
  ['789', 'warning'],
]);
cases(funding.id.nonEmpty, 'id', [
  ['x', 'passed'],
  ['', 'failed'],
]);

test('the ABA checksum weighs the digits 3, 7, 1', () => {
  for (const valid of ['011000015', '021000021', '121000358', '026009593']) expect(abaChecksumValid(valid), valid).toBe(true);
  for (const invalid of ['011000016', '123456789', '02100002', '0210000211', 'abcdefghi']) expect(abaChecksumValid(invalid), invalid).toBe(false);
});

test('an empty list is valid, and item rules have nothing to judge', () => {
  expect(outcomes(funding.fundingSources.present, body())).toEqual(['passed']);
  expect(outcomes(funding.id.present, body())).toEqual(['passed']);
  expect(outcomes(funding.id.unique, body())).toEqual(['skipped']);
});

test('ids are unique within the list, and each duplicate is named by index', () => {
  const findings = evaluate(funding.id.unique, body(source, { ...source }), ctx);
  expect(findings.map((f) => [f.outcome, f.field])).toEqual([
    ['failed', 'fundingSources[0].id'],
    ['failed', 'fundingSources[1].id'],
  ]);
  expect(outcomes(funding.id.unique, body(source, { ...source, id: 'fs-2' }))).toEqual(['passed']);
});

test('either spelling of the nickname is accepted; two different values fail', () => {
  expect(outcomes(funding.nickname.spelling, body({ ...source, nickname: undefined, nickName: 'Payroll' }))).toEqual(['info']);
  expect(outcomes(funding.nickname.length, body({ ...source, nickname: undefined, nickName: 'P' }))).toEqual(['failed']);
  expect(outcomes(funding.nickname.spelling, body({ ...source, nickName: 'Other' }))).toEqual(['failed']);
});

test('bank account numbers never appear in a message', () => {
  const messages = [
    ...evaluate(funding.accountNumber.type, body({ ...source, bankAccountNumber: 123456789012 }), ctx),
    ...evaluate(funding.last4.matchesAccount, body({ ...source, accountNumberLast4Digits: '4321' }), ctx),
  ].map((f) => f.message);
  for (const message of messages) expect(message).not.toMatch(/123456789012|000123456789/);
});

test('ids stay the same across two calls; user and company ids too', () => {
  const once = body(source, { ...source, id: 'fs-2' });
  expect(evaluate(fundingSourceIdsStable, { first: once, second: structuredClone(once) }, undefined)[0]!.outcome).toBe('passed');
  const renamed = body(source, { ...source, id: 'fs-2b' });
  expect(evaluate(fundingSourceIdsStable, { first: once, second: renamed }, undefined)[0]!.message).toContain('dropped "fs-2" and added "fs-2b"');
  const info = { user: { id: 'u-1' }, company: { id: 'c-1' } };
  expect(evaluate(accountInfoConsistent, { first: info, second: { ...info, user: { id: 'u-2' } } }, undefined).map((f) => [f.outcome, f.field])).toEqual([
    ['failed', 'user.id'],
  ]);
});

test('null values are named one by one (SHOULD)', () => {
  const findings = evaluate(fundingSourcesResource.nullValues, body({ ...source, nickname: null }, { ...source, id: null }), undefined);
  expect(findings.map((f) => [f.outcome, f.field])).toEqual([
    ['warning', 'fundingSources[0].nickname'],
    ['warning', 'fundingSources[1].id'],
  ]);
});

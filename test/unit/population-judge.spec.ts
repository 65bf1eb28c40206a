import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { accountInfoFieldRules } from '../../checks/account-info';
import { evaluateAll } from '../../checks/finding';
import { fundingSourceRules } from '../../checks/funding-sources';
import type { Payload } from '../../checks/payload';
import { signOnDecision } from '../../checks/sign-on-decision';
import { generatePopulation } from '../../population/generate';
import { problemsOf } from '../../population/judge';
import { userOutcome } from '../../population/outcome';
import { shapeOf } from '../../population/shape';
import { adviceOf } from '../../population/tally';
import { users } from '../../sandbox/reference-partner/users';

/** The population's fast path is the certification's rules: the same problems, and the platform's own decision. */

const now = new Date('2026-11-27T00:00:00Z');
const paths = [
  'user',
  'user.id',
  'user.email',
  'user.firstName',
  'user.lastName',
  'user.phone',
  'user.dateOfBirth',
  'company',
  'company.id',
  'company.name',
  'company.address',
  'company.address.line1',
  'company.address.state',
  'company.address.postalCode',
  'company.legalAddress.city',
  'company.legalName',
  'company.businessType',
  'company.taxInfo',
  'company.taxInfo.type',
  'company.taxInfo.identifier',
  'company.industry.naicsCode',
  'company.phoneNumber',
];
const oddValue = fc.oneof(
  fc.constantFrom<unknown>(
    undefined,
    null,
    '',
    "O'Brien",
    'José',
    'PO Box 12',
    '212 555 0142',
    '2008-11-28',
    '1906-11-27',
    'XX',
    'ITIN',
    'llc',
    '9123',
    12,
    5,
    1234567,
  ),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.constant({}),
);
const payloads = fc.array(fc.tuple(fc.constantFrom(...paths), oddValue), { maxLength: 4 }).map((edits) => {
  const payload = structuredClone(users.complete.data().accountInfo) as Payload;
  for (const [path, value] of edits) {
    const steps = path.split('.');
    const last = steps.pop()!;
    let node: Record<string, unknown> = payload;
    for (const step of steps) {
      if (typeof node[step] !== 'object' || node[step] === null) node[step] = {};
      node = node[step] as Record<string, unknown>;
    }
    if (value === undefined) delete node[last];
    else node[last] = value;
  }
  return payload;
});

test('the fast path finds what evaluateAll finds, rule by rule, and the outcome is the platform decision at sign-on', () => {
  fc.assert(
    fc.property(payloads, fc.boolean(), (payload, collectMissingAccountInfo) => {
      const ctx = { now, collectMissingAccountInfo };
      const fast = problemsOf(payload, ctx).flatMap(({ rule, issues }) => issues.map(({ issue, outcome }) => `${rule.id} ${issue.code} ${outcome}`));
      const slow = evaluateAll(accountInfoFieldRules, payload, ctx)
        .filter((f) => f.code !== undefined && (f.outcome === 'failed' || f.outcome === 'warning' || (f.outcome === 'info' && f.rule.endsWith('/present'))))
        .map((f) => `${f.rule} ${f.code} ${f.outcome}`);
      expect(fast).toEqual(slow);
      const decision = signOnDecision(payload, ctx);
      const user = userOutcome(problemsOf(payload, ctx), { collectMissingAccountInfo, invalidRequired: 'error-screen', invalidOptional: 'error-screen' });
      if (decision.screen === 'error') expect(user).toMatchObject({ outcome: 'error-screen', reason: decision.reason });
      else if (decision.screen === 'collect') expect(user).toMatchObject({ outcome: 'typed-at-sign-on', typed: decision.fields.length });
      else expect(['signs-in', 'asked-before-payment']).toContain(user.outcome);
    }),
    { numRuns: 3000 },
  );
});

test("on the generator's users (written from the spec alone), each outcome is the platform's decision at sign-on", () => {
  for (const collectMissingAccountInfo of [false, true]) {
    const ctx = { now, collectMissingAccountInfo };
    for (const payload of generatePopulation({ users: 1000, seed: 4, now })) {
      const decision = signOnDecision(payload, ctx);
      const user = userOutcome(problemsOf(payload, ctx), { collectMissingAccountInfo, invalidRequired: 'error-screen', invalidOptional: 'error-screen' });
      const expected = decision.screen === 'error' ? 'error-screen' : decision.screen === 'collect' ? 'typed-at-sign-on' : user.outcome;
      expect([user.outcome, user.typed], JSON.stringify(payload)).toEqual([expected, decision.screen === 'collect' ? decision.fields.length : 0]);
    }
  }
});

test('the fast path finds what evaluateAll finds on funding-sources answers too', () => {
  const item = fc.record(
    {
      id: fc.oneof(fc.constantFrom('fs-1', 'fs-2', ''), fc.integer()),
      type: fc.constantFrom<unknown>('ach', 'card', null),
      nickname: fc.string({ maxLength: 45 }),
      nickName: fc.constantFrom('Payroll', 'x'),
      bankAccountNumber: fc.constantFrom<unknown>('000123456789', '', 42),
      bankRoutingNumber: fc.constantFrom<unknown>('011000015', '123456789', 'abc'),
      accountNumberLast4Digits: fc.constantFrom<unknown>('6789', '12', 6789),
    },
    { requiredKeys: [] },
  );
  const answer = fc.oneof(
    fc.record({ fundingSources: fc.array(fc.oneof(item, fc.constant<unknown>('text')), { maxLength: 4 }) }),
    fc.constant({}),
    fc.constant({ fundingSources: 'none' }),
  );
  fc.assert(
    fc.property(answer, (payload) => {
      const ctx = { now, collectMissingAccountInfo: false };
      const fast = problemsOf(payload, ctx, 'funding-sources').flatMap(({ rule, issues }) =>
        issues.map(({ issue, outcome }) => `${rule.id} ${issue.code} ${outcome}`),
      );
      const slow = evaluateAll(fundingSourceRules, payload, ctx)
        .filter((f) => f.code !== undefined && (f.outcome === 'failed' || f.outcome === 'warning' || (f.outcome === 'info' && f.rule.endsWith('/present'))))
        .map((f) => `${f.rule} ${f.code} ${f.outcome}`);
      expect(fast).toEqual(slow);
    }),
    { numRuns: 1000 },
  );
});

test('the settings the spec leaves open: an invalid Yes* value typed again, an invalid no** value dropped', () => {
  const payload = structuredClone(users.complete.data().accountInfo) as Payload;
  (payload.user as Payload).lastName = "O'Brien";
  (payload.company as Payload).businessType = 'guild';
  const problems = problemsOf(payload, { now, collectMissingAccountInfo: false });
  const emulator = { collectMissingAccountInfo: false, invalidRequired: 'error-screen', invalidOptional: 'error-screen' } as const;
  expect(userOutcome(problems, emulator)).toMatchObject({ outcome: 'error-screen', reason: 'INVALID_ACCOUNT_INFO' });
  expect(userOutcome(problems, { ...emulator, invalidOptional: 'dropped' })).toMatchObject({ outcome: 'error-screen' });
  expect(userOutcome(problems, { ...emulator, invalidRequired: 'typed-again', invalidOptional: 'dropped' })).toEqual({
    outcome: 'typed-at-sign-on',
    typed: 1,
    beforePayment: ['company.businessType'],
  });
});

test("shapes carry no one's letters or digits; advice keeps the harness's words and drops the values", () => {
  expect(shapeOf("O'Brien")).toBe("A'Aaaaa");
  expect(shapeOf('PO Box 12')).toBe('AA Aaa ##');
  expect(shapeOf('(212) 555 0142')).toBe('(###) ### ####');
  expect(shapeOf('José')).toBe('Aaaä');
  expect(shapeOf('x'.repeat(100) + '1'.repeat(100))).toBe('aaaa####################…');
  const payload = structuredClone(users.complete.data().accountInfo) as Payload;
  (payload.user as Payload).lastName = "Zyx'Quorble";
  (payload.user as Payload).dateOfBirth = '2010-03-14';
  const advice = problemsOf(payload, { now, collectMissingAccountInfo: false }).flatMap((problem) =>
    problem.issues.map(({ issue }) => adviceOf(problem, issue)),
  );
  expect(advice.join('\n')).not.toMatch(/Zyx|Quorble|2010|03-14/);
  expect(advice.join('\n')).toContain('"user.lastName" is …; the platform accepts only');
});

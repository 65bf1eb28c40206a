import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { accountInfoFieldRules } from '../../checks/account-info';
import { evaluate, evaluateAll, type Finding, type Issue, type Rule } from '../../checks/finding';
import { fundingSourceRules } from '../../checks/funding-sources';
import type { Payload, PayloadRule } from '../../checks/payload';
import { users } from '../../sandbox/reference-partner/users';
import { oddAccountInfo, oddFundingAnswer } from '../support/odd-payloads';

/** evaluateAll's problems-only mode (what a decision or a count reads) against its full evaluation (what a report shows). */

const now = new Date('2026-11-27T00:00:00Z');
const problemsOnly = { problemsOnly: true };
const neitherPassedNorSkipped = (findings: readonly Finding[]) => findings.filter((f) => f.outcome !== 'passed' && f.outcome !== 'skipped');
/** The findings without the advice problems-only mode adds for the population check (checks/told.ts). */
const withoutAdvice = (findings: readonly Finding[]) => findings.map(({ advice: _, ...finding }) => finding);

test('problems only: the findings of the full evaluation that neither passed nor were skipped, on odd account information', () => {
  const seen = new Set<string>();
  fc.assert(
    fc.property(oddAccountInfo, fc.boolean(), (payload, collectMissingAccountInfo) => {
      const ctx = { now, collectMissingAccountInfo };
      const problems = evaluateAll(accountInfoFieldRules, payload, ctx, problemsOnly);
      expect(withoutAdvice(problems)).toEqual(neitherPassedNorSkipped(evaluateAll(accountInfoFieldRules, payload, ctx)));
      for (const { outcome } of problems) seen.add(outcome);
    }),
    { numRuns: 3000 },
  );
  // The payloads gave the mode something of every kind to keep.
  expect([...seen].sort()).toEqual(['failed', 'info', 'warning']);
});

test('problems only: the same on odd funding-sources answers', () => {
  fc.assert(
    fc.property(oddFundingAnswer, (payload) => {
      const ctx = { now, collectMissingAccountInfo: false };
      expect(withoutAdvice(evaluateAll(fundingSourceRules, payload, ctx, problemsOnly))).toEqual(
        neitherPassedNorSkipped(evaluateAll(fundingSourceRules, payload, ctx)),
      );
    }),
    { numRuns: 1000 },
  );
});

test('past 20 issues of one rule, problems only lists every one (a count reads them all); a report lists 20 and counts the rest', () => {
  const [complete] = users.complete.data().fundingSources as Payload[];
  const sources = Array.from({ length: 30 }, (_, i) => ({ ...complete, id: `fs-${i}`, type: i < 25 ? 'card' : 'ach' }));
  const payload = { fundingSources: sources };
  const ctx = { now, collectMissingAccountInfo: false };
  const typeRefused = (findings: Finding[]) => findings.filter((f) => f.rule === 'funding-sources/type/enum' && f.outcome === 'failed');
  const full = typeRefused(evaluateAll(fundingSourceRules, payload, ctx));
  expect(full).toHaveLength(21);
  expect(full[20]!.message).toMatch(/^and 5 more like these/);
  const problems = typeRefused(evaluateAll(fundingSourceRules, payload, ctx, problemsOnly));
  expect(problems.map((f) => f.field)).toEqual(sources.slice(0, 25).map((_, i) => `fundingSources[${i}].type`));
});

// Two rules on one thing found in the input (`n`), and a third on something else: as field rules are.
function rulesOn(locate: (input: { n: number }) => number) {
  const clause = accountInfoFieldRules[0]!.clause;
  const rule = (id: string, judge: (n: number) => Issue[], find = locate): Rule<{ n: number }, void> => ({
    id,
    owner: 'partner',
    field: 'n',
    clause,
    level: 'MUST',
    requirement: 'n is judged',
    impact: 'none',
    locate: find,
    judgeAt: (where) => judge(where as number),
    check: (input) => judge(find(input)),
  });
  const small = rule('n/small', (n) => (n < 10 ? [] : [{ code: 'large', message: `${n} is large` }]));
  const even = rule('n/even', (n) => (n % 2 === 0 ? [] : [{ code: 'odd', message: `${n} is odd` }]));
  const named = rule(
    'name/present',
    () => [],
    () => 0,
  );
  return [small, even, named];
}

test('rules listed one after another with the same locate find once for all; when it throws, each crashes as its own check would', () => {
  let calls = 0;
  const counted = rulesOn((input) => (calls++, input.n));
  const findings = evaluateAll(counted, { n: 11 }, undefined);
  expect(calls).toBe(1);
  const byCheck = counted.flatMap((rule) => evaluate({ ...rule, locate: undefined, judgeAt: undefined }, { n: 11 }, undefined));
  expect(findings).toEqual(byCheck);
  expect(findings.map((f) => f.outcome)).toEqual(['failed', 'failed', 'passed']);

  const throwing = rulesOn(() => {
    calls++;
    throw new Error('boom');
  });
  calls = 0;
  const crashed = evaluateAll(throwing, { n: 1 }, undefined);
  expect(calls).toBe(2);
  expect(crashed).toEqual(throwing.flatMap((rule) => evaluate({ ...rule, locate: undefined, judgeAt: undefined }, { n: 1 }, undefined)));
  expect(crashed.map((f) => [f.rule, f.code])).toEqual([
    ['n/small', 'rule-crashed'],
    ['n/even', 'rule-crashed'],
    ['name/present', undefined],
  ]);
});

test('every field rule has the same keys in the same order (checks/payload.ts fieldRule), so evaluateAll reads them as one shape', () => {
  const shapes = new Set([...accountInfoFieldRules, ...fundingSourceRules].map((rule: PayloadRule) => Object.keys(rule).join()));
  expect([...shapes]).toEqual(['judges,id,owner,field,clause,level,must,requirement,impact,subject,schema,locate,judgeAt,check']);
});

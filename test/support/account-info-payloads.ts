import { expect } from '@playwright/test';
import * as accountAddress from '../../checks/account-info-address';
import * as accountCompany from '../../checks/account-info-company';
import * as accountUser from '../../checks/account-info-user';
import { evaluate, type Outcome } from '../../checks/finding';
import type { Payload, PayloadContext, PayloadRule } from '../../checks/payload';
import { users } from '../../sandbox/reference-partner/users';

/** What the account-information rule tests share: every field's rules, the complete user edited path by path, and a table of cases for one rule. */

export const account = { ...accountUser, ...accountCompany, ...accountAddress };

export const now = new Date('2026-11-21T12:00:00Z');
export const ctx: PayloadContext = { now, collectMissingAccountInfo: false };
export const omit = Symbol('omit');

/** The complete user with each path set to its value (or removed), as the partner would send it. */
export function edited(edits: Record<string, unknown>): Payload {
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
export const payloadWith = (path: string, value: unknown) => edited({ [path]: value });

export const outcomeOf = (rule: PayloadRule, payload: Payload, context = ctx): Outcome[] => evaluate(rule, payload, context).map((f) => f.outcome);

/**
 * [value, outcome] pairs for one rule, on the field the rule reports on: a test's title and body, which the spec
 * file hands to `test()` itself (`test(...cases(rule, table))`), so that the test's location is the spec's.
 */
export function cases(rule: PayloadRule, table: [unknown, Outcome][]): [string, () => void] {
  const label = (value: unknown) => (value === omit ? '(absent)' : (JSON.stringify(value) ?? '').replace(/^(.{12}).{4,}(.)$/, '$1…$2'));
  return [
    `${rule.id}: ${table.map(([value, outcome]) => `${label(value)} → ${outcome}`).join(', ')}`,
    () => {
      for (const [value, outcome] of table) expect(outcomeOf(rule, payloadWith(rule.field, value)), JSON.stringify(value)).toEqual([outcome]);
    },
  ];
}

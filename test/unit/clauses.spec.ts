import { expect, test } from '@playwright/test';
import { clauses } from '../../checks/clauses';
import { tokenExchangeRules } from '../../checks/token-exchange';
import { tokenTransportRules } from '../../probes/token-exchange';

const allRules = [...tokenExchangeRules, ...tokenTransportRules];

test('every rule cites a clause of the catalogue', () => {
  const unknown = allRules.filter((rule) => !Object.hasOwn(clauses, rule.clause)).map((rule) => `${rule.id} → ${rule.clause}`);
  expect(unknown).toEqual([]);
});

test('every clause of the catalogue is cited by some rule', () => {
  const cited = new Set(allRules.map((rule) => rule.clause));
  const uncited = Object.keys(clauses).filter((clause) => !cited.has(clause as keyof typeof clauses));
  expect(uncited).toEqual([]);
});

test('rule ids are unique and read endpoint/name', () => {
  const ids = allRules.map((rule) => rule.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).toMatch(/^[a-z-]+\/[a-z0-9.-]+$/);
});

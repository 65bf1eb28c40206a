import { expect, test } from '@playwright/test';
import { allRules } from '../../checks/catalogue';
import { clauses } from '../../checks/clauses';

test('every rule cites a clause of the catalogue', () => {
  const unknown = allRules.filter((rule) => !Object.hasOwn(clauses, rule.clause)).map((rule) => `${rule.id} → ${rule.clause}`);
  expect(unknown).toEqual([]);
});

test('every clause of the catalogue is cited by some rule', () => {
  const cited = new Set(allRules.map((rule) => rule.clause));
  const uncited = Object.keys(clauses).filter((clause) => !cited.has(clause as keyof typeof clauses));
  expect(uncited).toEqual([]);
});

test('rule ids are unique and read endpoint/name or endpoint/field/name', () => {
  const ids = allRules.map((rule) => rule.id);
  expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  for (const id of ids) expect(id).toMatch(/^[a-z-]+\/([a-zA-Z0-9.-]+\/)?[a-z0-9-]+$/);
});

import { readFileSync } from 'node:fs';
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

test('every spec clause names a heading of the spec copy in docs/spec/', () => {
  // As test262 lints its esids: "spec §2.3 Address" must point at a section 2.3 that exists. Sections
  // without subsections number their paragraphs ("## 5. Authentication", then "1. …"): §5.1 is the first.
  const headings = new Set<string>();
  let section = '';
  for (const line of readFileSync('docs/spec/partner-sso-spec.md', 'utf8').split('\n')) {
    const heading = /^#{2,3} (\d+(?:\.\d+)?)\.? /.exec(line);
    if (heading) headings.add((section = heading[1]!));
    const item = /^(\d+)\. /.exec(line);
    if (item && !section.includes('.')) headings.add(`${section}.${item[1]}`);
  }
  const missing = Object.keys(clauses)
    .filter((clause) => clause.startsWith('spec §'))
    .filter((clause) => !headings.has(/^spec §(\d+(?:\.\d+)?)/.exec(clause)![1]!));
  expect(headings.size).toBeGreaterThan(10);
  expect(missing).toEqual([]);
});

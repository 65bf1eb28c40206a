import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { edited } from '../support/account-info-payloads';
import { tempDir } from '../support/temp';

/**
 * Your columns, not ours (issue 52, item 5), through the real command: a CSV of the engineer's own column names is
 * read through a map, a column left unmapped is named with the spec path it most likely means, and a number cell
 * with a space around it is told so, in words about cells, not JSON types.
 */

const cli = [path.resolve('node_modules/tsx/dist/cli.mjs'), path.resolve('scripts/population.ts')];
const population = (args: string[]) => spawnSync(process.execPath, [...cli, ...args, '--now', '2026-11-28'], { encoding: 'utf8' });

/** The complete user's fields under the engineer's own names, and the spec path each holds. */
const columns: Record<string, string> = {
  id: 'user.id',
  email: 'user.email',
  first_name: 'user.firstName',
  last_name: 'user.lastName',
  phone: 'user.phone',
  dob: 'user.dateOfBirth',
  company_id: 'company.id',
  company_name: 'company.name',
  street: 'company.address.line1',
  city: 'company.address.city',
  state: 'company.address.state',
  zip: 'company.address.postalCode',
  legal_street: 'company.legalAddress.line1',
  legal_city: 'company.legalAddress.city',
  legal_state: 'company.legalAddress.state',
  legal_zip: 'company.legalAddress.postalCode',
  naics: 'company.industry.naicsCode',
};

test("a CSV of one's own column names: refused without a map, naming the paths meant; read through --columns and --column; a number cell with a space told so", () => {
  const dir = tempDir('population-columns-');
  const user = edited({});
  const valueAt = (spec: string) => spec.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], user);
  const names = [...Object.keys(columns), 'legal_name'];
  const row = (i: number) =>
    names
      .map((name) => (name === 'legal_name' ? 'Acme Holdings LLC' : name === 'naics' && i % 2 === 0 ? '541611 ' : String(valueAt(columns[name]!))))
      .join(',');
  const input = path.join(dir, 'customers.csv');
  writeFileSync(input, [names.join(','), ...Array.from({ length: 10 }, (_, i) => row(i))].join('\n'));

  const unmapped = population([input, '--out', path.join(dir, 'unmapped')]);
  expect(unmapped.status).toBe(1);
  expect(unmapped.stderr).toMatch(/none of the CSV's 18 columns is a spec path; .*did you mean .*first_name → user\.firstName/);

  const { naics: _, ...mapped } = columns;
  const map = path.join(dir, 'map.json');
  writeFileSync(map, JSON.stringify(mapped));
  const run = population([input, '--columns', map, '--column', 'naics=company.industry.naicsCode', '--k', '1', '--out', path.join(dir, 'out')]);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain(
    'Not read: 1 CSV column names no spec path, so no rule reads it: legal_name (did you mean company.legalName?); map a column of your own name with --column <name>=<spec path>',
  );
  const report = JSON.parse(readFileSync(path.join(dir, 'out', 'population.json'), 'utf8')) as {
    outcomes: Record<string, { count: number }>;
    fixFirst: { rule: string; users: number; advice: { text: string }[] }[];
  };
  // Every user read in full: the five with a spaced NAICS cell are refused for it alone, the others sign in.
  expect(report.fixFirst.map((fix) => [fix.rule, fix.users])).toEqual([['account-info/company.industry.naicsCode/type', 5]]);
  expect(report.outcomes['error-screen']!.count).toBe(5);
  expect(report.fixFirst.find((fix) => fix.rule.endsWith('naicsCode/type'))!.advice[0]!.text).toBe(
    '"company.industry.naicsCode" is a string that holds a number, with white space around it; the endpoint must send it as a JSON number, without quotes or white space',
  );
  const wrong = population([input, '--column', 'naics=company.naics']);
  expect(wrong.status).toBe(2);
  expect(wrong.stderr.split('\n')[0]).toMatch(/^--column naics=company\.naics: company\.naics is not a spec path/);
});

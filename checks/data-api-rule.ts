import type { ClauseId } from './clauses';
import type { Issue, MustGrounds, Rule } from './finding';

/** How a rule of the data API is built and graded: the platform's, MUST with its grounds or SHOULD with why. */

const impact = 'partners that sync data through the API miss records or process them twice';

/** A MUST with its grounds (DESIGN §4), or a SHOULD with why it is no more: what the spec leaves open is our emulator's choice. */
export type Grading = { must: MustGrounds } | { should: string };
const spec22 = { spec: 'spec §2.2 and §4.1 rule 4: the page envelope and its cursor' };
export const openChoice = (what: string): Grading => ({ should: `the spec leaves ${what} open ("not shown"): this is the emulator's choice` });

export const rule = <I>(
  id: string,
  clause: ClauseId,
  field: string,
  requirement: string,
  check: (input: I) => Issue[],
  grading: Grading = { must: spec22 },
  emulatorChoice?: Rule<I>['emulatorChoice'],
): Rule<I> => ({
  id: `data-api/${id}`,
  owner: 'platform',
  field,
  clause,
  ...('must' in grading
    ? { level: 'MUST' as const, must: grading.must }
    : { level: 'SHOULD' as const, levelWhy: grading.should, emulatorChoice: { what: grading.should.replace(/^the spec leaves (.*) open .*$/, '$1') } }),
  ...(emulatorChoice ? { emulatorChoice } : {}),
  requirement,
  impact,
  check,
});

import type { ClauseId } from './clauses';
import type { JsonResponse } from './evidence';
import type { Issue, Rule } from './finding';
import { openChoice, rule, type Grading } from './data-api-rule';
import { envelopeOf } from './data-api-walk';

/** The requests the data API refuses: without valid credentials, without a needed filter, with invalid parameters. */

/** A refusal of a request without valid credentials: its failure serves the data to anyone (DESIGN §4 (b)). */
const guards = <I>(rule: Rule<I>): Rule<I> => ({
  ...rule,
  level: 'MUST',
  impact: "anyone can read the partner's organizations, bills, payments and vendors without a valid token",
  must: {
    othersIn: "anyone without a valid token reads the partner's data",
    spec: 'spec §5.1: the data API needs a bearer token (RFC 6750 §3: 401, or 403 for a token without the right)',
  },
});

/** A request the API must refuse with `status`, or serve as the profile says this platform does. */
export interface Refused {
  case: string;
  response: JsonResponse;
  /** Served, not refused: an empty last page, or a page of at most this many items (dataApi.unknownCursor, overLimit). */
  served?: 'empty' | number;
  /** Refused with this status, as the profile states this API does (dataApi.parameterErrorStatus). */
  status?: number;
}

/** What is wrong with a request answered rather than refused, as the profile says the platform does. */
function servedIssues(what: string, response: JsonResponse, served: 'empty' | number): Issue[] {
  const envelope = response.status === 200 ? envelopeOf(response) : undefined;
  const expected = served === 'empty' ? 'an empty last page' : `a page of at most ${served} items`;
  if (!envelope) return [{ code: 'status', message: `a request ${what} was answered ${response.status}; the profile says this API serves ${expected}` }];
  const fits = served === 'empty' ? envelope.items.length === 0 && envelope.hasMore === false : envelope.items.length <= served;
  return fits
    ? []
    : [
        {
          code: 'served',
          message: `a request ${what} was served ${envelope.items.length} items${envelope.hasMore ? ', with more to come' : ''}; the profile says this API serves ${expected}`,
        },
      ];
}

const refusal = (
  id: string,
  clause: ClauseId,
  field: string,
  requirement: string,
  accepted: readonly number[],
  grading?: Grading,
  emulatorChoice?: Rule<readonly Refused[]>['emulatorChoice'],
) =>
  rule<readonly Refused[]>(
    id,
    clause,
    field,
    requirement,
    (cases) =>
      cases.flatMap(({ case: what, response, served, status }): Issue[] => {
        if (served !== undefined) return servedIssues(what, response, served);
        const wanted = status === undefined ? accepted : [status];
        // The status only: the body of a refusal is the platform's own (spec §7.4 "not shown").
        return wanted.includes(response.status)
          ? []
          : [{ code: 'not-refused', message: `a request ${what} was answered ${response.status}; refuse it with ${wanted.join(' or ')}` }];
      }),
    grading,
    emulatorChoice,
  );

export const missingTokenRefused = guards(
  refusal('auth/missing-token', 'spec §5.1', 'authorization', 'a request without a Bearer token is refused with 401 or 403', [401, 403]),
);
export const invalidTokenRefused = guards(
  refusal('auth/invalid-token', 'spec §5.1', 'authorization', 'a request with an invalid Bearer token is refused with 401 or 403', [401, 403]),
);
export const filterRequired = refusal(
  'filter/required',
  'spec §4.1',
  'organizationId',
  'a listing that needs a filter refuses a request without one with 400',
  [400],
  openChoice('which listings need a filter (spec §4.1 rule 1)'),
  { field: 'dataApi.filterRequired', what: 'which listings need a filter' },
);
export const invalidLimitRefused = refusal(
  'params/limit',
  'spec §2.2',
  'limit',
  'an invalid "limit" is refused with 400; one over the largest is refused too, or served at the largest where dataApi.overLimit says "clamped"',
  [400],
  openChoice('the largest "limit" and the answer to an invalid one (spec §8)'),
  { field: 'dataApi.overLimit', what: 'the largest "limit" and the answer to one over it' },
);
export const invalidAfterRefused = refusal(
  'params/after',
  'spec §2.2',
  'after',
  'an "after" that is no id of the listing is refused with 400, or is an empty last page where dataApi.unknownCursor says "empty"',
  [400],
  openChoice('the answer to an unknown cursor (spec §7.4)'),
  { field: 'dataApi.unknownCursor', what: 'the answer to an unknown cursor' },
);

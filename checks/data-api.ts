import type { ClauseId } from './clauses';
import { isObject, jsonObject, jsonType, type JsonResponse } from './evidence';
import type { Issue, MustGrounds, Rule } from './finding';

/**
 * Rules of the platform's read-only data API (spec §2.2, §4.1, §5.1; DESIGN §5 "Data API"), judged on
 * pages a probe walked. A walk is plain data: every page's answer, in order, and why it stopped.
 */

export interface WalkedPage {
  /** The query, as sent: `limit=100&after=bill_0000042`. */
  query: string;
  response: JsonResponse;
}

export interface Walk {
  /** The `limit` sent, or undefined for the endpoint's default. */
  limit?: number;
  pages: WalkedPage[];
  /** Why the walk ended before a page said `hasMore: false`, if it did. */
  cutShort?: string;
}

export const defaultLimitRange = { min: 20, max: 50 } as const;
const impact = 'partners that sync data through the API miss records or process them twice';

interface Envelope {
  items: unknown[];
  hasMore: unknown;
  next: unknown;
}

/** The page's envelope, when its body is a JSON object with an `items` array. */
export function envelopeOf(response: JsonResponse): Envelope | undefined {
  const body = jsonObject(response);
  return body && Array.isArray(body.items) ? { items: body.items, hasMore: body.hasMore, next: body.next } : undefined;
}

const idOf = (item: unknown) => (isObject(item) && typeof item.id === 'string' ? item.id : undefined);
export const idsOfWalk = (walk: Walk) =>
  walk.pages.flatMap(({ response }) => (envelopeOf(response)?.items ?? []).map(idOf)).filter((id): id is string => id !== undefined);
const nextAfter = (envelope: Envelope) => (isObject(envelope.next) ? envelope.next.after : undefined);

/** A MUST with its grounds (DESIGN §4), or a SHOULD with why it is no more: what the spec leaves open is our emulator's choice. */
type Grading = { must: MustGrounds } | { should: string };
const spec22 = { spec: 'spec §2.2 and §4.1 rule 4: the page envelope and its cursor' };
const openChoice = (what: string): Grading => ({ should: `the spec leaves ${what} open ("not shown"): this is the emulator's choice` });

const rule = <I>(
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

export const envelopeShape = rule<Walk>(
  'envelope',
  'spec §2.2',
  'items',
  'every page is 200 with a JSON object {items: [...], hasMore: boolean, next: {after}}',
  (walk) => {
    for (const { query, response } of walk.pages) {
      const envelope = envelopeOf(response);
      if (response.status !== 200) return [{ message: `the page "${query}" answered ${response.status}; answer 200` }];
      if (!envelope) return [{ message: `the page "${query}" has no "items" array; answer {"items": [...], "hasMore": …, "next": {"after": …}}` }];
      if (typeof envelope.hasMore !== 'boolean')
        return [{ field: 'hasMore', message: `"hasMore" is ${jsonType(envelope.hasMore)} on the page "${query}"; send true or false` }];
      if (envelope.items.length > 0 && typeof nextAfter(envelope) !== 'string')
        return [{ field: 'next.after', message: `"next.after" is missing on the page "${query}"; send the id of its last item` }];
    }
    return [];
  },
);

export const noDuplicates = rule<Walk>('walk/no-duplicates', 'spec §2.2', 'items[].id', 'walking every page serves each item once', (walk) => {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of idsOfWalk(walk)) (seen.has(id) ? twice : seen).add(id);
  return twice.size === 0 ? [] : [{ message: `${twice.size} items came twice (first "${[...twice][0]}"); start the next page right after "after"` }];
});

export const walksAgree = rule<{ walk: Walk; other: Walk }>(
  'walk/complete',
  'spec §2.2',
  'items[].id',
  'walks with different page sizes serve the same items: none is lost at a page boundary',
  ({ walk, other }) => {
    const [a, b] = [new Set(idsOfWalk(walk)), new Set(idsOfWalk(other))];
    const onlyA = [...a].filter((id) => !b.has(id));
    const onlyB = [...b].filter((id) => !a.has(id));
    if (onlyA.length === 0 && onlyB.length === 0) return [];
    const label = (w: Walk) => (w.limit === undefined ? 'the default limit' : `limit ${w.limit}`);
    return [
      {
        message: `${onlyA.length + onlyB.length} items were served to only one walk (${label(walk)}: ${a.size} items, ${label(other)}: ${b.size}; e.g. "${onlyA[0] ?? onlyB[0]}"); the page after "after" must start right after that item`,
      },
    ];
  },
);

export const cursorIsLastId = rule<Walk>('walk/cursor', 'spec §2.2', 'next.after', '"next.after" is the id of the page\'s last item', (walk) => {
  for (const { query, response } of walk.pages) {
    const envelope = envelopeOf(response);
    const last = envelope && idOf(envelope.items.at(-1));
    if (!envelope || last === undefined || nextAfter(envelope) === last) continue;
    return [
      { message: `"next.after" is ${JSON.stringify(nextAfter(envelope))} on the page "${query}", whose last item is "${last}"; send the last item's id` },
    ];
  }
  return [];
});

export const lastPageEnds = rule<Walk>('walk/last-page', 'spec §2.2', 'hasMore', 'the last page says "hasMore": false', (walk) => {
  if (walk.cutShort) return [{ message: `the walk never reached a page with "hasMore": false: ${walk.cutShort}` }];
  const last = walk.pages.at(-1);
  const envelope = last && envelopeOf(last.response);
  return envelope?.hasMore === false ? [] : [{ message: `the last page "${last?.query}" says "hasMore": ${JSON.stringify(envelope?.hasMore)}; send false` }];
});

export const limitRespected = rule<Walk>('walk/limit', 'spec §2.2', 'limit', 'no page holds more items than "limit"', (walk) => {
  const over = walk.pages.find(({ response }) => walk.limit !== undefined && (envelopeOf(response)?.items.length ?? 0) > walk.limit);
  return over ? [{ message: `the page "${over.query}" holds ${envelopeOf(over.response)!.items.length} items for "limit" ${walk.limit}` }] : [];
});

export const defaultLimit = rule<Walk>(
  'walk/default-limit',
  'spec §8',
  'limit',
  `without "limit", a page holds ${defaultLimitRange.min} to ${defaultLimitRange.max} items (spec §8)`,
  (walk) => {
    const first = walk.pages[0] && envelopeOf(walk.pages[0].response);
    if (!first || first.hasMore !== true) return [];
    const size = first.items.length;
    return size >= defaultLimitRange.min && size <= defaultLimitRange.max
      ? []
      : [{ message: `the first page without "limit" holds ${size} items; default to ${defaultLimitRange.min}–${defaultLimitRange.max}` }];
  },
  { must: { spec: 'spec §4.1 and §8: the default page size is 20 to 50' } },
);

export const organizationFilter = rule<{ walk: Walk; organizationId: string; field?: string }>(
  'filter/organization',
  'spec §4.1',
  'organizationId',
  'every item served for "organizationId" belongs to that organization',
  ({ walk, organizationId, field = 'organizationId' }) => {
    const items = walk.pages.flatMap(({ response }) => envelopeOf(response)?.items ?? []);
    const foreign = items.filter((item) => isObject(item) && item[field] !== organizationId);
    return foreign.length === 0
      ? []
      : [
          {
            message: `${foreign.length} of ${items.length} items belong to another organization by their "${field}" (e.g. ${JSON.stringify(isObject(foreign[0]) ? foreign[0][field] : null)}); apply "organizationId"`,
          },
        ];
  },
  { must: { spec: 'spec §4.1: "organizationId" filters by organization' } },
  { field: 'dataApi.organizationField', what: "the field that names an item's organization" },
);

export const idsFilter = rule<{ requested: readonly string[]; answers: readonly { encoding: string; response: JsonResponse }[] }>(
  'filter/ids',
  'spec §4.1',
  'ids',
  '"ids" returns exactly those items, in each encoding the API reads ("ids=a,b" and "ids=a&ids=b", unless dataApi.idsEncodings says)',
  ({ requested, answers }) =>
    answers.flatMap(({ encoding, response }): Issue[] => {
      const served = (envelopeOf(response)?.items ?? []).map(idOf);
      const same = served.length === requested.length && requested.every((id) => served.includes(id));
      return response.status === 200 && same
        ? []
        : [{ message: `"ids" as ${encoding} answered ${response.status} with ${JSON.stringify(served)}; expected exactly ${JSON.stringify(requested)}` }];
    }),
  openChoice('the encoding of several "ids" (spec §4.1 rule 2)'),
  { field: 'dataApi.idsEncodings', what: 'the encoding of several "ids"' },
);

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
  if (!envelope) return [{ message: `a request ${what} was answered ${response.status}; the profile says this API serves ${expected}` }];
  const fits = served === 'empty' ? envelope.items.length === 0 && envelope.hasMore === false : envelope.items.length <= served;
  return fits
    ? []
    : [
        {
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
          : [{ message: `a request ${what} was answered ${response.status}; refuse it with ${wanted.join(' or ')}` }];
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

export const dataApiRules = [
  missingTokenRefused,
  invalidTokenRefused,
  envelopeShape,
  noDuplicates,
  walksAgree,
  cursorIsLastId,
  lastPageEnds,
  limitRespected,
  defaultLimit,
  organizationFilter,
  idsFilter,
  filterRequired,
  invalidLimitRefused,
  invalidAfterRefused,
] as const;

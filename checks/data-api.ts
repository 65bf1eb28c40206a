import { isObject, jsonType, type JsonResponse } from './evidence';
import type { Issue } from './finding';
import { openChoice, rule } from './data-api-rule';
import { filterRequired, invalidAfterRefused, invalidLimitRefused, invalidTokenRefused, missingTokenRefused } from './data-api-refusals';
import { envelopeOf, idOf, idsOfWalk, nextAfter, type Walk } from './data-api-walk';

/**
 * Rules of the platform's read-only data API (spec §2.2, §4.1, §5.1; DESIGN §5 "Data API"), judged on
 * pages a probe walked. A walk is plain data: every page's answer, in order, and why it stopped.
 * The refusals are in data-api-refusals.ts; this file lists them all.
 */

export const defaultLimitRange = { min: 20, max: 50 } as const;

export const envelopeShape = rule<Walk>(
  'envelope',
  'spec §2.2',
  'items',
  'every page is 200 with a JSON object {items: [...], hasMore: boolean, next: {after}}',
  (walk) => {
    for (const { query, response } of walk.pages) {
      const envelope = envelopeOf(response);
      if (response.status !== 200) return [{ code: 'status', message: `the page "${query}" answered ${response.status}; answer 200` }];
      if (!envelope)
        return [{ code: 'no-items', message: `the page "${query}" has no "items" array; answer {"items": [...], "hasMore": …, "next": {"after": …}}` }];
      if (typeof envelope.hasMore !== 'boolean')
        return [{ code: 'type', field: 'hasMore', message: `"hasMore" is ${jsonType(envelope.hasMore)} on the page "${query}"; send true or false` }];
      if (envelope.items.length > 0 && typeof nextAfter(envelope) !== 'string')
        return [{ code: 'missing', field: 'next.after', message: `"next.after" is missing on the page "${query}"; send the id of its last item` }];
    }
    return [];
  },
);

export const noDuplicates = rule<Walk>('walk/no-duplicates', 'spec §2.2', 'items[].id', 'walking every page serves each item once', (walk) => {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of idsOfWalk(walk)) (seen.has(id) ? twice : seen).add(id);
  return twice.size === 0
    ? []
    : [{ code: 'duplicates', message: `${twice.size} items came twice (first "${[...twice][0]}"); start the next page right after "after"` }];
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
        code: 'differs',
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
      {
        code: 'cursor',
        message: `"next.after" is ${JSON.stringify(nextAfter(envelope))} on the page "${query}", whose last item is "${last}"; send the last item's id`,
      },
    ];
  }
  return [];
});

export const lastPageEnds = rule<Walk>('walk/last-page', 'spec §2.2', 'hasMore', 'the last page says "hasMore": false', (walk) => {
  if (walk.cutShort) return [{ code: 'never-ended', message: `the walk never reached a page with "hasMore": false: ${walk.cutShort}` }];
  const last = walk.pages.at(-1);
  const envelope = last && envelopeOf(last.response);
  return envelope?.hasMore === false
    ? []
    : [{ code: 'has-more', message: `the last page "${last?.query}" says "hasMore": ${JSON.stringify(envelope?.hasMore)}; send false` }];
});

export const limitRespected = rule<Walk>('walk/limit', 'spec §2.2', 'limit', 'no page holds more items than "limit"', (walk) => {
  const over = walk.pages.find(({ response }) => walk.limit !== undefined && (envelopeOf(response)?.items.length ?? 0) > walk.limit);
  return over
    ? [{ code: 'over-limit', message: `the page "${over.query}" holds ${envelopeOf(over.response)!.items.length} items for "limit" ${walk.limit}` }]
    : [];
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
      : [
          {
            code: 'default-limit',
            message: `the first page without "limit" holds ${size} items; default to ${defaultLimitRange.min}–${defaultLimitRange.max}`,
          },
        ];
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
            code: 'foreign-items',
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
        : [
            {
              code: 'ids',
              message: `"ids" as ${encoding} answered ${response.status} with ${JSON.stringify(served)}; expected exactly ${JSON.stringify(requested)}`,
            },
          ];
    }),
  openChoice('the encoding of several "ids" (spec §4.1 rule 2)'),
  { field: 'dataApi.idsEncodings', what: 'the encoding of several "ids"' },
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

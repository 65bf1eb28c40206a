import { randomUUID } from 'node:crypto';
import { pageUrl, type Entity, type ListParams } from '../client/data-api';
import {
  cursorIsLastId,
  defaultLimit,
  envelopeShape,
  idsFilter,
  lastPageEnds,
  limitRespected,
  noDuplicates,
  organizationFilter,
  walksAgree,
} from '../checks/data-api';
import { filterRequired, invalidAfterRefused, invalidLimitRefused, invalidTokenRefused, missingTokenRefused } from '../checks/data-api-refusals';
import { envelopeOf, idsOfWalk, type Walk } from '../checks/data-api-walk';
import { isObject, type Exchange, type JsonResponse } from '../checks/evidence';
import { evaluate } from '../checks/finding';
import type { Profile } from '../profile/profile-schema';
import { answer, type HttpClient, type HttpRequest, type Recorder } from '../client/http';
import { stopped, type Judgement, type MetOf, type Need, type Needs, type Probe, type ProbeContext } from './probe';

/** The data-API suite (spec §2.2, §4.1, §5.1) against the profile's `dataApi`. */

type DataApi = NonNullable<Profile['dataApi']>;
const hasDataApi = {
  unmet: (profile: Profile) => (profile.dataApi ? undefined : 'the profile has no "dataApi" block ({"baseUrl", "token"}), so there is no data API to check'),
};

/** The walked entity: the largest collection, filtered by organization (DESIGN §5 requires a filter). */
const walked: Entity = 'bills';
/** A bound on a walk, so a listing that never ends cannot hold the run: far more pages than any seed needs. */
const maxPages = 2_000;

const request = (api: DataApi, entity: Entity, params: ListParams, token: string | null = api.token): HttpRequest => ({
  method: 'GET',
  url: pageUrl(api.baseUrl, entity, params),
  headers: { accept: 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
});

/**
 * Follows `next.after` while `hasMore` says so (spec §4.1 rule 4). Only the first and the last page go
 * into the evidence: a walk is hundreds of pages.
 */
async function walk(http: HttpClient, api: DataApi, params: ListParams, keep: (exchange: Exchange) => void): Promise<Walk> {
  const pages: Walk['pages'] = [];
  let after: string | undefined;
  let last: Exchange | undefined;
  const done = (cutShort?: string): Walk => {
    if (last) keep(last);
    return { ...(params.limit === undefined ? {} : { limit: params.limit }), pages, ...(cutShort ? { cutShort } : {}) };
  };
  for (let i = 0; i < maxPages; i++) {
    const query = { ...params, ...(after === undefined ? {} : { after }) };
    const got = await answer(http, request(api, walked, query));
    if (i === 0) keep(got.exchange);
    else last = got.exchange;
    if ('problem' in got) return done(`the page after ${JSON.stringify(after)} gave no answer: ${got.problem}`);
    pages.push({ query: new URL(got.exchange.request.url).search.slice(1), response: got.response });
    const envelope = envelopeOf(got.response);
    if (got.response.status !== 200 || !envelope || envelope.hasMore !== true)
      return done(envelope?.hasMore === false ? undefined : 'a page was not a page envelope');
    const next = isObject(envelope.next) ? envelope.next.after : undefined;
    if (typeof next !== 'string' || next === after) return done(`a page said "hasMore": true but gave no new "next.after" (${JSON.stringify(next)})`);
    after = next;
  }
  return done(`it was still going after ${maxPages} pages`);
}

/** The first organization the API lists, which the walks filter on. */
async function firstOrganization(http: HttpClient, api: DataApi): Promise<string | { problem: string }> {
  const got = await answer(http, request(api, 'organizations', {}));
  if ('problem' in got) return { problem: got.problem };
  const id = envelopeOf(got.response)
    ?.items.map((item) => (isObject(item) ? item.id : undefined))
    .find((value) => typeof value === 'string');
  return typeof id === 'string' ? id : { problem: `GET /v1/organizations answered ${got.response.status} without an organization to filter on` };
}

/** The first organization the API lists, which the walks filter on; without one, their rules do not apply, saying why. */
const organization: Need<string> = {
  meet: async (ctx, http) => {
    const id = await firstOrganization(http, ctx.profile.dataApi!);
    return typeof id === 'string' ? { value: id } : { stop: { notApplicable: id.problem } };
  },
};

function dataApiProbe<N extends Needs>(
  spec: Pick<Probe, 'id' | 'title' | 'rules'> & { needs?: N },
  body: (http: Recorder, api: DataApi, ctx: ProbeContext, met: MetOf<N>) => Promise<Judgement>,
): Probe {
  return {
    ...spec,
    kind: 'http',
    area: 'data-api',
    codes: 0,
    profileNeeds: [hasDataApi],
    run: (ctx, met, http) => body(http, ctx.profile.dataApi!, ctx, met as MetOf<N>),
  };
}

const authRules = [missingTokenRefused, invalidTokenRefused];
const authProbe = dataApiProbe(
  { id: 'data-api/auth', title: 'the data API refuses a missing or invalid Bearer token with a JSON error', rules: authRules },
  async (http, api) => {
    const answers = await Promise.all([
      answer(http, request(api, 'organizations', {}, null)),
      answer(http, request(api, 'organizations', {}, `certify-invalid-${randomUUID()}`)),
    ]);
    const unanswered = answers.find((got) => 'problem' in got);
    if (unanswered && 'problem' in unanswered) return stopped({ notApplicable: `the data API gave no answer: ${unanswered.problem}` });
    const [missing, invalid] = answers as { response: JsonResponse }[];
    return [
      ...evaluate(missingTokenRefused, [{ case: 'without "Authorization"', response: missing!.response }], undefined),
      ...evaluate(invalidTokenRefused, [{ case: 'with an invalid Bearer token', response: invalid!.response }], undefined),
    ];
  },
);

const walkRules = [envelopeShape, noDuplicates, walksAgree, cursorIsLastId, lastPageEnds, limitRespected, defaultLimit, organizationFilter];

const walkProbe = dataApiProbe(
  {
    id: 'data-api/walk',
    title: "walking an organization's bills page by page serves every item once, with exact cursors and limits",
    rules: walkRules,
    needs: { organizationId: organization },
  },
  async (http, api, ctx, { organizationId }) => {
    // The walks go through the unrecorded client; only their first and last pages join the evidence.
    const keep = (exchange: Exchange) => void http.exchanges.push(exchange);
    const [byHundred, byDefault] = await Promise.all([
      walk(ctx.http, api, { organizationId, limit: 100 }, keep),
      walk(ctx.http, api, { organizationId }, keep),
    ]);
    const bothWalks = [envelopeShape, noDuplicates, cursorIsLastId, lastPageEnds];
    return [
      ...bothWalks.flatMap((rule) => {
        const [one, other] = [evaluate(rule, byHundred, undefined), evaluate(rule, byDefault, undefined)];
        return other.some((f) => f.outcome !== 'passed') ? other : one;
      }),
      ...evaluate(walksAgree, { walk: byHundred, other: byDefault }, undefined),
      ...evaluate(limitRespected, byHundred, undefined),
      ...evaluate(defaultLimit, byDefault, undefined),
      ...evaluate(organizationFilter, { walk: byHundred, organizationId, field: api.organizationField ?? 'organizationId' }, undefined),
    ];
  },
);

const filterRules = [idsFilter, filterRequired, invalidLimitRefused, invalidAfterRefused];

const filtersProbe = dataApiProbe(
  {
    id: 'data-api/filters',
    title: 'the ids and organizationId filters, and invalid limit or after, are answered as specified',
    rules: filterRules,
    needs: { organizationId: organization },
  },
  async (http, api, _ctx, { organizationId }) => {
    const first = await answer(http, request(api, walked, { organizationId, limit: 100 }));
    const ids = 'problem' in first ? [] : idsOfWalk({ pages: [{ query: '', response: first.response }] });
    if (ids.length < 3) return stopped({ notApplicable: `the first page of ${walked} holds ${ids.length} items; 3 are needed to try "ids"` });
    const requested = [ids[0]!, ids[Math.floor(ids.length / 2)]!, ids.at(-1)!];
    // What the spec leaves open, as the profile states this API does it, else as the emulator does.
    const {
      idsEncodings = ['comma', 'repeated'],
      maxLimit = 100,
      overLimit = 'refused',
      unknownCursor = 'refused',
      filterRequired: needsFilter = true,
      parameterErrorStatus,
      idsWithOrganization = false,
      nonPositiveLimit = 'refused',
    } = api;
    const beside: ListParams = idsWithOrganization ? { organizationId } : {};
    const servedFor = (limit: string) =>
      limit === String(maxLimit + 1) && overLimit === 'clamped'
        ? { served: maxLimit }
        : (limit === '0' || limit === '-1') && nonPositiveLimit === 'served'
          ? { served: maxLimit }
          : {};
    const refusedWith = parameterErrorStatus === undefined ? {} : { status: parameterErrorStatus };
    const cases = {
      ids: [
        { encoding: '"ids=a,b,c"', params: { ...beside, ids: requested } as ListParams },
        { encoding: '"ids=a&ids=b&ids=c"', params: { ...beside, ids: requested, idsEncoding: 'repeated' } as ListParams },
      ].filter((c) => idsEncodings.includes(c.params.idsEncoding ?? 'comma')),
      required: [{ case: `to /v1/${walked} without "organizationId" or "ids"`, params: {} }],
      limit: ['0', '-1', 'abc', '1.5', String(maxLimit + 1)].map((limit) => ({
        case: `with "limit=${limit}"`,
        url: `${pageUrl(api.baseUrl, walked, { organizationId })}&limit=${limit}`,
        ...servedFor(limit),
      })),
      after: [
        {
          case: 'with an "after" that is no id of the listing',
          params: { organizationId, after: `certify-unknown-${randomUUID()}` },
          ...(unknownCursor === 'empty' ? { served: 'empty' as const } : {}),
        },
      ],
    };
    const get = (params: ListParams) => answer(http, request(api, walked, params));
    const raw = (url: string) => answer(http, { method: 'GET', url, headers: { accept: 'application/json', authorization: `Bearer ${api.token}` } });
    const [idsAnswers, required, limits, after] = await Promise.all([
      Promise.all(cases.ids.map((c) => get(c.params))),
      Promise.all(cases.required.map((c) => get(c.params))),
      Promise.all(cases.limit.map((c) => raw(c.url))),
      Promise.all(cases.after.map((c) => get(c.params))),
    ]);
    const unanswered = [...idsAnswers, ...required, ...limits, ...after].find((got) => 'problem' in got);
    if (unanswered && 'problem' in unanswered) return stopped({ notApplicable: `the data API gave no answer: ${unanswered.problem}` });
    const responseOf = (got: (typeof idsAnswers)[number]) => (got as { response: JsonResponse }).response;
    const findings = [
      ...evaluate(idsFilter, { requested, answers: cases.ids.map((c, i) => ({ encoding: c.encoding, response: responseOf(idsAnswers[i]!) })) }, undefined),
      ...(needsFilter
        ? evaluate(
            filterRequired,
            cases.required.map((c, i) => ({ case: c.case, response: responseOf(required[i]!), ...refusedWith })),
            undefined,
          )
        : []),
      ...evaluate(
        invalidLimitRefused,
        cases.limit.map((c, i) => ({ case: c.case, response: responseOf(limits[i]!), ...refusedWith, ...('served' in c ? { served: c.served } : {}) })),
        undefined,
      ),
      ...evaluate(
        invalidAfterRefused,
        cases.after.map((c, i) => ({ case: c.case, response: responseOf(after[i]!), ...refusedWith, ...('served' in c ? { served: c.served } : {}) })),
        undefined,
      ),
    ];
    return needsFilter ? findings : stopped({ notApplicable: 'the profile says this data API needs no filter ("dataApi.filterRequired": false)' }, findings);
  },
);

export const dataApiProbes: readonly Probe[] = [authProbe, walkProbe, filtersProbe];

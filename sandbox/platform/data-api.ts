import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { equalSecrets } from '../secrets';
import { seedData, type Seed } from './data';
import { apiError } from './errors';
import { isDataApiFault } from './faults';

/**
 * The read-only data API (spec §2.1, §2.2, §4.1; DESIGN §5 "Data API"): Bearer auth, `organizationId`
 * and `ids` filters, cursor pages `{items, hasMore, next: {after}}`. A page costs O(limit): every
 * collection, and every organization's slice of it, keeps a map from id to position.
 */

export const maxLimit = 100;

interface Item {
  id: string;
  organizationId?: string;
}

interface Indexed<T extends Item> {
  items: T[];
  position: Map<string, number>;
}

interface Collection<T extends Item> extends Indexed<T> {
  byOrganization: Map<string, Indexed<T>>;
  defaultLimit: number;
  /** DESIGN §5: bills, payments and vendors need `organizationId` or `ids`. */
  needsFilter: boolean;
}

const indexed = <T extends Item>(items: T[]): Indexed<T> => ({ items, position: new Map(items.map((item, i) => [item.id, i])) });

function collection<T extends Item>(items: T[], defaultLimit: number, needsFilter: boolean, organizationOf: (item: T) => string): Collection<T> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(organizationOf(item));
    if (group) group.push(item);
    else groups.set(organizationOf(item), [item]);
  }
  return { ...indexed(items), byOrganization: new Map([...groups].map(([id, list]) => [id, indexed(list)])), defaultLimit, needsFilter };
}

type Query = Record<string, string | string[] | undefined>;

/** `ids=a,b` and `ids=a&ids=b` alike (DESIGN §5). */
const idsOf = (value: string | string[] | undefined) =>
  value === undefined
    ? undefined
    : [
        ...new Set(
          (Array.isArray(value) ? value : [value])
            .flatMap((part) => part.split(','))
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ];

function limitOf(value: Query['limit'], fallback: number): number | string {
  if (value === undefined) return fallback;
  if (Array.isArray(value)) return '"limit" is given more than once; give it once';
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > maxLimit)
    return `"limit" is ${JSON.stringify(value)}; give an integer from 1 to ${maxLimit}`;
  return Number(value);
}

export function registerDataApi(
  app: FastifyInstance,
  { token, faultsOf, seed = seedData() }: { token: string; faultsOf: (request: FastifyRequest) => Set<string>; seed?: Seed },
) {
  const collections: Record<keyof Seed, Collection<Item>> = {
    organizations: collection(seed.organizations, 20, false, (org) => org.id),
    vendors: collection(seed.vendors, 50, true, (item) => item.organizationId),
    bills: collection(seed.bills, 50, true, (item) => item.organizationId),
    payments: collection(seed.payments, 50, true, (item) => item.organizationId),
  };
  const dataFaults = (request: FastifyRequest) => new Set([...faultsOf(request)].filter(isDataApiFault));

  /** Spec §5.1: Bearer auth; `WWW-Authenticate` names the scheme (RFC 6750 §3). */
  function refused(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    if (dataFaults(request).has('ignores-auth')) return undefined;
    const match = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    reply.header('www-authenticate', 'Bearer realm="data-api"');
    if (!request.headers.authorization) return apiError(reply, 401, 'MISSING_AUTHORIZATION_HEADER', 'send "Authorization: Bearer <token>"');
    if (!match || !equalSecrets(match[1]!, token)) return apiError(reply, 401, 'INVALID_AUTHENTICATION_TOKEN', 'the Bearer token is not valid');
    return undefined;
  }

  for (const [name, list] of Object.entries(collections)) {
    const url = `/v1/${name}`;
    app.route({
      method: ['POST', 'PUT', 'PATCH', 'DELETE'],
      url,
      handler: async (request, reply) =>
        apiError(reply.header('allow', 'GET, HEAD'), 405, 'METHOD_NOT_ALLOWED', `${request.method} is not supported; the data API is read-only (GET)`),
    });
    app.get(url, async (request, reply) => {
      const denied = refused(request, reply);
      if (denied) return denied;
      const faults = dataFaults(request);
      const query = request.query as Query;
      const limit = limitOf(query.limit, list.defaultLimit);
      if (typeof limit === 'string') return apiError(reply, 400, 'INVALID_LIMIT', limit, 'limit');
      const organizationId = query.organizationId;
      if (Array.isArray(organizationId)) return apiError(reply, 400, 'INVALID_FILTER', '"organizationId" is given more than once', 'organizationId');
      const ids = idsOf(query.ids);
      if (list.needsFilter && organizationId === undefined && ids === undefined) {
        return apiError(reply, 400, 'MISSING_FILTER', `${url} needs "organizationId" or "ids"`, 'organizationId');
      }
      if (Array.isArray(query.after)) return apiError(reply, 400, 'INVALID_CURSOR', '"after" is given more than once', 'after');

      const filterOrganization = organizationId !== undefined && !faults.has('ignores-organization-filter');
      let scope: Indexed<Item> = filterOrganization ? (list.byOrganization.get(organizationId) ?? indexed([])) : list;
      if (ids) {
        const wanted = ids
          .map((id) => scope.position.get(id))
          .filter((at): at is number => at !== undefined)
          .sort((a, b) => a - b);
        scope = indexed(wanted.map((at) => scope.items[at]!));
      }
      let start = 0;
      if (query.after !== undefined) {
        const at = scope.position.get(query.after);
        if (at === undefined)
          return apiError(
            reply,
            400,
            'INVALID_CURSOR',
            `"after" ${JSON.stringify(query.after)} is not an id of this listing; use "next.after" of the previous page`,
            'after',
          );
        start = at + (faults.has('duplicate-at-page-boundary') ? 0 : faults.has('cursor-off-by-one') ? 2 : 1);
      }
      const items = scope.items.slice(start, start + limit);
      const hasMore = faults.has('has-more-on-last-page') || start + limit < scope.items.length;
      return reply.header('cache-control', 'no-store').send({ items, hasMore, next: items.length > 0 ? { after: items.at(-1)!.id } : null });
    });
  }
}

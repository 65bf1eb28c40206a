import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasFault } from './faults.js';

export const DATA_TOKEN = 'harbor-data-token-55e1';
const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 200;

type Item = { id: string; organization?: string } & Record<string, unknown>;

interface Collection {
  items: Item[];
  /** Which filters must be present: bills and payments need organizationId, vendors organizationId or ids. */
  needs: 'none' | 'organizationId' | 'organizationId-or-ids';
}

/** A small LCG so the seed is identical on every start. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

function day(base: string, offset: number): string {
  const d = new Date(`${base}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

export function seed(): Record<'organizations' | 'bills' | 'payments' | 'vendors', Item[]> {
  const r = rng(0x4a7b0c11);
  const orgNames = ['Bayside Provisions LLC', 'Keel & Anchor Marine Supply', 'Lighthouse Dental Group'];
  const organizations: Item[] = orgNames.map((name, i) => ({
    id: `org_${pad(i + 1, 3)}`,
    name,
    createdAt: `2024-0${i + 1}-15T09:00:00Z`,
  }));
  // Uneven spread so each organization pages differently: 1 of every 6 goes to org 3, the rest alternate.
  const orgIds = organizations.map((o) => o.id);
  const orgFor = (i: number): string => orgIds[i % 6 === 5 ? 2 : i % 2] as string;
  const vendorWords = ['Atlas', 'Beacon', 'Cobalt', 'Delta', 'Ember', 'Fjord', 'Granite', 'Harbor', 'Iris', 'Juniper'];
  const vendorKinds = ['Supply', 'Logistics', 'Services', 'Electric', 'Printing', 'Foods'];
  const vendors: Item[] = Array.from({ length: 60 }, (_, i) => {
    const name = `${vendorWords[i % 10]} ${vendorKinds[Math.floor(i / 10) % 6]}`;
    return { id: `ven_${pad(i + 1, 4)}`, organization: orgFor(i), name, email: `ap+${pad(i + 1, 4)}@vendors.example` };
  });
  const vendorsOf = (org: string): Item[] => vendors.filter((v) => v.organization === org);
  const statuses = ['unpaid', 'scheduled', 'paid', 'overdue'];
  const bills: Item[] = Array.from({ length: 130 }, (_, i) => {
    const organization = orgFor(i);
    const vs = vendorsOf(organization);
    return {
      id: `bill_${pad(i + 1, 4)}`,
      organization,
      vendor: (vs[Math.floor(r() * vs.length)] as Item).id,
      invoiceNumber: `INV-${pad(1000 + i * 7, 5)}`,
      amount: Math.round(5000 + r() * 495000) / 100,
      currency: 'USD',
      dueDate: day('2025-01-05', Math.floor(r() * 180)),
      status: statuses[Math.floor(r() * statuses.length)],
    };
  });
  const payments: Item[] = Array.from({ length: 45 }, (_, i) => {
    const bill = bills[i * 2 + (i % 3 === 0 ? 1 : 0)] as Item;
    return {
      id: `pay_${pad(i + 1, 4)}`,
      organization: bill.organization,
      bill: bill.id,
      vendor: bill.vendor,
      amount: bill.amount,
      currency: 'USD',
      scheduledDate: day(bill.dueDate as string, -3),
      status: i % 4 === 0 ? 'scheduled' : 'completed',
    };
  });
  return { organizations, bills, payments, vendors };
}

function fail(reply: FastifyReply, code: number, type: string, detail: string): FastifyReply {
  return reply.code(code).send({ error: { type, detail } });
}

const ALLOWED = new Set(['organizationId', 'ids', 'limit', 'after']);

function authorized(request: FastifyRequest, reply: FastifyReply): boolean {
  if (hasFault(request, 'data-api-open')) return true;
  const header = request.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  if (m && m[1] === DATA_TOKEN) return true;
  reply.header('WWW-Authenticate', m ? 'Bearer realm="harbor", error="invalid_token"' : 'Bearer realm="harbor"');
  void fail(reply, 401, 'unauthorized', m ? 'the bearer token is not valid' : 'an Authorization: Bearer <token> header is required');
  return false;
}

function list(c: Collection, query: Record<string, unknown>, reply: FastifyReply): FastifyReply {
  for (const key of Object.keys(query)) {
    if (!ALLOWED.has(key)) return fail(reply, 422, 'invalid_request', `unknown query parameter ${key}; ids are repeated as ids=a&ids=b`);
  }
  const single = (key: string): string | undefined | null => {
    const v = query[key];
    if (v === undefined) return undefined;
    return typeof v === 'string' ? v : null;
  };
  const organizationId = single('organizationId');
  const limitRaw = single('limit');
  const after = single('after');
  if (organizationId === null || limitRaw === null || after === null)
    return fail(reply, 422, 'invalid_request', 'organizationId, limit and after may be given once');
  if (organizationId === '') return fail(reply, 422, 'invalid_request', 'organizationId must not be empty');
  const idsRaw = query.ids;
  const ids = idsRaw === undefined ? undefined : Array.isArray(idsRaw) ? (idsRaw as string[]) : [idsRaw as string];
  if (ids && ids.some((id) => id === '' || id.includes(','))) {
    return fail(reply, 422, 'invalid_request', 'ids must be given as repeated parameters (ids=a&ids=b), each non-empty, without commas');
  }
  if (c.needs === 'organizationId' && organizationId === undefined) {
    return fail(reply, 422, 'invalid_request', 'organizationId is required for this collection (ids alone are not accepted)');
  }
  if (c.needs === 'organizationId-or-ids' && organizationId === undefined && ids === undefined) {
    return fail(reply, 422, 'invalid_request', 'organizationId or ids is required for this collection');
  }
  let limit = DEFAULT_LIMIT;
  if (limitRaw !== undefined) {
    if (!/^-?\d+$/.test(limitRaw)) return fail(reply, 422, 'invalid_request', 'limit must be an integer between 1 and 200');
    limit = Number(limitRaw);
    if (limit < 1 || limit > MAX_LIMIT) return fail(reply, 422, 'invalid_request', `limit must be between 1 and ${MAX_LIMIT}`);
  }
  let items = c.items;
  if (organizationId !== undefined) items = items.filter((it) => (it.organization ?? it.id) === organizationId);
  if (ids) {
    const wanted = new Set(ids);
    items = items.filter((it) => wanted.has(it.id));
  }
  let start = 0;
  if (after !== undefined) {
    const at = items.findIndex((it) => it.id === after);
    if (at < 0) return fail(reply, 422, 'invalid_request', 'after is not the id of an item in this result set');
    start = at + 1;
  }
  const page = items.slice(start, start + limit);
  const last = page[page.length - 1];
  return reply.send({ items: page, hasMore: start + limit < items.length, next: last ? { after: last.id } : {} });
}

export function registerDataApi(api: FastifyInstance): void {
  const data = seed();
  const collections: Record<string, Collection> = {
    organizations: { items: data.organizations, needs: 'none' },
    bills: { items: data.bills, needs: 'organizationId' },
    payments: { items: data.payments, needs: 'organizationId' },
    vendors: { items: data.vendors, needs: 'organizationId-or-ids' },
  };
  for (const [name, c] of Object.entries(collections)) {
    api.get(`/v1/${name}`, async (request, reply) => {
      if (!authorized(request, reply)) return reply;
      return list(c, request.query as Record<string, unknown>, reply);
    });
  }
}

import { SetupError } from './setup-error';

/**
 * A typed client for the platform's read-only data API (spec §2.1, §2.2, §4.1), with the spec's
 * `get<Entities>` names and async iterators that walk every page. Partners can import it:
 *
 *   const api = dataApiClient({ baseUrl, token });
 *   for await (const bill of api.all('bills', { organizationId })) …
 */

export interface Money {
  /** A decimal string with two places: amounts are never floats. */
  value: string;
  currency: string;
}

export interface Organization {
  id: string;
  name: string;
  createdAt: string;
}

export interface Vendor {
  id: string;
  organizationId: string;
  name: string;
  email: string;
  paymentTermsDays: number;
}

export interface Bill {
  id: string;
  organizationId: string;
  vendorId: string;
  invoiceNumber: string;
  amount: Money;
  dueDate: string;
  status: 'unpaid' | 'scheduled' | 'paid' | 'overdue';
  createdAt: string;
}

export interface Payment {
  id: string;
  organizationId: string;
  billId: string;
  vendorId: string;
  amount: Money;
  status: 'scheduled' | 'completed';
  scheduledDate: string;
}

export interface Entities {
  organizations: Organization;
  bills: Bill;
  payments: Payment;
  vendors: Vendor;
}
export type Entity = keyof Entities;
export const entities: readonly Entity[] = ['organizations', 'bills', 'payments', 'vendors'];

/** Spec §2.2. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  next: { after: string } | null;
}

export interface ListParams {
  organizationId?: string;
  ids?: readonly string[];
  limit?: number;
  after?: string;
  /** `ids=a,b` (comma, the default) or `ids=a&ids=b` (repeated). */
  idsEncoding?: 'comma' | 'repeated';
}

/** The URL of one page: the one place that spells the query. */
export function pageUrl(baseUrl: string, entity: Entity, { organizationId, ids, limit, after, idsEncoding = 'comma' }: ListParams = {}): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/v1/${entity}`);
  if (organizationId !== undefined) url.searchParams.set('organizationId', organizationId);
  if (ids !== undefined) {
    if (idsEncoding === 'comma') url.searchParams.set('ids', ids.join(','));
    else for (const id of ids) url.searchParams.append('ids', id);
  }
  if (limit !== undefined) url.searchParams.set('limit', String(limit));
  if (after !== undefined) url.searchParams.set('after', after);
  return url.href;
}

/** A refusal from the data API: a set-up error `data-api`, with its status and, when the body says, its own code (`apiCode`). */
const refused = (status: number, apiCode: string | undefined, message: string) =>
  new SetupError('data-api', message, { status, ...(apiCode ? { apiCode } : {}) });

export interface DataApiClientOptions {
  baseUrl: string;
  token: string;
  /** Per request; default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export function dataApiClient({ baseUrl, token, timeoutMs = 10_000, fetch: send = fetch }: DataApiClientOptions) {
  async function list<E extends Entity>(entity: E, params: ListParams = {}): Promise<Page<Entities[E]>> {
    const url = pageUrl(baseUrl, entity, params);
    const response = await send(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw refused(response.status, undefined, `GET ${url} answered ${response.status} with a body that is not JSON`);
    }
    if (!response.ok) {
      const { code, message } = (body ?? {}) as { code?: string; message?: string };
      throw refused(response.status, code, `GET ${url} answered ${response.status}${code ? ` ${code}` : ''}: ${message ?? text.slice(0, 200)}`);
    }
    return body as Page<Entities[E]>;
  }

  /** Every page, first to last, following `next.after` while `hasMore` (spec §4.1 rule 4). */
  async function* pages<E extends Entity>(entity: E, params: Omit<ListParams, 'after'> = {}): AsyncGenerator<Page<Entities[E]>> {
    let after: string | undefined;
    for (;;) {
      const page = await list(entity, { ...params, ...(after === undefined ? {} : { after }) });
      yield page;
      if (!page.hasMore) return;
      const next = page.next?.after;
      if (!next || next === after) throw refused(200, undefined, `GET /v1/${entity} says hasMore but gives no new "next.after"; stopping`);
      after = next;
    }
  }

  /** Every item of every page. */
  async function* all<E extends Entity>(entity: E, params: Omit<ListParams, 'after'> = {}): AsyncGenerator<Entities[E]> {
    for await (const page of pages(entity, params)) yield* page.items;
  }

  return {
    getOrganizations: (params?: ListParams) => list('organizations', params),
    getBills: (params?: ListParams) => list('bills', params),
    getPayments: (params?: ListParams) => list('payments', params),
    getVendors: (params?: ListParams) => list('vendors', params),
    pages,
    all,
  };
}

export type DataApiClient = ReturnType<typeof dataApiClient>;

import { isObject, jsonObject, type JsonResponse } from './evidence';

/** A walk of the data API's pages, as the rules read it: plain data, every page's answer in order and why it stopped. */

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

export const idOf = (item: unknown) => (isObject(item) && typeof item.id === 'string' ? item.id : undefined);
export const idsOfWalk = (walk: Walk) =>
  walk.pages.flatMap(({ response }) => (envelopeOf(response)?.items ?? []).map(idOf)).filter((id): id is string => id !== undefined);
export const nextAfter = (envelope: Envelope) => (isObject(envelope.next) ? envelope.next.after : undefined);

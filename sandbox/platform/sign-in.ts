import { isObject, jsonObject, jsonResponse } from '../../checks/evidence';
import type { Field, Payload } from '../../checks/payload';
import { issuedToken } from '../../checks/token-exchange';
import { type PartnerConfig } from '../../profile/profile-schema';
import { httpClient } from '../../client/http';
import { resourceRequest, tokenRequest } from '../../client/requests';
import { type Sync } from './funding';

/** The emulator's sessions and the two ways a user signs in: a mock link (spec §4.3) and a code (spec §4.2, §5.2). */

export interface Session {
  partnerName: string;
  accountInfo: Payload;
  /** Fields still to be typed on the collection screen. */
  fields: Field[];
  csrf: string;
  sync: Sync;
  expiresAt: number;
}

export const sessionLifetimeMs = 30 * 60 * 1000;
export const cookieName = 'platform_session';
export const bounded = 10_000;
export const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The problem with a mock-link request body (spec §4.3), naming the field. */
export function mockLinkProblem(body: unknown, partners: Map<string, PartnerConfig>): { field: string; message: string } | undefined {
  if (!isObject(body)) return { field: 'body', message: 'the body must be a JSON object' };
  for (const field of ['partnerName', 'token', 'externalUserId', 'externalOrgId'] as const) {
    if (typeof body[field] !== 'string' || body[field] === '') return { field, message: `"${field}" is required: a non-empty string` };
  }
  const accountInfo = body.accountInfo;
  if (!isObject(accountInfo)) return { field: 'accountInfo', message: '"accountInfo" is required: an object with "user" and "company"' };
  for (const part of ['user', 'company'] as const) {
    if (!isObject(accountInfo[part])) return { field: `accountInfo.${part}`, message: `"accountInfo.${part}" is required: an object shaped as in spec §2.3` };
  }
  if (!partners.has(text(body.partnerName)))
    return { field: 'partnerName', message: `"partnerName" ${JSON.stringify(body.partnerName)} is not configured on this platform` };
  if (!uuid.test(text(body.token))) return { field: 'token', message: '"token" must be a random UUID' };
  if (body.externalUserId !== (accountInfo.user as Payload).id)
    return { field: 'externalUserId', message: '"externalUserId" must equal "accountInfo.user.id"' };
  if (body.externalOrgId !== (accountInfo.company as Payload).id)
    return { field: 'externalOrgId', message: '"externalOrgId" must equal "accountInfo.company.id"' };
  return undefined;
}

/**
 * Drops expired entries from the oldest end and stops at the first live one: entries go in roughly in
 * time order, so a request costs what expired, not the whole map. One left behind is still refused.
 */
export function dropExpired<K, V>(map: Map<K, V>, expiresAt: (value: V) => number, now: number) {
  for (const [key, value] of map) {
    if (expiresAt(value) >= now) return;
    map.delete(key);
  }
}

/** Keeps a map within `bounded` entries: the oldest go first. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V) {
  map.delete(key);
  map.set(key, value);
  if (map.size > bounded) map.delete(map.keys().next().value as K);
}

export type SignIn = { accountInfo: Payload; funding?: unknown } | { reason: string; problems: string[] };

/** The code path (spec §4.2, §5.2): exchange the code, then read account information and funding sources. */
export async function signInWithCode(config: PartnerConfig, code: string): Promise<SignIn> {
  const http = httpClient({ timeoutMs: config.requestTimeoutMs });
  const exchange = await http.send(tokenRequest(config, config.tokenExchangeEncoding, { code }));
  const token = exchange.response && exchange.response.status === 200 ? issuedToken(jsonResponse(exchange.response)) : undefined;
  if (!token) {
    const answer = exchange.failure?.message ?? `status ${exchange.response?.status}`;
    return { reason: 'TOKEN_EXCHANGE_FAILED', problems: [`the token exchange gave no access token (${answer})`] };
  }
  const [account, funding] = await Promise.all([
    http.send(resourceRequest(config.accountInfoUrl, token)),
    config.fundingSourcesUrl ? http.send(resourceRequest(config.fundingSourcesUrl, token)) : undefined,
  ]);
  const accountInfo = account.response?.status === 200 ? jsonObject(jsonResponse(account.response)) : undefined;
  if (!accountInfo) {
    const answer = account.failure?.message ?? `status ${account.response?.status}, not a JSON object`;
    return { reason: 'ACCOUNT_INFO_UNAVAILABLE', problems: [`the account information could not be read (${answer})`] };
  }
  if (!funding) return { accountInfo };
  return { accountInfo, funding: funding.response?.status === 200 ? (jsonObject(jsonResponse(funding.response)) ?? null) : null };
}

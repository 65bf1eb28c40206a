import type { FastifyRequest } from 'fastify';
import type { PartnerConfig } from './partners.js';
import type { Outcome, SessionStore } from './sessions.js';
import { checkAccountInfo, parseFundingSources, readLeaf } from './validate.js';

const PARTNER_TIMEOUT_MS = 10_000;

export type ReasonCode =
  | 'MISSING_REQUIRED_DATA'
  | 'MISSING_ACCOUNT_INFO'
  | 'INVALID_ACCOUNT_INFO'
  | 'TOKEN_EXCHANGE_FAILED'
  | 'ACCOUNT_INFO_FAILED'
  | 'FUNDING_SOURCES_FAILED'
  | 'MISSING_CODE'
  | 'UNKNOWN_PARTNER'
  | 'LINK_MISSING'
  | 'LINK_INVALID'
  | 'LINK_EXPIRED'
  | 'LINK_ALREADY_USED'
  | 'TICKET_INVALID';

export function problem(reason: ReasonCode, detail: string, partner?: PartnerConfig, hostOrigin?: string): Outcome {
  return { view: 'problem', reason, detail, partnerName: partner?.partnerName, hostOrigin };
}

/**
 * The partner page's origin: an explicit `host` query parameter, else the Referer's origin
 * (a framed navigation sends the embedding page's origin under the default referrer policy).
 * Kept only when it is one of the partner's hostOrigins; otherwise nothing is ever posted.
 */
export function hostOriginFor(partner: PartnerConfig, request: FastifyRequest): string | undefined {
  const q = (request.query as Record<string, unknown>).host;
  if (typeof q === 'string' && partner.hostOrigins.includes(q)) return q;
  const ref = request.headers.referer;
  if (typeof ref === 'string') {
    try {
      const origin = new URL(ref).origin;
      if (partner.hostOrigins.includes(origin)) return origin;
    } catch {
      // An unparsable Referer names no host.
    }
  }
  return undefined;
}

/** Turns account information into the app, the collection screen or the error screen (spec §2.3, §7). */
export function decide(partner: PartnerConfig, info: unknown, now: number, skipsCollection: boolean, hostOrigin?: string): Outcome {
  const check = checkAccountInfo(info, now);
  if (check.missingRequired.length) {
    return problem('MISSING_REQUIRED_DATA', `missing required data: ${check.missingRequired.join(', ')}`, partner, hostOrigin);
  }
  if (check.invalid.length) {
    return problem('INVALID_ACCOUNT_INFO', check.invalid.map((p) => `${p.path}: ${p.message}`).join('; '), partner, hostOrigin);
  }
  const src = info as Record<string, unknown>;
  const kept = structuredClone({ user: src.user, company: src.company }) as Record<string, unknown>;
  const base = { partnerName: partner.partnerName, hostOrigin, info: kept, userId: readLeaf(info, 'user.id') as string };
  if (check.missingCollectable.length) {
    if (!partner.collectMissingAccountInfo) {
      return problem('MISSING_ACCOUNT_INFO', `missing account information: ${check.missingCollectable.join(', ')}`, partner, hostOrigin);
    }
    if (!skipsCollection) return { ...base, view: 'collect', fields: check.missingCollectable.map((path) => ({ path, value: '' })) };
  }
  return { ...base, view: 'home' };
}

function isJson(res: Response): boolean {
  const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** GET or POST to a partner endpoint; undefined body on any transport, status or JSON failure. */
async function callPartner(url: string, init: RequestInit): Promise<{ status: number; body?: unknown; error?: string }> {
  try {
    // Redirects are refused: following one would carry the code, client secret or bearer token elsewhere.
    const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(PARTNER_TIMEOUT_MS) });
    if (res.status !== 200) return { status: res.status, error: `answered HTTP ${res.status}` };
    if (!isJson(res)) return { status: res.status, error: 'did not answer application/json' };
    return { status: 200, body: await res.json() };
  } catch (e) {
    return { status: 0, error: e instanceof Error ? e.message : 'could not be reached' };
  }
}

export interface CodeSignOnOptions {
  now: number;
  skipsCollection: boolean;
  keepRemovedSources: boolean;
}

/** The authorization-code sign-on of spec §4.2: token exchange, account information, funding sources. */
export async function signOnWithCode(
  partner: PartnerConfig,
  code: string,
  hostOrigin: string | undefined,
  store: SessionStore,
  opts: CodeSignOnOptions,
): Promise<Outcome> {
  const params: Record<string, string> = { code, grant_type: 'authorization_code' };
  if (partner.clientId !== undefined) params.client_id = partner.clientId;
  if (partner.clientSecret !== undefined) params.client_secret = partner.clientSecret;
  if (partner.scope !== undefined) params.scope = partner.scope;
  const json = partner.tokenExchangeEncoding === 'json';
  const exchange = await callPartner(partner.tokenExchangeUrl, {
    method: 'POST',
    headers: {
      'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: json ? JSON.stringify(params) : new URLSearchParams(params).toString(),
  });
  const accessToken = (exchange.body as Record<string, unknown> | undefined)?.access_token;
  if (exchange.error || typeof accessToken !== 'string' || accessToken === '') {
    return problem('TOKEN_EXCHANGE_FAILED', `token exchange ${exchange.error ?? 'returned no access_token'}`, partner, hostOrigin);
  }
  const auth = { authorization: `Bearer ${accessToken}`, accept: 'application/json' };
  const account = await callPartner(partner.accountInfoUrl, { method: 'GET', headers: auth });
  if (account.error || typeof account.body !== 'object' || account.body === null || Array.isArray(account.body)) {
    return problem('ACCOUNT_INFO_FAILED', `account information ${account.error ?? 'is not a JSON object'}`, partner, hostOrigin);
  }
  const outcome = decide(partner, account.body, opts.now, opts.skipsCollection, hostOrigin);
  if (outcome.view === 'problem' || !partner.fundingSourcesUrl) return outcome;
  const funding = await callPartner(partner.fundingSourcesUrl, { method: 'GET', headers: auth });
  if (funding.error) return problem('FUNDING_SOURCES_FAILED', `funding sources ${funding.error}`, partner, hostOrigin);
  const parsed = parseFundingSources(funding.body);
  if (!parsed.ok) return problem('FUNDING_SOURCES_FAILED', `funding sources: ${parsed.detail}`, partner, hostOrigin);
  store.syncSources(partner.partnerName, outcome.userId as string, parsed.sources, opts.keepRemovedSources);
  return outcome;
}

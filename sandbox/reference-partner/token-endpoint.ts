import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { faultNamesOf } from '../fault-path';
import { equalSecrets } from '../secrets';
import { isFault, type Fault } from './faults';
import {
  echoingHeaders,
  echoingRefusal,
  hostileTokenAnswer,
  isHostileFault,
  isLeakFault,
  withByteOrderMark,
  type HostileFault,
  type LeakFault,
} from './hostile';
import { tokenLifetimeSeconds, type Store } from './store';
import { isAppFault, type AppFault } from './app';
import { referenceClient } from './client';

/** The reference partner's token endpoint (RFC 6749 §4.1.3, §5), with every fault of the catalogue that bends it, and the fault list of a request. */

type Params = Record<string, string>;
type Client = { id: string; secret: string };

export const realm = 'reference-partner';
/** What the token endpoint reads; the "token-rejects-unknown-params" fault refuses anything else. */
const knownParams = new Set(['grant_type', 'code', 'client_id', 'client_secret', 'scope', 'redirect_uri', 'code_verifier']);
export const formType = 'application/x-www-form-urlencoded';

export type Faults = ReadonlySet<Fault | HostileFault | LeakFault | AppFault>;
export const isKnownFault = (name: string): name is Fault | HostileFault | LeakFault | AppFault =>
  isFault(name) || isHostileFault(name) || isLeakFault(name) || isAppFault(name);

export function faultsOf(request: FastifyRequest): Faults {
  return new Set(faultNamesOf(request).filter(isKnownFault));
}

/** RFC 6749 §5.2 error body. */
export function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply.code(status).header('cache-control', 'no-store').header('pragma', 'no-cache').send({ error, error_description: description });
}

/** Client authentication, RFC 6749 §2.3.1: HTTP Basic or client_secret_post, never both. */
function authenticateClient(request: FastifyRequest, params: Params, faults: Faults, clientSecret: string): { client: Client | null } | { error: string } {
  const header = request.headers.authorization;
  let id = params.client_id;
  let secret = params.client_secret;
  if (header?.toLowerCase().startsWith('basic ')) {
    if (secret !== undefined) return { error: 'use one client authentication method, not Basic and client_secret together' };
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { error: 'malformed Basic credentials' };
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  if (id === undefined) return { client: null };
  if (id !== referenceClient.id) return { error: `unknown client_id` };
  if (secret === undefined) return { error: 'client_secret is required for this client' };
  if (!faults.has('ignores-client-secret') && !equalSecrets(secret, clientSecret)) return { error: 'wrong client_secret' };
  return { client: referenceClient };
}

/** What the token endpoint is set up with: the client's secret, and how it makes a refresh token. */
export interface TokenEndpointOptions {
  clientSecret: string;
  /** The refresh token issued with an access token; a self-test plants values that read like a report's own words. */
  refreshToken?: (accessToken: string) => string;
}
const defaultRefreshToken = (token: string) => `refresh-${token}`;

/** The token response, with the response-shape faults applied. */
function tokenBody(token: string, faults: Faults, refreshToken = defaultRefreshToken): Record<string, unknown> {
  const body: Record<string, unknown> = {
    access_token: token,
    token_type: faults.has('lowercase-bearer') ? 'bearer' : faults.has('token-type-mac') ? 'mac' : 'Bearer',
    expires_in: faults.has('expires-in-string') ? String(tokenLifetimeSeconds) : faults.has('expires-in-zero') ? 0 : tokenLifetimeSeconds,
    [faults.has('refresh-token-camel-case') ? 'refreshToken' : 'refresh_token']: refreshToken(token),
  };
  if (faults.has('no-access-token')) delete body.access_token;
  if (faults.has('access-token-not-string')) body.access_token = 4815162342;
  if (faults.has('empty-access-token')) body.access_token = '';
  if (faults.has('no-expires-in')) delete body.expires_in;
  if (faults.has('no-refresh-token')) {
    delete body.refresh_token;
    delete body.refreshToken;
  }
  return body;
}

function sendToken(
  reply: FastifyReply,
  token: string,
  faults: Faults,
  { echoed, refreshToken }: { echoed?: string | undefined; refreshToken?: ((token: string) => string) | undefined } = {},
) {
  if (!faults.has('no-cache-control')) reply.header('cache-control', 'no-store');
  if (!faults.has('no-pragma')) reply.header('pragma', 'no-cache');
  const body = tokenBody(token, faults, refreshToken);
  if (faults.has('token-echoes-secret') && echoed !== undefined) body.client_secret = echoed;
  reply.code(faults.has('status-201') ? 201 : 200);
  if (faults.has('token-bom')) return reply.type('application/json; charset=utf-8').send(withByteOrderMark(JSON.stringify(body)));
  return faults.has('html-content-type') ? reply.type('text/html; charset=utf-8').send(JSON.stringify(body)) : reply.send(body);
}

/** `firstOfRepeated`: a form field sent twice (an array) counts as its first value, as the "token-duplicate-params" fault takes it. */
export function stringParams(body: unknown, { firstOfRepeated = false } = {}): Params | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const entries = Object.entries(body).map(([name, value]): [string, unknown] => [name, firstOfRepeated && Array.isArray(value) ? value[0] : value]);
  return entries.every(([, value]) => typeof value === 'string') ? Object.fromEntries<string>(entries as [string, string][]) : undefined;
}

export function tokenEndpoint(store: Store, { clientSecret, refreshToken }: TokenEndpointOptions) {
  const throttled = new Set<string>();
  /** Per fault list: whether the "accepts-unknown-code-once" fault has let its one made-up code through. */
  const acceptedOnce = new Set<string>();
  /** Per code: whether the "token-race-loses-one-in-five" fault loses its race, drawn when the code is first presented. */
  const raceLost = new Map<string, boolean>();
  const losesRace = (code: string) => {
    if (!raceLost.has(code)) raceLost.set(code, Math.random() < 0.2);
    return raceLost.get(code)!;
  };
  const issue = (reply: FastifyReply, token: string, faults: Faults, echoed?: string) => sendToken(reply, token, faults, { echoed, refreshToken });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const faults = faultsOf(request);
    // Once per fault list: the first token request is throttled for a second, the rest are served.
    const list = [...faults].sort().join(',');
    if (faults.has('token-rate-limited-once') && !throttled.has(list)) {
      throttled.add(list);
      return oauthError(reply.header('retry-after', '1'), 429, 'slow_down', 'too many requests; retry in 1 s');
    }
    const hostile = hostileTokenAnswer(faults, request, reply, () => JSON.stringify(tokenBody('hostile-sample-token', faults)));
    if (hostile) return hostile;
    const isForm = (request.headers['content-type'] ?? '').toLowerCase().startsWith(formType);
    if (faults.has('token-redirect')) return reply.code(307).header('location', '/oauth/token').send();
    if ((faults.has('json-only') && isForm) || (faults.has('form-only') && !isForm)) {
      return oauthError(reply, 415, 'invalid_request', `${isForm ? 'form-encoded' : 'JSON'} token requests are not supported`);
    }
    const sent = stringParams(request.method === 'GET' ? request.query : request.body, { firstOfRepeated: faults.has('token-duplicate-params') });
    if (!sent) return oauthError(reply, 400, 'invalid_request', 'the body must be an object of string parameters, each sent once');
    const params = faults.has('token-secret-in-query') ? { ...stringParams(request.query), ...sent } : sent;
    const unknown = Object.keys(params).filter((name) => !knownParams.has(name));
    if (faults.has('token-rejects-unknown-params') && unknown.length > 0) return oauthError(reply, 400, 'invalid_request', `unknown parameter "${unknown[0]}"`);
    if (faults.has('grants-without-credentials') && (params.grant_type === 'password' || params.grant_type === 'client_credentials')) {
      return issue(reply, store.issueToken('complete'), faults);
    }
    if (faults.has('unknown-client'))
      return oauthError(reply.header('www-authenticate', `Basic realm="${realm}"`), 401, 'invalid_client', `unknown client "${params.client_id ?? ''}"`);
    if (faults.has('requires-basic-auth') && params.client_secret !== undefined) {
      return oauthError(
        reply.header('www-authenticate', `Basic realm="${realm}"`),
        401,
        'invalid_client',
        'client_secret_post is not allowed for this client; authenticate with HTTP Basic',
      );
    }

    const auth = authenticateClient(request, params, faults, clientSecret);
    if ('error' in auth) {
      if (faults.has('invalid-client-400')) return oauthError(reply, 400, 'invalid_client', auth.error);
      if (!faults.has('no-www-authenticate')) reply.header('www-authenticate', `Basic realm="${realm}"`);
      return oauthError(reply, 401, 'invalid_client', auth.error);
    }
    if (!faults.has('ignores-grant-type')) {
      if (params.grant_type === undefined) return oauthError(reply, 400, 'invalid_request', 'grant_type is required');
      if (params.grant_type !== 'authorization_code') {
        return faults.has('unauthorized-client-grant')
          ? oauthError(reply, 400, 'unauthorized_client', 'this client may use authorization_code only')
          : oauthError(reply, 400, 'unsupported_grant_type', 'only authorization_code is supported');
      }
    }
    if (!params.code) return oauthError(reply, 400, 'invalid_request', 'code is required');
    if (faults.has('requires-redirect-uri') && params.redirect_uri === undefined) return oauthError(reply, 400, 'invalid_request', 'redirect_uri is required');
    if (faults.has('requires-pkce') && params.code_verifier === undefined) return oauthError(reply, 400, 'invalid_grant', 'PKCE: code_verifier is required');

    const looked = store.lookUpCode(params.code);
    const found =
      looked.state === 'expired' && faults.has('token-codes-never-expire')
        ? { state: looked.record.used ? ('used' as const) : ('fresh' as const), record: looked.record }
        : looked;
    // Check, then await, then set: the race the "token-race-double-redeem" fault opens for every code, and
    // "token-race-loses-one-in-five" for one code in five, decided once a code (every request of a race shares it).
    if (found.state === 'fresh' && (faults.has('token-race-double-redeem') || (faults.has('token-race-loses-one-in-five') && losesRace(params.code))))
      await sleep(50);
    if (found.state === 'unknown' || found.state === 'expired') {
      if (faults.has('accepts-any-code')) return issue(reply, store.issueToken('complete'), faults);
      // A flaw that shows once: the first made-up code of a fault list gets a token, every later one is refused.
      if (faults.has('accepts-unknown-code-once') && !acceptedOnce.has(list)) {
        acceptedOnce.add(list);
        return issue(reply, store.issueToken('complete'), faults);
      }
      const error = faults.has('unknown-code-invalid-request') ? 'invalid_request' : 'invalid_grant';
      return oauthError(reply, 400, error, `the code is ${found.state}`);
    }
    const { record } = found;
    if (record.clientId !== null && auth.client?.id !== record.clientId) {
      return auth.client === null
        ? oauthError(reply.header('www-authenticate', `Basic realm="${realm}"`), 401, 'invalid_client', 'client authentication is required')
        : oauthError(reply, 400, 'invalid_grant', 'the code was issued to another client');
    }
    if (found.state === 'used' && !faults.has('allows-code-reuse')) {
      if (!faults.has('keeps-token-after-reuse')) store.revokeTokensOf(record);
      if (faults.has('echoes-secrets')) {
        const echo = echoingRefusal({
          clientId: params.client_id ?? '',
          clientSecret,
          code: params.code,
          tokens: [...record.tokens, ...store.recentlyRedeemed()],
        });
        return reply
          .code(401)
          .header('www-authenticate', `Basic realm="${realm}"`)
          .headers(echoingHeaders({ clientId: params.client_id ?? '', clientSecret, code: params.code }))
          .type('application/json')
          .send(echo);
      }
      return oauthError(reply, 400, 'invalid_grant', 'the code was already used');
    }
    return issue(reply, store.issueToken(record.user, record, { sequential: faults.has('token-sequential-tokens') }), faults, params.client_secret);
  };
}

/** RFC 6749 §3.2 wants POST: a GET is answered 405, unless the "token-accepts-get" fault takes it like a POST. */
export function tokenEndpointGet(store: Store, options: TokenEndpointOptions) {
  const post = tokenEndpoint(store, options);
  return async (request: FastifyRequest, reply: FastifyReply) =>
    faultsOf(request).has('token-accepts-get')
      ? post(request, reply)
      : oauthError(reply.header('allow', 'POST'), 405, 'invalid_request', 'the token endpoint takes POST only');
}

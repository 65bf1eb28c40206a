import { randomUUID } from 'node:crypto';
import { checkTransport } from '../checks/transport';
import { evaluate, skip, type Finding, type Rule } from '../checks/finding';
import {
  checkRefusal,
  checkJsonResponse,
  codeReuseInvalidGrant,
  codeReuseRejected,
  codeReuseRevokesToken,
  encodings,
  grantsToken,
  issuedToken,
  issuedTokenAccepted,
  missingGrantTypeRejected,
  successResponseRules,
  tokenFieldRules,
  tokenTransportRules,
  unauthorizedNamesScheme,
  unknownCodeInvalidGrant,
  unknownCodeRejected,
  unsupportedGrantTypeRejected,
  wrongSecretInvalidClient,
  wrongSecretRejected,
  jsonEncodingAccepted,
  formEncodingAccepted,
  type Encoding,
} from '../checks/token-exchange';
import { jsonResponse, type Exchange, type JsonResponse } from '../checks/evidence';
import type { Profile } from '../partners/profile';
import type { HttpClient, HttpRequest } from './http';
import { recorded, type Probe, type ProbeContext } from './probe';

/** What the platform knows about a partner's token exchange: the profile, or the emulator's partner configuration. */
export type TokenClient = Pick<Profile, 'tokenExchangeUrl' | 'clientId' | 'clientSecret' | 'scope'>;

type TokenParams = Partial<Record<'code' | 'grant_type' | 'client_id' | 'client_secret' | 'scope', string | undefined>>;

/**
 * The token request as the platform sends it (spec §4.2, §5.3): code and grant_type, plus client_id,
 * client_secret and scope only when the profile predefines them. `overrides` bends one parameter for
 * the negative cases; an override of `undefined` leaves the parameter out.
 */
export function tokenRequest(profile: TokenClient, encoding: Encoding, overrides: TokenParams): HttpRequest {
  const params: TokenParams = {
    grant_type: 'authorization_code',
    client_id: profile.clientId,
    client_secret: profile.clientSecret,
    scope: profile.scope,
    ...overrides,
  };
  const present = Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return {
    method: 'POST',
    url: profile.tokenExchangeUrl,
    headers: { 'content-type': encodings[encoding].contentType, accept: 'application/json' },
    body: encoding === 'json' ? JSON.stringify(present) : new URLSearchParams(present).toString(),
  };
}

/** A call to a Bearer-protected partner endpoint as the platform sends it (spec §4.2); without `token`, no Authorization header. */
export const resourceRequest = (url: string, token?: string): HttpRequest => ({
  method: 'GET',
  url,
  headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), accept: 'application/json' },
});

/** Judges one token call's transport first; `judged` is skipped when there is no usable response. */
function judgeTransport(exchange: Exchange, judged: readonly Rule<never, never>[]) {
  const { findings, usable } = checkTransport(tokenTransportRules, exchange);
  if (!usable) return { findings: [...findings, ...skip(judged, 'no usable response from "tokenExchangeUrl"')] };
  return { findings, response: jsonResponse(exchange.response!) };
}

/**
 * Sends a token request whose answer judges the partner's OAuth logic, or that only has to yield a
 * token, not its body parsing: it goes in the encoding the platform is configured to use for this
 * partner. A 415 is already reported by the encoding rules, so the request is then repeated in the
 * other encoding (a 415 spent no code).
 */
export async function sendTokenRequest(http: HttpClient, profile: Profile, overrides: TokenParams): Promise<Exchange> {
  const configured = profile.tokenExchangeEncoding;
  const exchange = await http.send(tokenRequest(profile, configured, overrides));
  if (exchange.response?.status !== 415) return exchange;
  return http.send(tokenRequest(profile, configured === 'json' ? 'form' : 'json', overrides));
}

function exchangeProbe(encoding: Encoding): Probe {
  const accepted = encoding === 'json' ? jsonEncodingAccepted : formEncodingAccepted;
  const judged = [accepted, ...successResponseRules, ...tokenFieldRules, issuedTokenAccepted];
  return {
    id: `token-exchange/${encoding}`,
    title: `${encodings[encoding].label} token exchange issues a working token`,
    codes: 1,
    run: (ctx) =>
      recorded(ctx, async (http) => {
        const code = await ctx.codes.next();
        const call = judgeTransport(await http.send(tokenRequest(ctx.profile, encoding, { code })), judged);
        if (!call.response) return call.findings;
        const findings = [...call.findings, ...checkJsonResponse(encoding, call.response)];
        const token = issuedToken(call.response);
        if (!token) return [...findings, ...skip([issuedTokenAccepted], 'no access token was issued')];
        const use = await http.send(resourceRequest(ctx.profile.accountInfoUrl, token));
        return [...findings, ...evaluate(issuedTokenAccepted, { encoding, exchange: use }, undefined)];
      }),
  };
}

/** A negative case: one request that must be refused, judged by a refusal rule and its error format. */
function refusalProbe(
  spec: Pick<Probe, 'id' | 'title' | 'codes' | 'skipReason'>,
  request: (ctx: ProbeContext) => Promise<TokenParams>,
  judge: (response: JsonResponse) => Finding[],
  judged: readonly Rule<never, never>[],
): Probe {
  return {
    ...spec,
    run: (ctx) =>
      recorded(ctx, async (http) => {
        const call = judgeTransport(await sendTokenRequest(http, ctx.profile, await request(ctx)), judged);
        return call.response ? [...call.findings, ...judge(call.response)] : call.findings;
      }),
  };
}

const unknownCodeProbe = refusalProbe(
  { id: 'token-exchange/unknown-code', title: 'an unknown code is refused with invalid_grant', codes: 0 },
  async () => ({ code: `certify-unknown-${randomUUID()}` }),
  (response) => checkRefusal(unknownCodeRejected, unknownCodeInvalidGrant, response),
  [unknownCodeRejected, unknownCodeInvalidGrant, unauthorizedNamesScheme],
);

const wrongSecretProbe = refusalProbe(
  {
    id: 'token-exchange/wrong-secret',
    title: 'a wrong client secret is refused with invalid_client',
    codes: 1,
    skipReason: (profile) => (profile.clientSecret ? undefined : 'the profile has no "clientSecret", so the platform sends no client credentials'),
  },
  async ({ codes }) => ({ code: await codes.next(), client_secret: `wrong-${randomUUID()}` }),
  (response) => checkRefusal(wrongSecretRejected, wrongSecretInvalidClient, response),
  [wrongSecretRejected, wrongSecretInvalidClient, unauthorizedNamesScheme],
);

const missingGrantTypeProbe = refusalProbe(
  { id: 'token-exchange/missing-grant-type', title: 'a request without grant_type is refused with invalid_request', codes: 1 },
  async ({ codes }) => ({ code: await codes.next(), grant_type: undefined }),
  (response) => evaluate(missingGrantTypeRejected, response, undefined),
  [missingGrantTypeRejected],
);

const unsupportedGrantTypeProbe = refusalProbe(
  { id: 'token-exchange/unsupported-grant-type', title: 'an unsupported grant_type is refused with unsupported_grant_type', codes: 1 },
  async ({ codes }) => ({ code: await codes.next(), grant_type: 'password' }),
  (response) => evaluate(unsupportedGrantTypeRejected, response, undefined),
  [unsupportedGrantTypeRejected],
);

const codeReuseProbe: Probe = {
  id: 'token-exchange/code-reuse',
  title: 'a reused code is refused and its first token revoked',
  codes: 1,
  run: (ctx) =>
    recorded(ctx, async (http) => {
      const reuseRules = [codeReuseRejected, codeReuseInvalidGrant, unauthorizedNamesScheme, codeReuseRevokesToken];
      const code = await ctx.codes.next();
      const first = await sendTokenRequest(http, ctx.profile, { code });
      const token = first.response && issuedToken(jsonResponse(first.response));
      // The first exchange is judged by the exchange probes; here it only has to yield a token.
      if (!token) return skip(reuseRules, 'the first exchange of the code issued no access token');
      const second = judgeTransport(await sendTokenRequest(http, ctx.profile, { code }), reuseRules);
      if (!second.response) return second.findings;
      const refusal = checkRefusal(codeReuseRejected, codeReuseInvalidGrant, second.response);
      if (grantsToken(second.response)) {
        return [...second.findings, ...refusal, ...skip([codeReuseRevokesToken], 'the reused code was accepted')];
      }
      const retry = await http.send(resourceRequest(ctx.profile.accountInfoUrl, token));
      return [...second.findings, ...refusal, ...evaluate(codeReuseRevokesToken, retry, undefined)];
    }),
};

export const tokenExchangeProbes: readonly Probe[] = [
  exchangeProbe('json'),
  exchangeProbe('form'),
  unknownCodeProbe,
  codeReuseProbe,
  wrongSecretProbe,
  missingGrantTypeProbe,
  unsupportedGrantTypeProbe,
];

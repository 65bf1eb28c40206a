import { resourceRequest, tokenRequest } from '../client/requests';
import { randomUUID } from 'node:crypto';
import { evaluate } from '../checks/finding';
import { grantsToken, otherEncoding, tokenTransportRules } from '../checks/token-exchange';
import {
  checkRefusal,
  codeReuseInvalidGrant,
  codeReuseRejected,
  codeReuseRevokesToken,
  missingGrantTypeRejected,
  noTokenWithoutCredentials,
  schemeOf,
  unauthorizedNamesScheme,
  unknownCodeInvalidGrant,
  unknownCodeRejected,
  unsupportedGrantTypeRejected,
  wrongSecretInvalidClient,
  wrongSecretRejected,
} from '../checks/token-refusals';
import { checkJsonResponse, issuedTokenAccepted, successResponseRules, noTokenBlocker, tokenFieldRules } from '../checks/token-response';
import { issuedToken } from '../checks/token-exchange';
import { basicTellsApart, configuredEncodingAccepted, negativeCasesEncoding, otherEncodingNoted } from '../checks/token-encoding';
import { jsonResponse, type JsonResponse } from '../checks/evidence';
import type { HttpClient } from '../client/http';
import { exchangeCode } from './exchange';
import { after, stopped, withNeeds, type Probe, type ProbeContext } from './probe';
import { answeredOf, encodingNote, judgeEcho, judgeTransport, perCall, refusalProbe, secretOf, workerEncoding } from './token-calls';
import { freshToken, profileHas } from './needs';
import { noEchoedCredentials } from '../checks/token-hardening';
import { tokenHardeningProbes } from './token-hardening';
import { discoveryProbe } from './token-discovery';

/** The exchange with a fresh code in the configured encoding: every rule of a successful token response. */
const judgedByConfigured = [configuredEncodingAccepted, ...successResponseRules, ...tokenFieldRules, noEchoedCredentials, issuedTokenAccepted];
const configuredExchangeProbe: Probe = {
  kind: 'http',
  id: 'token-exchange/configured',
  area: 'token-exchange',
  title: "the configured encoding's token exchange issues a working token",
  rules: [...tokenTransportRules, ...judgedByConfigured],
  // One more when the client is refused, for the same credentials sent with HTTP Basic (basicTellsApart).
  codes: (profile) => (profile.clientId !== undefined && profile.clientSecret !== undefined ? 2 : 1),
  run: async (ctx, _met, http) => {
    const encoding = ctx.profile.tokenExchangeEncoding;
    // A refused exchange is retried in the other encoding with the same code, to tell an encoding problem from any other.
    const code = await ctx.codes.next();
    const [first, retried] = (await exchangeCode(http, ctx.profile, code)).exchanges;
    const call = judgeTransport(first!);
    if ('stop' in call) return call;
    const client = { clientId: ctx.profile.clientId, clientSecret: ctx.profile.clientSecret, secretVariable: ctx.envNames?.clientSecret };
    const other = retried?.response && jsonResponse(retried.response);
    const basic = !(other && grantsToken(other)) && basicTellsApart(call.response, client) ? await sentWithBasic(http, ctx) : undefined;
    const sent = [...secretOf(ctx.profile), { what: 'the code', value: code }];
    const findings = [
      ...call.findings,
      ...checkJsonResponse({ encoding, response: call.response, client, ...(other ? { other } : {}), ...(basic ? { basic } : {}) }),
      ...judgeEcho(ctx.profile, call.response, sent),
    ];
    const token = issuedToken(call.response);
    if (!token) return stopped({ blockedBy: noTokenBlocker(call.response) }, findings);
    const use = await http.send(resourceRequest(ctx.profile.accountInfoUrl, token));
    return [...findings, ...evaluate(issuedTokenAccepted, { encoding, exchange: use }, undefined)];
  },
};

/**
 * The platform's request with its client credentials sent with HTTP Basic instead (RFC 6749 §2.3.1), and a
 * fresh code: the first was sent twice already and may be spent. Only to tell a refused secret from a
 * Basic-only endpoint: the platform never sends Basic, so nothing else is judged on the answer.
 */
async function sentWithBasic(http: Pick<HttpClient, 'send'>, ctx: ProbeContext): Promise<JsonResponse | undefined> {
  const { response } = await http.send(tokenRequest(ctx.profile, ctx.profile.tokenExchangeEncoding, { code: await ctx.codes.next() }, { basic: true }));
  return response && jsonResponse(response);
}

/** The other encoding, tried with a fresh code for information: could the platform be switched? */
const otherEncodingProbe: Probe = {
  kind: 'http',
  id: 'token-exchange/other-encoding',
  area: 'token-exchange',
  title: 'the other encoding is tried, for information',
  rules: [otherEncodingNoted],
  codes: 1,
  run: async (ctx, _met, http) => {
    const encoding = otherEncoding(ctx.profile.tokenExchangeEncoding);
    const exchange = await http.send(tokenRequest(ctx.profile, encoding, { code: await ctx.codes.next() }));
    return evaluate(otherEncodingNoted, { encoding, exchange }, undefined);
  },
};

const unknownCodeProbe = refusalProbe(
  {
    id: 'token-exchange/unknown-code',
    title: 'an unknown code is refused with invalid_grant',
    // It owns the rules every negative case shares: the note on the encoding, and the scheme a 401 names.
    rules: [unknownCodeRejected, unknownCodeInvalidGrant, unauthorizedNamesScheme, negativeCasesEncoding],
    codes: 0,
  },
  async () => ({ code: `certify-unknown-${randomUUID()}` }),
  (answered) => checkRefusal(unknownCodeRejected, unknownCodeInvalidGrant, answered),
);

const wrongSecretProbe = refusalProbe(
  {
    id: 'token-exchange/wrong-secret',
    title: 'a wrong client secret is refused with invalid_client',
    rules: [wrongSecretRejected, wrongSecretInvalidClient],
    alsoJudges: [unauthorizedNamesScheme],
    codes: 1,
    profileNeeds: [profileHas('clientSecret', 'the platform sends no client credentials')],
  },
  async ({ codes }) => ({ code: await codes.next(), client_secret: `wrong-${randomUUID()}` }),
  (answered) => checkRefusal(wrongSecretRejected, wrongSecretInvalidClient, answered),
);

const missingGrantTypeProbe = refusalProbe(
  {
    id: 'token-exchange/missing-grant-type',
    title: 'a request without grant_type is refused with invalid_request',
    rules: [missingGrantTypeRejected],
    codes: 1,
  },
  async ({ codes }) => ({ code: await codes.next(), grant_type: undefined }),
  ({ response }) => evaluate(missingGrantTypeRejected, response, undefined),
);

/**
 * Grants the platform never uses: the platform's own request with "grant_type": "password" (a SHOULD on
 * its error code), and "password" and "client_credentials" with the client credentials left out, which
 * must never yield a token (RFC 6749 §3.2.1, §4.3.2, §4.4.2). Without a "clientSecret" the platform's own
 * request carries no credentials either, so a token for it is the same MUST failure.
 */
const otherGrantsProbe = withNeeds({
  kind: 'http',
  id: 'token-exchange/other-grants',
  area: 'token-exchange',
  title: 'other grant types are refused, and none yields a token without client credentials',
  rules: [unsupportedGrantTypeRejected, noTokenWithoutCredentials],
  alsoJudges: perCall,
  codes: 1,
  needs: { worker: workerEncoding },
  run: async (ctx, { worker: { encoding } }, http) => {
    const noCredentials = { client_id: undefined, client_secret: undefined, code: `certify-unknown-${randomUUID()}` };
    const requests = [
      { grantType: 'password', params: { code: await ctx.codes.next(), grant_type: 'password' }, credentials: ctx.profile.clientSecret !== undefined },
      { grantType: 'password', params: { ...noCredentials, grant_type: 'password' }, credentials: false },
      { grantType: 'client_credentials', params: { ...noCredentials, grant_type: 'client_credentials' }, credentials: false },
    ];
    const answers = await Promise.all(requests.map(({ params }) => http.send(tokenRequest(ctx.profile, encoding, params))));
    const [platformsOwn, ...withoutCredentials] = answers.map((exchange, index) => ({ exchange, ...requests[index]! }));
    const unauthenticated = [...(platformsOwn!.credentials ? [] : [platformsOwn!]), ...withoutCredentials].filter(({ exchange }) => exchange.response);
    const judgedFreely = unauthenticated.flatMap(({ grantType, exchange }) =>
      evaluate(noTokenWithoutCredentials, { grantType, response: jsonResponse(exchange.response!) }, undefined),
    );
    const freeTokens = judgedFreely.filter((f) => f.outcome === 'failed');
    const free = freeTokens.length > 0 ? freeTokens : judgedFreely.slice(0, 1);
    const note = encodingNote(ctx, encoding);
    const own = judgeTransport(platformsOwn!.exchange);
    if ('stop' in own) return after(note, { ...own, findings: [...own.findings, ...free] });
    const judged = [...note, ...own.findings, ...judgeEcho(ctx.profile, own.response)];
    // A token for anyone is the cause; the error code of the platform's own request is moot then.
    if (freeTokens.length > 0)
      return stopped({ blockedBy: { rule: noTokenWithoutCredentials.id, reason: 'other grants yield tokens without credentials' } }, [...judged, ...free]);
    return [...judged, ...evaluate(unsupportedGrantTypeRejected, own.response, undefined), ...free];
  },
});

const codeReuseProbe = withNeeds({
  kind: 'http',
  id: 'token-exchange/code-reuse',
  area: 'token-exchange',
  title: 'a reused code is refused and its first token revoked',
  rules: [codeReuseRejected, codeReuseInvalidGrant, codeReuseRevokesToken],
  alsoJudges: [...perCall, unauthorizedNamesScheme],
  answersFor: answeredOf([...perCall, unauthorizedNamesScheme]),
  codes: 1,
  // The first exchange is judged by the exchange probes; here it only has to yield a token, in an encoding
  // shown to work, and the reuse goes in that same encoding.
  needs: { first: freshToken('the first exchange of the code issued no access token') },
  run: async (ctx, { first }, http) => {
    const note = encodingNote(ctx, first.encoding);
    const sent = tokenRequest(ctx.profile, first.encoding, { code: first.code });
    const second = judgeTransport(await http.send(sent));
    if ('stop' in second) return after(note, second);
    const judged = [
      ...note,
      ...second.findings,
      ...judgeEcho(ctx.profile, second.response),
      ...checkRefusal(codeReuseRejected, codeReuseInvalidGrant, { response: second.response, scheme: schemeOf(sent) }),
    ];
    if (grantsToken(second.response)) return stopped({ blockedBy: { rule: codeReuseRejected.id, reason: 'the reused code was accepted' } }, judged);
    const retry = await http.send(resourceRequest(ctx.profile.accountInfoUrl, first.token));
    return [...judged, ...evaluate(codeReuseRevokesToken, retry, undefined)];
  },
});

export const tokenExchangeProbes: readonly Probe[] = [
  configuredExchangeProbe,
  otherEncodingProbe,
  unknownCodeProbe,
  codeReuseProbe,
  wrongSecretProbe,
  missingGrantTypeProbe,
  otherGrantsProbe,
  ...tokenHardeningProbes,
  discoveryProbe,
];

import type { ClauseId } from './clauses';
import { bodyPreview, jsonObject, jsonResponse, jsonType, mediaType, type Exchange, type JsonResponse, type RequestRecord } from './evidence';
import { blocked, evaluate, evaluateAll, failed, type Blocker, type Finding, type Level, type Rule, type AnyRule } from './finding';
import { jsonResponseRules, statusDescription } from './response';
import { checkTransport, transportRules } from './transport';

/** Spec §4.2: the token request body is JSON or form-encoded; the platform may send either. */
export type Encoding = 'json' | 'form';

export const encodings: Record<Encoding, { label: string; contentType: string }> = {
  json: { label: 'JSON', contentType: 'application/json' },
  form: { label: 'form-encoded', contentType: 'application/x-www-form-urlencoded' },
};
export const otherEncoding = (encoding: Encoding): Encoding => (encoding === 'json' ? 'form' : 'json');

const isSuccess = (status: number) => status >= 200 && status <= 299;
const stringField = (r: JsonResponse, name: string) => {
  const value = jsonObject(r)?.[name];
  return typeof value === 'string' ? value : undefined;
};
const errorCode = (r: JsonResponse) => stringField(r, 'error');
/** The partner's own words, bounded: they are quoted and matched, never trusted to be short. */
const bounded = (text: string | undefined) => (text === undefined || text.length <= 200 ? text : `${text.slice(0, 200)}…`);
const errorDescription = (r: JsonResponse) => bounded(stringField(r, 'error_description'));
/** Whether the endpoint granted the request: a 2xx, or any answer that carries a token. */
export const grantsToken = (r: JsonResponse) => isSuccess(r.status) || jsonObject(r)?.access_token !== undefined;

/** `400 with "error": "invalid_grant", "error_description": "…"`, `200 with an "access_token"`, `415 with a text/html body "<html>…"`. */
export function describeJsonResponse(r: JsonResponse): string {
  const object = jsonObject(r);
  if (object?.access_token !== undefined) return `${statusDescription(r)} with an "access_token"`;
  const code = errorCode(r);
  const description = errorDescription(r);
  if (code !== undefined) return `${statusDescription(r)} with "error": ${JSON.stringify(bounded(code))}${description === undefined ? '' : `, "error_description": ${JSON.stringify(description)}`}`;
  if (r.body.trim() === '') return `${statusDescription(r)} with an empty body`;
  return `${statusDescription(r)} with a ${mediaType(r.headers) || 'untyped'} body ${bodyPreview(r.body)}`;
}

const signOnFails = 'sign-on fails for every user';

export const tokenTransportRules = transportRules('token-exchange', 'tokenExchangeUrl');

// ---- the exchange with a fresh code: the configured encoding, and the other one ---------------------

/**
 * A token request with a fresh code in the configured encoding and, when that was refused, the same
 * request (the same code: a refused body spent none) in the other encoding, to tell the cause apart.
 */
export interface EncodingTrial {
  encoding: Encoding;
  response: JsonResponse;
  other?: JsonResponse;
  /** What the platform sends for this partner (spec §5.3). */
  client: { clientId?: string | undefined; clientSecret?: string | undefined };
}

const says = (r: JsonResponse, pattern: RegExp) => pattern.test(`${bounded(errorCode(r)) ?? ''} ${errorDescription(r) ?? ''}`);
const complainsOfEncoding = (r: JsonResponse) => r.status === 415 || says(r, /content.?type|urlencoded|application\/json|media type|json bod|form bod/i);

/**
 * The common root causes of a refused exchange, recognised from the partner's own error and
 * error_description, each with its fix in the partner's terms. Undefined when none is recognised.
 */
function rootCause(r: JsonResponse, { clientId, clientSecret }: EncodingTrial['client']): string | undefined {
  if (says(r, /redirect.?uri/i)) {
    return 'the partner requires "redirect_uri", which the platform never sends (spec §4.2 lists only code, grant_type, client_id, client_secret and scope); exchange the platform\'s codes without "redirect_uri": issue them without a redirect URI binding, or register exactly one redirect URI for its client and let the token request omit it (RFC 6749 §4.1.3 requires it only when the authorization request carried one)';
  }
  if (says(r, /code.?verifier|pkce|code.?challenge/i)) {
    return 'the partner requires PKCE ("code_verifier"), which the platform never sends (spec §4.2); issue the platform\'s codes without a "code_challenge", or exempt its client from PKCE: it is a confidential client that authenticates with its secret';
  }
  const clientProblem = errorCode(r) === 'invalid_client' || says(r, /client.?(id|secret|auth|credential)/i);
  if (!clientProblem) return undefined;
  if (clientId === undefined || clientSecret === undefined) {
    return 'the partner requires client authentication, and the profile has no "clientId" and "clientSecret", so the platform sends none (spec §5.3); predefine the client credentials in the platform\'s configuration for this partner (profile "clientId" and "clientSecret")';
  }
  if (says(r, /basic|client_secret_post|authentication method|auth(entication)?.?method|authorization header/i)) {
    return 'the partner requires HTTP Basic client authentication, while the platform sends "client_id" and "client_secret" in the body (client_secret_post; spec §4.2, §5.3); allow client_secret_post for the platform\'s client (RFC 6749 §2.3.1 lets a server accept credentials in the body)';
  }
  if (says(r, /(unknown|not found|not registered|no such|does not exist|not exist)[^.]{0,20}client|client[^.]{0,30}(unknown|not found|not registered|does not exist)/i)) {
    return `the partner does not know the client_id ${JSON.stringify(clientId)}; register the platform's client under that id, or correct "clientId" in the profile`;
  }
  return `the partner refused the platform's client credentials; check that "clientId" (${JSON.stringify(clientId)}) is registered, that "clientSecret" is its current secret, and that the client may send its credentials in the body (client_secret_post, RFC 6749 §2.3.1)`;
}

/** One message for a refused exchange: the partner's words, the root cause and its fix (both fixes for an encoding). */
export function diagnoseRefusal(trial: EncodingTrial): string {
  const { label, contentType } = encodings[trial.encoding];
  const alternative = otherEncoding(trial.encoding);
  const other = encodings[alternative];
  const head = `a ${label} token request with a fresh "code" was answered ${describeJsonResponse(trial.response)}`;
  if (trial.other && issuedToken(trial.other)) {
    return `${head}, while the same request ${other.label} was answered with a token: the partner does not accept ${contentType} bodies; either accept ${contentType} token requests (spec §4.2 lets the platform send either), or have the platform configured to send ${other.contentType} for this partner ("tokenExchangeEncoding": "${alternative}")`;
  }
  const cause = rootCause(trial.response, trial.client);
  if (cause) return `${head}: ${cause}`;
  if (trial.other && complainsOfEncoding(trial.response)) {
    // The other encoding got past the body parser: its refusal names the cause behind the encoding.
    const further = `the same request ${other.label} got further and was answered ${describeJsonResponse(trial.other)}`;
    const otherCause = rootCause(trial.other, trial.client);
    return `${head}; ${further}: accept ${contentType} bodies (or have the platform send ${other.contentType}, "tokenExchangeEncoding": "${alternative}")${otherCause ? `, and then: ${otherCause}` : ', and answer that request with a token'}`;
  }
  return `${head}; answer a token request with a fresh "code" with 200 and an "access_token"`;
}

export const configuredEncodingAccepted: Rule<EncodingTrial> = {
  id: 'token-exchange/encoding',
  field: 'tokenExchangeEncoding',
  clause: 'spec §4.2',
  level: 'MUST',
  requirement: 'a token request with a fresh code, in the encoding the platform is configured to send ("tokenExchangeEncoding"), is answered with a token',
  impact: signOnFails,
  check: (trial) => (isSuccess(trial.response.status) ? [] : [{ message: diagnoseRefusal(trial) }]),
};

export const otherEncodingNoted: Rule<{ encoding: Encoding; exchange: Exchange }> = {
  id: 'token-exchange/other-encoding',
  field: 'tokenExchangeEncoding',
  clause: 'spec §4.2',
  level: 'INFO',
  requirement: 'the encoding the platform is not configured to send is tried, so the platform team knows whether it could switch',
  impact: 'none: the platform sends only the configured encoding',
  check: ({ encoding, exchange }) => {
    const { label } = encodings[encoding];
    // Its transport is the configured exchange's too, and judged there: here an unusable answer is only noted.
    if (!exchange.response) return [{ message: `a ${label} token request got no usable answer (${exchange.failure?.message ?? 'none'})` }];
    const response = jsonResponse(exchange.response);
    return issuedToken(response)
      ? [{ message: `a ${label} token request with a fresh "code" was answered with a token: the platform could also be switched to ${label} ("tokenExchangeEncoding": "${encoding}")` }]
      : [{ message: `a ${label} token request with a fresh "code" was answered ${describeJsonResponse(response)}: the platform could not be switched to ${label} without a change on the partner's side` }];
  },
};

export const negativeCasesEncoding: Rule<{ configured: Encoding; used: Encoding }> = {
  id: 'token-exchange/negative-cases-encoding',
  field: 'tokenExchangeEncoding',
  clause: 'spec §4.2',
  level: 'INFO',
  requirement: 'the negative cases are sent in an encoding that has been shown to issue a token, so none fails because of the encoding',
  impact: 'none: a note on how the negative cases were sent',
  check: ({ configured, used }) => [
    {
      message:
        configured === used
          ? `the negative cases were sent ${encodings[used].label}, the configured encoding, which issued a token`
          : `the negative cases were sent ${encodings[used].label}, the encoding shown to issue a token: the configured ${encodings[configured].label} encoding issued none (see token-exchange/encoding)`,
    },
  ],
};

export const {
  status: status200,
  contentType: contentTypeJson,
  bodyJson: bodyJsonObject,
  utf8: utf8Body,
  uniqueKeys,
  noProtoKeys,
} = jsonResponseRules({
  id: 'token-exchange',
  answer: 'a successful token exchange',
  example: '{"access_token": "…"}',
  clause: 'RFC6749 §5.1',
  impact: signOnFails,
});

type TokenFields = Record<string, unknown>;

export const accessToken: Rule<TokenFields> = {
  id: 'token-exchange/access-token',
  field: 'access_token',
  clause: 'spec §4.2',
  level: 'MUST',
  requirement: '"access_token" is a non-empty string',
  impact: `${signOnFails}: without a token the platform cannot read the account`,
  check: ({ access_token: token }) => {
    // The value is a secret: messages name its type, never its content.
    if (token === undefined) return [{ message: '"access_token" is missing; return the issued token as "access_token"' }];
    if (typeof token !== 'string') return [{ message: `"access_token" is ${jsonType(token)}; send the token as a JSON string` }];
    return token.trim() === '' ? [{ message: '"access_token" is an empty string; send the issued token' }] : [];
  },
};

export const tokenTypeBearer: Rule<TokenFields> = {
  id: 'token-exchange/token-type',
  field: 'token_type',
  clause: 'RFC6749 §5.1',
  level: 'MUST',
  requirement: '"token_type", when present, is "Bearer" (any case)',
  impact: `${signOnFails}: the platform presents the token only as a Bearer token`,
  check: ({ token_type: type }) => {
    if (type === undefined) return [];
    if (typeof type === 'string' && type.toLowerCase() === 'bearer') return [];
    return [{ message: `"token_type" is ${JSON.stringify(type)}; send "Bearer" or leave it out` }];
  },
};

export const expiresInPositiveInteger: Rule<TokenFields> = {
  id: 'token-exchange/expires-in',
  field: 'expires_in',
  clause: 'RFC6749 §5.1',
  level: 'MUST',
  requirement: '"expires_in", when present, is a positive integer JSON number of seconds',
  impact: 'the platform misreads the token lifetime and signs users in with an expired token',
  check: ({ expires_in: expiresIn }) => {
    if (expiresIn === undefined) return [];
    if (typeof expiresIn !== 'number') return [{ message: `"expires_in" is ${jsonType(expiresIn)} (${JSON.stringify(expiresIn)}); send a JSON number` }];
    if (!Number.isInteger(expiresIn) || expiresIn <= 0) return [{ message: `"expires_in" is ${expiresIn}; send the lifetime in seconds as a positive integer` }];
    return [];
  },
};

export const expiresInPresent: Rule<TokenFields> = {
  id: 'token-exchange/expires-in-present',
  field: 'expires_in',
  clause: 'RFC6749 §5.1',
  level: 'SHOULD',
  requirement: '"expires_in" tells the token lifetime',
  impact: 'the platform cannot tell when the token expires and learns it only from a failed call',
  check: ({ expires_in: expiresIn }) =>
    expiresIn === undefined ? [{ message: '"expires_in" is missing; send the token lifetime in seconds' }] : [],
};

export const refreshTokenNoted: Rule<TokenFields> = {
  id: 'token-exchange/refresh-token',
  field: 'refresh_token',
  clause: 'spec §4.2',
  level: 'INFO',
  requirement: 'a refresh token is optional',
  impact: 'none: a refresh token is optional',
  check: (fields) => {
    // The spec's text says `refreshToken`, RFC 6749 says `refresh_token`; note whichever is sent.
    const spelling = ['refresh_token', 'refreshToken'].find((name) => fields[name] !== undefined);
    return [{ message: spelling ? `a refresh token is returned as "${spelling}"` : 'no refresh token is returned; the platform repeats sign-on when the token expires' }];
  },
};

function headerHas(id: string, header: string, token: string): Rule<JsonResponse> {
  return {
    id,
    field: header,
    clause: 'RFC6749 §5.1',
    level: 'SHOULD',
    requirement: `the token response carries "${header}: ${token}"`,
    impact: 'a proxy or browser cache may keep a copy of the access token',
    check: ({ headers }) => {
      const value = headers[header.toLowerCase()];
      if (value?.toLowerCase().split(',').some((part) => part.trim() === token)) return [];
      return [{ message: `"${header}" is ${value === undefined ? 'missing' : JSON.stringify(value)}; send "${header}: ${token}"` }];
    },
  };
}

export const cacheControlNoStore = headerHas('token-exchange/cache-control', 'Cache-Control', 'no-store');
export const pragmaNoCache = headerHas('token-exchange/pragma', 'Pragma', 'no-cache');

export const successResponseRules = [status200, contentTypeJson, bodyJsonObject, utf8Body, uniqueKeys, noProtoKeys, cacheControlNoStore, pragmaNoCache];
export const tokenFieldRules = [accessToken, tokenTypeBearer, expiresInPositiveInteger, expiresInPresent, refreshTokenNoted];

/** Judges the answer to a token request with a fresh code in the configured encoding; each gate blocks what it makes meaningless. */
export function checkJsonResponse(trial: EncodingTrial): Finding[] {
  const { response } = trial;
  const acceptance = evaluate(configuredEncodingAccepted, trial, undefined);
  if (failed(acceptance).length > 0) {
    return [...acceptance, ...blocked([...successResponseRules, ...tokenFieldRules], { rule: configuredEncodingAccepted.id, reason: 'the token request was refused' })];
  }
  const shape = evaluateAll(successResponseRules, response, undefined);
  const fields = jsonObject(response);
  if (!fields) return [...acceptance, ...shape, ...blocked(tokenFieldRules, { rule: bodyJsonObject.id, reason: 'the body is not a JSON object' })];
  return [...acceptance, ...shape, ...evaluateAll(tokenFieldRules, fields, undefined)];
}

/**
 * Why an exchange of a fresh code yielded no token, as the rule whose failure explains it: the
 * transport, a redirect, a refusal, or a 2xx without a usable "access_token".
 */
export function tokenBlocker(exchange: Exchange): Blocker {
  const transport = checkTransport(tokenTransportRules, exchange, noToken);
  return transport.usable ? noTokenBlocker(jsonResponse(exchange.response!)) : transport.blocker;
}

const noToken = 'no access token was issued';
/** Why a response that arrived carries no token: it was refused, or its 2xx lacks a usable "access_token". */
export const noTokenBlocker = (response: JsonResponse): Blocker => ({ rule: isSuccess(response.status) ? accessToken.id : configuredEncodingAccepted.id, reason: noToken });

/** The usable access token of a successful (2xx) response, if there is one. */
export function issuedToken(response: JsonResponse): string | undefined {
  if (!isSuccess(response.status)) return undefined;
  const token = jsonObject(response)?.access_token;
  return typeof token === 'string' && token.trim() !== '' ? token : undefined;
}

/**
 * Whether "accountInfoUrl" took a token: a 2xx is yes, a 401 or other error is no. A transport failure
 * or a redirect says nothing about the token; the account-info rules report those.
 */
function tokenVerdict({ response, failure }: Exchange): 'accepted' | 'refused' | { unknown: string } {
  if (failure) return { unknown: `"accountInfoUrl" gave no usable answer (${failure.message}); see account-info/transport` };
  const status = response!.status;
  if (status >= 300 && status <= 399) return { unknown: `"accountInfoUrl" answered with a ${status} redirect; see account-info/redirect` };
  return isSuccess(status) ? 'accepted' : 'refused';
}

export const issuedTokenAccepted: Rule<{ encoding: Encoding; exchange: Exchange }> = {
  id: 'token-exchange/token-accepted',
  field: 'accountInfoUrl',
  clause: 'spec §4.2',
  level: 'MUST',
  requirement: 'the issued access token is accepted by "accountInfoUrl"',
  impact: `${signOnFails}: the platform cannot read the account with the token it was given`,
  check: ({ encoding, exchange }) => {
    const verdict = tokenVerdict(exchange);
    if (typeof verdict === 'object') return [{ message: verdict.unknown, outcome: 'skipped' }];
    const from = `the access token from the ${encodings[encoding].label} exchange`;
    return verdict === 'accepted' ? [] : [{ message: `"accountInfoUrl" answered ${exchange.response!.status} to ${from}; accept every token the token endpoint issues` }];
  },
};

// ---- negative cases (RFC 6749) ------------------------------------------------------------------

interface Situation {
  id: string;
  /** The request, as a phrase: `an unknown "code"`. */
  what: string;
  level: Level;
  clause: ClauseId;
  impact: string;
}

function rejects({ id, what, level, clause, impact }: Situation): Rule<JsonResponse> {
  return {
    id,
    field: 'code',
    clause,
    level,
    requirement: `${what} is refused, without a token`,
    impact,
    check: (r) => (grantsToken(r) ? [{ message: `${what} was answered ${describeJsonResponse(r)}; refuse it` }] : []),
  };
}

/** The error RFC 6749 §5.2 prescribes for a situation: any of `errors`, with any of `statuses`. */
function answersError({ id, what, level, clause, impact }: Situation, statuses: readonly number[], errors: readonly string[]): Rule<JsonResponse> {
  const alternatives = (items: readonly (string | number)[]) => items.map((item) => (typeof item === 'string' ? `"${item}"` : String(item))).join(' or ');
  const expected = `${alternatives(statuses)} with {"error": ${alternatives(errors)}}`;
  return {
    id,
    field: 'error',
    clause,
    level,
    requirement: `${what} is answered ${expected}`,
    impact,
    check: (r) => {
      const code = errorCode(r);
      return statuses.includes(r.status) && code !== undefined && errors.includes(code) ? [] : [{ message: `${what} was answered ${describeJsonResponse(r)}; answer ${expected}` }];
    },
  };
}

const unknownCode = 'an unknown "code"';
export const unknownCodeRejected = rejects({
  id: 'token-exchange/unknown-code-rejected',
  what: unknownCode,
  level: 'MUST',
  clause: 'RFC6749 §4.1.3',
  impact: 'anyone can sign in with a made-up code',
});
export const unknownCodeInvalidGrant = answersError(
  { id: 'token-exchange/unknown-code-invalid-grant', what: unknownCode, level: 'MUST', clause: 'RFC6749 §5.2', impact: 'the platform cannot tell a bad code from an outage' },
  [400],
  ['invalid_grant'],
);

const reusedCode = 'a "code" used a second time';
export const codeReuseRejected = rejects({
  id: 'token-exchange/code-reuse-rejected',
  what: reusedCode,
  level: 'MUST',
  clause: 'RFC6749 §4.1.2',
  impact: 'a leaked or replayed code signs an attacker in as the user',
});
export const codeReuseInvalidGrant = answersError(
  { id: 'token-exchange/code-reuse-invalid-grant', what: reusedCode, level: 'SHOULD', clause: 'RFC6749 §5.2', impact: 'the platform cannot tell a replayed code from an outage' },
  [400],
  ['invalid_grant'],
);

export const codeReuseRevokesToken: Rule<Exchange> = {
  id: 'token-exchange/code-reuse-revokes-token',
  field: 'access_token',
  clause: 'RFC6749 §4.1.2',
  level: 'SHOULD',
  requirement: 'after a code is reused, the token first issued for it no longer works',
  impact: 'whoever replayed a code keeps the token that the first exchange issued',
  check: (exchange) => {
    const verdict = tokenVerdict(exchange);
    if (typeof verdict === 'object') return [{ message: verdict.unknown, outcome: 'skipped' }];
    return verdict === 'accepted' ? [{ message: 'the access token issued for a "code" still works after that code was reused; revoke it' }] : [];
  },
};

const wrongSecret = 'a wrong "client_secret"';
export const wrongSecretRejected = rejects({
  id: 'token-exchange/wrong-secret-rejected',
  what: wrongSecret,
  level: 'MUST',
  clause: 'RFC6749 §2.3.1',
  impact: 'anyone who learns a code can exchange it without the client secret',
});
// RFC 6749 §5.2: invalid_client is a 400, or a 401; the 401 is required only when the client authenticated
// with the Authorization header, and the platform sends its credentials in the body.
export const wrongSecretInvalidClient = answersError(
  { id: 'token-exchange/wrong-secret-invalid-client', what: wrongSecret, level: 'SHOULD', clause: 'RFC6749 §5.2', impact: 'the platform cannot tell a credential problem from an outage' },
  [400, 401],
  ['invalid_client'],
);

/** A token-endpoint answer together with the HTTP authentication scheme the request used, if any. */
export interface Answered {
  response: JsonResponse;
  /** The scheme of the request's Authorization header (`Basic`); undefined when credentials went in the body. */
  scheme: string | undefined;
}

export const schemeOf = (request: { headers?: RequestRecord['headers'] }): string | undefined => {
  const header = Object.entries(request.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return header?.trim().split(/\s+/)[0];
};

export const unauthorizedNamesScheme: Rule<Answered> = {
  id: 'token-exchange/www-authenticate',
  field: 'WWW-Authenticate',
  clause: 'RFC6749 §5.2',
  level: 'SHOULD',
  requirement: 'a 401 from the token endpoint carries "WWW-Authenticate", naming the scheme the request used',
  impact: 'clients cannot tell which authentication scheme the endpoint expects',
  check: ({ response: { status, headers }, scheme }) => {
    if (status !== 401) return [];
    const challenge = headers['www-authenticate'];
    if (scheme !== undefined) {
      // RFC 6749 §5.2: a client that used the Authorization header MUST get a challenge for that scheme.
      if (challenge?.toLowerCase().startsWith(scheme.toLowerCase())) return [];
      return [{ message: `"WWW-Authenticate" is ${challenge === undefined ? 'missing' : JSON.stringify(challenge)} on a 401 to a request that authenticated with "${scheme}"; send "WWW-Authenticate: ${scheme} realm=\\"…\\""` }];
    }
    if (challenge !== undefined) return [];
    // Credentials in the body: RFC 6749 §5.2 allows 400 here; a 401 needs a challenge (RFC 9110 §15.5.2).
    return [{ message: '"WWW-Authenticate" is missing on a 401 (RFC 9110 §15.5.2 requires it on every 401); the platform sent its client credentials in the body, so answer 400 with "invalid_client" (RFC 6749 §5.2 allows it) or name the scheme you accept, e.g. "WWW-Authenticate: Basic realm=\\"token\\""' }];
  },
};

export const missingGrantTypeRejected = answersError(
  {
    id: 'token-exchange/missing-grant-type',
    what: 'a request without "grant_type"',
    level: 'SHOULD',
    clause: 'RFC6749 §4.1.3',
    impact: 'requests the endpoint does not understand still spend codes',
  },
  [400],
  ['invalid_request'],
);
// RFC 6749 §5.2: unauthorized_client (the client may not use this grant) is as good as
// unsupported_grant_type (the server has no such grant) for a grant the platform's client never uses.
export const unsupportedGrantTypeRejected = answersError(
  {
    id: 'token-exchange/unsupported-grant-type',
    what: 'a request with "grant_type": "password"',
    level: 'SHOULD',
    clause: 'RFC6749 §5.2',
    impact: 'a code is accepted under a grant type the platform never uses',
  },
  [400],
  ['unsupported_grant_type', 'unauthorized_client'],
);

export const noTokenWithoutCredentials: Rule<{ grantType: string; response: JsonResponse }> = {
  id: 'token-exchange/no-token-without-credentials',
  field: 'grant_type',
  clause: 'RFC6749 §3.2.1',
  level: 'MUST',
  requirement: 'no grant other than authorization_code yields a token to a request without client credentials',
  impact: 'anyone who can reach the token endpoint gets an access token, without a code or a secret',
  check: ({ grantType, response }) =>
    grantsToken(response)
      ? [{ message: `a request with "grant_type": ${JSON.stringify(grantType)} and no client credentials was answered ${describeJsonResponse(response)}; refuse it (400 "unsupported_grant_type", or 401 "invalid_client"): such a token is free for anyone` }]
      : [],
};

/** A refusal rule gates its error-format rule: once a bad request got a token, its error code is moot. */
export function checkRefusal(refusal: Rule<JsonResponse>, format: Rule<JsonResponse>, answered: Answered): Finding[] {
  const refused = evaluate(refusal, answered.response, undefined);
  const rest = failed(refused).length > 0 ? blocked([format], { rule: refusal.id, reason: 'the request was not refused' }) : evaluate(format, answered.response, undefined);
  return [...refused, ...rest, ...evaluate(unauthorizedNamesScheme, answered, undefined)];
}

export const tokenExchangeRules: readonly AnyRule[] = [
  ...tokenTransportRules,
  configuredEncodingAccepted,
  otherEncodingNoted,
  negativeCasesEncoding,
  ...successResponseRules,
  ...tokenFieldRules,
  issuedTokenAccepted,
  unknownCodeRejected,
  unknownCodeInvalidGrant,
  codeReuseRejected,
  codeReuseInvalidGrant,
  codeReuseRevokesToken,
  wrongSecretRejected,
  wrongSecretInvalidClient,
  unauthorizedNamesScheme,
  missingGrantTypeRejected,
  unsupportedGrantTypeRejected,
  noTokenWithoutCredentials,
];

import type { ClauseId } from './clauses';
import { bodyPreview, jsonObject, jsonType, mediaType, type Exchange, type JsonResponse } from './evidence';
import { evaluate, evaluateAll, failed, skip, type Finding, type Level, type Rule } from './finding';
import { jsonResponseRules, statusDescription } from './response';
import { transportRules } from './transport';

/** Spec §4.2: the token request body is JSON or form-encoded; the platform may send either. */
export type Encoding = 'json' | 'form';

export const encodings: Record<Encoding, { label: string; contentType: string }> = {
  json: { label: 'JSON', contentType: 'application/json' },
  form: { label: 'form-encoded', contentType: 'application/x-www-form-urlencoded' },
};

const isSuccess = (status: number) => status >= 200 && status <= 299;
const errorCode = (r: JsonResponse) => {
  const error = jsonObject(r)?.error;
  return typeof error === 'string' ? error : undefined;
};
/** Whether the endpoint granted the request: a 2xx, or any answer that carries a token. */
export const grantsToken = (r: JsonResponse) => isSuccess(r.status) || jsonObject(r)?.access_token !== undefined;

/** `400 with "error": "invalid_grant"`, `200 with an "access_token"`, `415 with a text/html body "<html>…"`. */
export function describeJsonResponse(r: JsonResponse): string {
  const object = jsonObject(r);
  if (object?.access_token !== undefined) return `${statusDescription(r)} with an "access_token"`;
  const code = errorCode(r);
  if (code !== undefined) return `${statusDescription(r)} with "error": ${JSON.stringify(code)}`;
  if (r.body.trim() === '') return `${statusDescription(r)} with an empty body`;
  return `${statusDescription(r)} with a ${mediaType(r.headers) || 'untyped'} body ${bodyPreview(r.body)}`;
}

const signOnFails = 'sign-on fails for every user';

export const tokenTransportRules = transportRules('token-exchange', 'tokenExchangeUrl');
const field = 'tokenExchangeUrl';

// ---- the exchange with a fresh code, in each encoding ---------------------------------------------

function encodingAccepted(encoding: Encoding): Rule<JsonResponse> {
  const { label, contentType } = encodings[encoding];
  return {
    id: `token-exchange/${encoding}-encoding`,
    field,
    clause: 'spec §4.2',
    level: 'MUST',
    requirement: `a ${label} token request with a fresh code is answered with a token`,
    impact: `${signOnFails} when the platform sends ${contentType}`,
    check: (r) =>
      isSuccess(r.status)
        ? []
        : [{ message: `a ${label} token request with a fresh "code" was answered ${describeJsonResponse(r)}; accept ${contentType} bodies` }],
  };
}

export const jsonEncodingAccepted = encodingAccepted('json');
export const formEncodingAccepted = encodingAccepted('form');

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

/** Judges the answer to a token request with a fresh code; each gate skips what it makes meaningless. */
export function checkJsonResponse(encoding: Encoding, response: JsonResponse): Finding[] {
  const acceptance = evaluate(encoding === 'json' ? jsonEncodingAccepted : formEncodingAccepted, response, undefined);
  if (failed(acceptance).length > 0) {
    return [...acceptance, ...skip([...successResponseRules, ...tokenFieldRules], 'the token request was refused')];
  }
  const shape = evaluateAll(successResponseRules, response, undefined);
  const fields = jsonObject(response);
  if (!fields) return [...acceptance, ...shape, ...skip(tokenFieldRules, 'the body is not a JSON object')];
  return [...acceptance, ...shape, ...evaluateAll(tokenFieldRules, fields, undefined)];
}

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

function answersError({ id, what, level, clause, impact }: Situation, status: number, error: string): Rule<JsonResponse> {
  const expected = `${status} with {"error": "${error}"}`;
  return {
    id,
    field: 'error',
    clause,
    level,
    requirement: `${what} is answered ${expected}`,
    impact,
    check: (r) => (r.status === status && errorCode(r) === error ? [] : [{ message: `${what} was answered ${describeJsonResponse(r)}; answer ${expected}` }]),
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
  400,
  'invalid_grant',
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
  400,
  'invalid_grant',
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
export const wrongSecretInvalidClient = answersError(
  { id: 'token-exchange/wrong-secret-invalid-client', what: wrongSecret, level: 'SHOULD', clause: 'RFC6749 §5.2', impact: 'the platform cannot tell a credential problem from an outage' },
  401,
  'invalid_client',
);

export const unauthorizedNamesScheme: Rule<JsonResponse> = {
  id: 'token-exchange/www-authenticate',
  field: 'WWW-Authenticate',
  clause: 'RFC6749 §5.2',
  level: 'SHOULD',
  requirement: 'a 401 from the token endpoint carries "WWW-Authenticate"',
  impact: 'clients cannot tell which authentication scheme the endpoint expects',
  check: ({ status, headers }) =>
    status === 401 && headers['www-authenticate'] === undefined
      ? [{ message: '"WWW-Authenticate" is missing on a 401; send e.g. "WWW-Authenticate: Basic realm=\\"token\\""' }]
      : [],
};

export const missingGrantTypeRejected = answersError(
  {
    id: 'token-exchange/missing-grant-type',
    what: 'a request without "grant_type"',
    level: 'SHOULD',
    clause: 'RFC6749 §4.1.3',
    impact: 'requests the endpoint does not understand still spend codes',
  },
  400,
  'invalid_request',
);
export const unsupportedGrantTypeRejected = answersError(
  {
    id: 'token-exchange/unsupported-grant-type',
    what: 'a request with "grant_type": "password"',
    level: 'SHOULD',
    clause: 'RFC6749 §5.2',
    impact: 'a code is accepted under a grant type the platform never uses',
  },
  400,
  'unsupported_grant_type',
);

/** A refusal rule gates its error-format rule: once a bad request got a token, its error code is moot. */
export function checkRefusal(refusal: Rule<JsonResponse>, format: Rule<JsonResponse>, response: JsonResponse): Finding[] {
  const refused = evaluate(refusal, response, undefined);
  const rest = failed(refused).length > 0 ? skip([format], 'the request was not refused') : evaluate(format, response, undefined);
  return [...refused, ...rest, ...evaluate(unauthorizedNamesScheme, response, undefined)];
}

export const tokenExchangeRules: readonly Rule<never, never>[] = [
  ...tokenTransportRules,
  jsonEncodingAccepted,
  formEncodingAccepted,
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
];

import { jsonObject, jsonResponse, jsonType, type Exchange, type JsonResponse } from './evidence';
import { blocked, evaluate, evaluateAll, failed, type Blocker, type Finding, type Rule } from './finding';
import { jsonResponseRules } from './response';
import { checkTransport } from './transport';
import { encodings, isSuccess, signOnFails, tokenTransportRules, tokenVerdict, type Encoding } from './token-exchange';
import { configuredEncodingAccepted, type EncodingTrial } from './token-encoding';

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
  owner: 'partner',
  field: 'access_token',
  clause: 'spec §4.2',
  level: 'MUST',
  requirement: '"access_token" is a non-empty string',
  impact: `${signOnFails}: without a token the platform cannot read the account`,
  must: { signOn: 'without a token the platform cannot read the account', spec: 'spec §4.2: "at least `access_token` (string)"' },
  check: ({ access_token: token }) => {
    // The value is a secret: messages name its type, never its content.
    if (token === undefined) return [{ code: 'missing', message: '"access_token" is missing; return the issued token as "access_token"' }];
    if (typeof token !== 'string') return [{ code: 'type', message: `"access_token" is ${jsonType(token)}; send the token as a JSON string` }];
    return token.trim() === '' ? [{ code: 'empty', message: '"access_token" is an empty string; send the issued token' }] : [];
  },
};

export const tokenTypeBearer: Rule<TokenFields> = {
  id: 'token-exchange/token-type',
  owner: 'partner',
  field: 'token_type',
  clause: 'RFC6749 §5.1',
  level: 'MUST',
  requirement: '"token_type", when present, is "Bearer" (any case)',
  impact: `${signOnFails}: the platform presents the token only as a Bearer token`,
  must: { signOn: 'the platform presents the token as a Bearer token only', spec: 'spec §4.2: `token_type` (string, `Bearer`)' },
  check: ({ token_type: type }) => {
    if (type === undefined) return [];
    if (typeof type === 'string' && type.toLowerCase() === 'bearer') return [];
    return [{ code: 'value', message: `"token_type" is ${JSON.stringify(type)}; send "Bearer" or leave it out` }];
  },
};

export const expiresInPositiveInteger: Rule<TokenFields> = {
  id: 'token-exchange/expires-in',
  owner: 'partner',
  field: 'expires_in',
  clause: 'RFC6749 §5.1',
  level: 'MUST',
  requirement: '"expires_in", when present, is a positive integer JSON number of seconds',
  impact: 'the platform misreads the token lifetime and signs users in with an expired token',
  must: { signOn: 'a lifetime the platform cannot read as seconds fails its parser, or signs users on with an expired token' },
  check: ({ expires_in: expiresIn }) => {
    if (expiresIn === undefined) return [];
    if (typeof expiresIn !== 'number')
      return [{ code: 'type', message: `"expires_in" is ${jsonType(expiresIn)} (${JSON.stringify(expiresIn)}); send a JSON number` }];
    if (!Number.isInteger(expiresIn) || expiresIn <= 0)
      return [{ code: 'value', message: `"expires_in" is ${expiresIn}; send the lifetime in seconds as a positive integer` }];
    return [];
  },
};

export const expiresInPresent: Rule<TokenFields> = {
  id: 'token-exchange/expires-in-present',
  owner: 'partner',
  field: 'expires_in',
  clause: 'RFC6749 §5.1',
  level: 'SHOULD',
  requirement: '"expires_in" tells the token lifetime',
  impact: 'the platform cannot tell when the token expires and learns it only from a failed call',
  check: ({ expires_in: expiresIn }) =>
    expiresIn === undefined ? [{ code: 'missing', message: '"expires_in" is missing; send the token lifetime in seconds' }] : [],
};

export const tokenTypePresent: Rule<TokenFields> = {
  id: 'token-exchange/token-type-present',
  owner: 'partner',
  field: 'token_type',
  clause: 'RFC6749 §5.1',
  level: 'SHOULD',
  levelWhy:
    'RFC 6749 §5.1 says "token_type REQUIRED", but the platform presents the token as a Bearer token whatever the response says: sign-on does not break without it',
  requirement: '"token_type" is present (RFC 6749 §5.1: REQUIRED)',
  impact: 'an OAuth client library that follows RFC 6749 refuses the response',
  check: ({ token_type: type }) =>
    type === undefined
      ? [
          {
            code: 'missing',
            message: '"token_type" is missing; RFC 6749 §5.1: "token_type REQUIRED. The type of the token issued"; add "token_type": "Bearer"',
          },
        ]
      : [],
};

export const refreshTokenNoted: Rule<TokenFields> = {
  id: 'token-exchange/refresh-token',
  owner: 'partner',
  field: 'refresh_token',
  clause: 'spec §4.2',
  level: 'INFO',
  requirement: 'a refresh token is optional',
  impact: 'none: a refresh token is optional',
  check: (fields) => {
    // The spec's text says `refreshToken`, RFC 6749 says `refresh_token`; note whichever is sent.
    const spelling = ['refresh_token', 'refreshToken'].find((name) => fields[name] !== undefined);
    return [
      {
        code: 'noted',
        message: spelling
          ? `a refresh token is returned as "${spelling}"`
          : 'no refresh token is returned; the platform repeats sign-on when the token expires',
      },
    ];
  },
};

function headerHas(id: string, header: string, token: string): Rule<JsonResponse> {
  return {
    id,
    owner: 'partner',
    field: header,
    clause: 'RFC6749 §5.1',
    level: 'SHOULD',
    requirement: `the token response carries "${header}: ${token}"`,
    impact: 'a proxy or browser cache may keep a copy of the access token',
    check: ({ headers }) => {
      const value = headers[header.toLowerCase()];
      if (
        value
          ?.toLowerCase()
          .split(',')
          .some((part) => part.trim() === token)
      )
        return [];
      return [{ code: 'header', message: `"${header}" is ${value === undefined ? 'missing' : JSON.stringify(value)}; send "${header}: ${token}"` }];
    },
  };
}

export const cacheControlNoStore = headerHas('token-exchange/cache-control', 'Cache-Control', 'no-store');
export const pragmaNoCache = headerHas('token-exchange/pragma', 'Pragma', 'no-cache');

export const successResponseRules = [status200, contentTypeJson, bodyJsonObject, utf8Body, uniqueKeys, noProtoKeys, cacheControlNoStore, pragmaNoCache];
export const tokenFieldRules = [accessToken, tokenTypeBearer, tokenTypePresent, expiresInPositiveInteger, expiresInPresent, refreshTokenNoted];

/** Judges the answer to a token request with a fresh code in the configured encoding; each gate blocks what it makes meaningless. */
export function checkJsonResponse(trial: EncodingTrial): Finding[] {
  const { response } = trial;
  const acceptance = evaluate(configuredEncodingAccepted, trial, undefined);
  if (failed(acceptance).length > 0) {
    return [
      ...acceptance,
      ...blocked([...successResponseRules, ...tokenFieldRules], { rule: configuredEncodingAccepted.id, reason: 'the token request was refused' }),
    ];
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
export const noTokenBlocker = (response: JsonResponse): Blocker => ({
  rule: isSuccess(response.status) ? accessToken.id : configuredEncodingAccepted.id,
  reason: noToken,
});

export const issuedTokenAccepted: Rule<{ encoding: Encoding; exchange: Exchange }> = {
  id: 'token-exchange/token-accepted',
  owner: 'partner',
  field: 'accountInfoUrl',
  clause: 'spec §4.2',
  level: 'MUST',
  requirement: 'the issued access token is accepted by "accountInfoUrl"',
  impact: `${signOnFails}: the platform cannot read the account with the token it was given`,
  must: { signOn: 'the platform cannot read the account with the token it was given', spec: 'spec §4.2: the token reads the account information' },
  check: ({ encoding, exchange }) => {
    const verdict = tokenVerdict(exchange);
    // Not judged, and not "not applicable": the rule applies, and the answer that would judge it is another rule's failure.
    if (typeof verdict === 'object') return [{ code: 'not-checked', message: `not checked: ${verdict.unknown}`, outcome: 'not-checked' }];
    const from = `the access token from the ${encodings[encoding].label} exchange`;
    return verdict === 'accepted'
      ? []
      : [{ code: 'refused', message: `"accountInfoUrl" answered ${exchange.response!.status} to ${from}; accept every token the token endpoint issues` }];
  },
};

import { expect, test } from '@playwright/test';
import { jsonResponse, type JsonResponse } from '../../checks/evidence';
import { evaluate, type Finding, type Rule } from '../../checks/finding';
import {
  checkRefusal,
  unknownCodeInvalidGrant,
  unknownCodeRejected,
  noTokenWithoutCredentials,
  schemeOf,
  unauthorizedNamesScheme,
  unsupportedGrantTypeRejected,
  wrongSecretInvalidClient,
} from '../../checks/token-refusals';
import {
  accessToken,
  cacheControlNoStore,
  checkJsonResponse,
  contentTypeJson,
  expiresInPositiveInteger,
  expiresInPresent,
  refreshTokenNoted,
  status200,
  tokenTypeBearer,
  tokenTypePresent,
  bodyJsonObject,
  noProtoKeys,
  uniqueKeys,
  utf8Body,
} from '../../checks/token-response';
import { diagnoseRefusal } from '../../checks/token-encoding';

const response = (status: number, body: unknown, headers: Record<string, string> = {}): JsonResponse =>
  jsonResponse({
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    bytes: 0,
  });

const good = { access_token: 'tok-123', token_type: 'Bearer', expires_in: 3600 };
const outcomes = <I>(rule: Rule<I>, input: I) => evaluate(rule, input, undefined).map((f) => f.outcome);
const messages = <I>(rule: Rule<I>, input: I) => evaluate(rule, input, undefined).map((f) => f.message);
const byRule = (findings: Finding[]) => Object.fromEntries(findings.map((f) => [f.rule, f.outcome]));
const client = { clientId: 'platform', clientSecret: 'platform-secret' };
const trial = (encoding: 'json' | 'form', answer: JsonResponse, other?: JsonResponse) => ({ encoding, response: answer, client, ...(other ? { other } : {}) });
const body = (answer: JsonResponse) => ({ response: answer, scheme: undefined });

test('a conformant token response passes every rule, with the refresh token noted', () => {
  const findings = checkJsonResponse(trial('json', response(200, { ...good, refresh_token: 'r' })));
  expect(findings.filter((f) => f.outcome !== 'passed').map((f) => [f.rule, f.outcome])).toEqual([['token-exchange/refresh-token', 'info']]);
});

test('status: exactly 200', () => {
  expect(outcomes(status200, response(200, good))).toEqual(['passed']);
  expect(messages(status200, response(201, good))).toEqual(['"status" is 201; answer a successful token exchange with 200']);
});

test('content-type: application/json with any parameters, nothing else', () => {
  expect(outcomes(contentTypeJson, response(200, good, { 'content-type': 'Application/JSON; charset=utf-8' }))).toEqual(['passed']);
  expect(messages(contentTypeJson, response(200, good, { 'content-type': 'text/html' }))).toEqual(['"content-type" is "text/html"; send "application/json"']);
  expect(outcomes(contentTypeJson, jsonResponse({ status: 200, headers: {}, body: '{}', bytes: 2 }))).toEqual(['failed']);
});

test('body: a JSON object; HTML and arrays are named', () => {
  expect(messages(bodyJsonObject, response(200, '<html><body>Login</body></html>'))[0]).toMatch(
    /^the body is an HTML page, not JSON; it starts "<html><body>Login/,
  );
  expect(messages(bodyJsonObject, response(200, [good]))).toEqual(['the body is an array; send a JSON object such as {"access_token": "…"}']);
});

test('a server error is named with its Retry-After, and a body cut off is named as such', () => {
  expect(messages(status200, response(503, '<html>busy</html>', { 'retry-after': '120' }))).toEqual([
    '"status" is 503, a server error with "Retry-After: 120" (the platform does not retry during sign-on); answer a successful token exchange with 200',
  ]);
  expect(messages(status200, response(500, '{}'))[0]).toContain('"status" is 500, a server error without Retry-After');
  expect(messages(bodyJsonObject, response(200, '{"access_token":"tok-1","token_ty'))[0]).toMatch(
    /^the body is JSON cut off after 33 characters \(Unterminated string in JSON at position 33\); it ends "\{\\"access_token\\":\\"tok-1\\",\\"token_ty"; send a JSON object/,
  );
});

test('keys: a key twice in one object and a "__proto__" key are named by path; the same key in sibling objects is fine', () => {
  const text = '{"a":{"x":1,"y":2,"x":3},"b":[{"x":1},{"x":2}],"c":{"__proto__":{"admin":true}}}';
  expect(messages(uniqueKeys, response(200, text))).toEqual([
    '"a.x" appears twice in its object; JSON.parse would silently keep the last one, so send each key once (RFC 8259 §4: names "SHOULD be unique")',
  ]);
  expect(messages(noProtoKeys, response(200, text))).toEqual([
    '"c.__proto__" is a "__proto__" key; remove it: merged into an object it pollutes every object\'s prototype',
  ]);
  expect(outcomes(uniqueKeys, response(200, good))).toEqual(['passed']);
  expect(outcomes(noProtoKeys, response(200, good))).toEqual(['passed']);
});

test('utf-8: the encoding problem the client recorded fails the rule', () => {
  const bom = jsonResponse({ status: 200, headers: {}, body: '{}', bytes: 5, encodingProblem: 'starts with a UTF-8 byte order mark (EF BB BF)' });
  expect(messages(utf8Body, bom)).toEqual(['the body starts with a UTF-8 byte order mark (EF BB BF); send UTF-8 without a byte order mark']);
  expect(outcomes(utf8Body, response(200, good))).toEqual(['passed']);
});

test('access_token: a non-empty string, and its value never appears in a message', () => {
  expect(outcomes(accessToken, good)).toEqual(['passed']);
  expect(messages(accessToken, {})).toEqual(['"access_token" is missing; return the issued token as "access_token"']);
  expect(messages(accessToken, { access_token: 4815162342 })).toEqual(['"access_token" is a number; send the token as a JSON string']);
  expect(messages(accessToken, { access_token: '  ' })).toEqual(['"access_token" is an empty string; send the issued token']);
  expect(messages(accessToken, { access_token: { secret: 's3cr3t' } }).join()).not.toContain('s3cr3t');
});

test('token_type: Bearer in any case, or absent', () => {
  for (const type of ['Bearer', 'bearer', 'BEARER', undefined]) expect(outcomes(tokenTypeBearer, { token_type: type })).toEqual(['passed']);
  expect(messages(tokenTypeBearer, { token_type: 'mac' })).toEqual(['"token_type" is "mac"; send "Bearer" or leave it out']);
  expect(outcomes(tokenTypeBearer, { token_type: 1 })).toEqual(['failed']);
  // Left out, it is no failure (the platform sends the token as Bearer), but RFC 6749 §5.1 makes it REQUIRED: a warning that quotes it.
  expect(outcomes(tokenTypePresent, { token_type: 'Bearer' })).toEqual(['passed']);
  expect(evaluate(tokenTypePresent, {}, undefined).map((f) => `${f.outcome}: ${f.message}`)).toEqual([
    'warning: "token_type" is missing; RFC 6749 §5.1: "token_type REQUIRED": send "token_type": "Bearer"',
  ]);
});

test('expires_in: a positive integer JSON number when present; absent is a SHOULD warning', () => {
  expect(outcomes(expiresInPositiveInteger, { expires_in: 1 })).toEqual(['passed']);
  expect(outcomes(expiresInPositiveInteger, {})).toEqual(['passed']);
  expect(messages(expiresInPositiveInteger, { expires_in: '3600' })).toEqual(['"expires_in" is a string ("3600"); send a JSON number']);
  for (const bad of [0, -1, 1.5])
    expect(messages(expiresInPositiveInteger, { expires_in: bad })).toEqual([`"expires_in" is ${bad}; send the lifetime in seconds as a positive integer`]);
  expect(outcomes(expiresInPresent, {})).toEqual(['warning']);
  expect(outcomes(expiresInPresent, { expires_in: 60 })).toEqual(['passed']);
});

test('refresh token: either spelling is noted, absence too', () => {
  expect(messages(refreshTokenNoted, { refreshToken: 'r' })).toEqual(['a refresh token is returned as "refreshToken"']);
  expect(messages(refreshTokenNoted, { refresh_token: 'r' })).toEqual(['a refresh token is returned as "refresh_token"']);
  expect(outcomes(refreshTokenNoted, {})).toEqual(['info']);
});

test('Cache-Control: no-store among other directives passes; no-cache alone warns', () => {
  expect(outcomes(cacheControlNoStore, response(200, good, { 'cache-control': 'private, NO-STORE' }))).toEqual(['passed']);
  expect(messages(cacheControlNoStore, response(200, good, { 'cache-control': 'no-cache' }))).toEqual([
    '"Cache-Control" is "no-cache"; send "Cache-Control: no-store"',
  ]);
});

test('a refused exchange fails its encoding rule once, and the rules it makes moot are blocked by it', () => {
  const findings = checkJsonResponse(trial('form', response(415, { error: 'invalid_request' })));
  expect(byRule(findings)['token-exchange/encoding']).toBe('failed');
  expect(findings.filter((f) => f.outcome === 'failed')).toHaveLength(1);
  expect(findings.find((f) => f.rule === 'token-exchange/access-token')).toMatchObject({ outcome: 'not-checked', blockedBy: 'token-exchange/encoding' });
});

test('an HTML body fails body-json, which blocks the field rules', () => {
  const findings = byRule(checkJsonResponse(trial('json', response(200, '<html></html>', { 'content-type': 'text/html' }))));
  expect(findings['token-exchange/body-json']).toBe('failed');
  expect(findings['token-exchange/content-type']).toBe('failed');
  expect(findings['token-exchange/access-token']).toBe('not-checked');
});

test('refusals: an accepted bad request fails the refusal, which blocks the error format', () => {
  const accepted = byRule(checkRefusal(unknownCodeRejected, unknownCodeInvalidGrant, body(response(200, good))));
  expect(accepted).toMatchObject({ 'token-exchange/unknown-code-rejected': 'failed', 'token-exchange/unknown-code-invalid-grant': 'not-checked' });
  const wrongCode = checkRefusal(
    unknownCodeRejected,
    unknownCodeInvalidGrant,
    body(response(400, { error: 'invalid_request', error_description: 'code is malformed' })),
  );
  expect(wrongCode.find((f) => f.rule === 'token-exchange/unknown-code-invalid-grant')?.message).toBe(
    'an unknown "code" was answered 400 with "error": "invalid_request", "error_description": "code is malformed"; answer 400 with {"error": "invalid_grant"}',
  );
});

test('a rule that throws becomes a failed finding, never an exception', () => {
  const broken: Rule<unknown> = {
    ...status200,
    check: () => {
      throw new Error('boom');
    },
  };
  expect(evaluate(broken, null, undefined)).toMatchObject([{ outcome: 'failed', message: expect.stringContaining('boom') }]);
});

test('a wrong secret sent in the body may be refused with 400 or 401 invalid_client (RFC 6749 §5.2)', () => {
  expect(outcomes(wrongSecretInvalidClient, response(400, { error: 'invalid_client' }))).toEqual(['passed']);
  expect(outcomes(wrongSecretInvalidClient, response(401, { error: 'invalid_client' }))).toEqual(['passed']);
  expect(messages(wrongSecretInvalidClient, response(403, { error: 'access_denied' }))).toEqual([
    'a wrong "client_secret" was answered 403 with "error": "access_denied"; answer 400 or 401 with {"error": "invalid_client"}',
  ]);
});

test('unauthorized_client, and invalid_request for the missing "username", are as good as unsupported_grant_type for a grant the client may not use', () => {
  expect(outcomes(unsupportedGrantTypeRejected, response(400, { error: 'unauthorized_client' }))).toEqual(['passed']);
  // RFC 6749 §4.3.2 and §5.2: the password grant without "username" lacks a required parameter.
  expect(outcomes(unsupportedGrantTypeRejected, response(400, { error: 'invalid_request', error_description: 'missing username' }))).toEqual(['passed']);
  expect(outcomes(unsupportedGrantTypeRejected, response(400, { error: 'unsupported_grant_type' }))).toEqual(['passed']);
  expect(outcomes(unsupportedGrantTypeRejected, response(400, { error: 'invalid_grant' }))).toEqual(['warning']);
});

test('the WWW-Authenticate advice matches the scheme the request used', () => {
  const unauthorized = (headers: Record<string, string> = {}) => response(401, { error: 'invalid_client' }, headers);
  expect(messages(unauthorizedNamesScheme, { response: unauthorized(), scheme: 'Basic' })).toEqual([
    '"WWW-Authenticate" is missing on a 401 to a request that authenticated with "Basic"; send "WWW-Authenticate: Basic realm=\\"…\\""',
  ]);
  expect(outcomes(unauthorizedNamesScheme, { response: unauthorized({ 'www-authenticate': 'Bearer' }), scheme: 'Basic' })).toEqual(['warning']);
  expect(outcomes(unauthorizedNamesScheme, { response: unauthorized({ 'www-authenticate': 'Basic realm="x"' }), scheme: 'Basic' })).toEqual(['passed']);
  // Credentials in the body: RFC 6749 §5.2 allows a 400, so that is the advice, beside a challenge.
  expect(messages(unauthorizedNamesScheme, { response: unauthorized(), scheme: undefined })[0]).toMatch(
    /the platform sent its client credentials in the body, so answer 400 with "invalid_client" \(RFC 6749 §5\.2 allows it\)/,
  );
  expect(outcomes(unauthorizedNamesScheme, { response: response(400, { error: 'invalid_client' }), scheme: undefined })).toEqual(['passed']);
  expect(schemeOf({ headers: { Authorization: 'Basic YTpi' } })).toBe('Basic');
  expect(schemeOf({ headers: {} })).toBeUndefined();
});

test('a token for another grant without client credentials is a MUST failure', () => {
  expect(messages(noTokenWithoutCredentials, { grantType: 'password', response: response(200, good) })).toEqual([
    'a request with "grant_type": "password" and no client credentials was answered 200 with an "access_token"; refuse it (400 "unsupported_grant_type", or 401 "invalid_client"): such a token is free for anyone',
  ]);
  expect(outcomes(noTokenWithoutCredentials, { grantType: 'password', response: response(200, good) })).toEqual(['failed']);
  expect(outcomes(noTokenWithoutCredentials, { grantType: 'client_credentials', response: response(401, { error: 'invalid_client' }) })).toEqual(['passed']);
});

test("a refused exchange is diagnosed from the partner's own error and error_description, with the fix", () => {
  const refused = (error: string, description: string, status = 400) => response(status, { error, error_description: description });
  const diagnosis = (answer: JsonResponse, other?: JsonResponse, who: { clientId?: string; clientSecret?: string } = client) =>
    diagnoseRefusal({ encoding: 'form', response: answer, client: who, ...(other ? { other } : {}) });
  expect(diagnosis(refused('invalid_request', "missing required parameter 'redirect_uri'"))).toMatch(
    /^a form-encoded token request with a fresh "code" was answered 400 with "error": "invalid_request", "error_description": "missing required parameter 'redirect_uri'": the partner requires "redirect_uri", which the platform never sends/,
  );
  expect(diagnosis(refused('invalid_grant', 'PKCE verification failed'))).toContain(
    'the partner requires PKCE ("code_verifier"), which the platform never sends',
  );
  expect(diagnosis(refused('invalid_client', 'only client_secret_basic is allowed', 401))).toContain(
    'the partner requires HTTP Basic client authentication, while the platform sends "client_id" and "client_secret" in the body',
  );
  expect(diagnosis(refused('invalid_client', 'client not found', 401))).toContain(
    'the partner does not know the client_id "platform"; register the platform\'s client under that id, or correct "clientId" in the profile',
  );
  expect(diagnosis(refused('invalid_client', 'client authentication failed', 401))).toContain(
    'the partner refused the platform\'s client credentials; check that "clientId" ("platform") is registered',
  );
  expect(diagnosis(refused('invalid_request', 'Missing parameter: `client_id`'), undefined, {})).toContain(
    'the profile has no "clientId" and "clientSecret", so the platform sends none',
  );
  // The other encoding works: one failure, both encodings, both fixes.
  expect(diagnosis(refused('invalid_request', 'only application/json bodies'), response(200, good))).toMatch(
    /while the same request JSON was answered with a token: the partner does not accept application\/x-www-form-urlencoded bodies; either accept application\/x-www-form-urlencoded token requests \(spec §4\.2 lets the platform send either\), or have the platform configured to send application\/json for this partner \("tokenExchangeEncoding": "json"\)$/,
  );
  // Refused for its encoding, and the other encoding got further: that refusal names the cause behind.
  expect(diagnosis(response(415, { error: 'invalid_request' }), refused('invalid_request', 'redirect_uri is required'))).toMatch(
    /the same request JSON got further and was answered 400 with "error": "invalid_request", "error_description": "redirect_uri is required": accept application\/x-www-form-urlencoded bodies .*, and then: the partner requires "redirect_uri"/,
  );
  // A library that binds every code to a redirect URI: the adaptation that always works is named too.
  expect(diagnosis(refused('invalid_request', "missing required parameter 'redirect_uri'"))).toContain(
    "add the client's registered redirect URI to a token request that has none, in front of the token endpoint",
  );
  // A 401 that challenges for Basic says the scheme for certain, whatever its words.
  const challenged = response(
    401,
    { error: 'invalid_client', error_description: 'client authentication failed' },
    { 'www-authenticate': 'Basic realm="token"' },
  );
  expect(diagnosis(challenged)).toContain(
    'the partner asks for HTTP Basic client authentication ("WWW-Authenticate: Basic" on the 401), while the platform sends "client_id" and "client_secret" in the body',
  );
  // A fresh code refused as a bare invalid_grant: the likely causes, most likely first, and how to tell them apart.
  expect(diagnosis(refused('invalid_grant', 'Invalid authorization code'))).toMatch(
    /: the partner refused a code it had just issued as invalid\. Most likely, in this order: \(1\) the code is bound to the "redirect_uri" of its authorization request.* \(2\) the code was issued to another client than the platform's \("platform"\).* \(3\) /,
  );
  // Nothing recognised: the partner's words, and what a valid request deserves.
  expect(diagnosis(refused('server_error', 'database down', 500))).toMatch(
    /"error_description": "database down"; answer a token request with a fresh "code" with 200 and an "access_token"$/,
  );
});

test('the partner\'s words are quoted and matched bounded: a 1 MiB "error" or "error_description" gives a short message', () => {
  const huge = 'redirect_uri '.repeat(80_000);
  const message = diagnoseRefusal({ encoding: 'form', response: response(400, { error: huge, error_description: huge }), client });
  expect(message.length).toBeLessThan(2000);
  expect(message).toContain('the partner requires "redirect_uri"');
});

import { expect, test } from '@playwright/test';
import { jsonResponse } from '../../checks/evidence';
import { evaluate, type Rule } from '../../checks/finding';
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
import { byRule, good, messages, outcomes, response, trial } from '../support/token-responses';

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
  expect(evaluate(tokenTypePresent, {}, undefined).map((f) => `${f.rule} ${f.level} ${f.outcome}: ${f.message}`)).toEqual([
    'token-exchange/token-type-present SHOULD warning: "token_type" is missing; RFC 6749 §5.1: "token_type REQUIRED. The type of the token issued"; add "token_type": "Bearer"',
  ]);
  // A present value that is not Bearer keeps its own verdict, a MUST failure, and is not "missing".
  expect(evaluate(tokenTypeBearer, { token_type: 'mac' }, undefined).map((f) => `${f.rule} ${f.level} ${f.outcome}`)).toEqual([
    'token-exchange/token-type MUST failed',
  ]);
  expect(outcomes(tokenTypePresent, { token_type: 'mac' })).toEqual(['passed']);
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

test('a rule that throws becomes a failed finding, never an exception', () => {
  const broken: Rule<unknown> = {
    ...status200,
    check: () => {
      throw new Error('boom');
    },
  };
  expect(evaluate(broken, null, undefined)).toMatchObject([{ outcome: 'failed', message: expect.stringContaining('boom') }]);
});

import { expect, test } from '@playwright/test';
import type { JsonResponse } from '../../checks/evidence';
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
import { basicTellsApart, configuredEncodingAccepted, diagnoseRefusal, type EncodingTrial } from '../../checks/token-encoding';
import { evaluate } from '../../checks/finding';
import { byRule, client, good, messages, outcomes, response } from '../support/token-responses';

const body = (answer: JsonResponse) => ({ response: answer, scheme: undefined });

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

test('a client refused with "WWW-Authenticate: Basic": the same credentials sent with Basic tell a refused secret from a Basic-only endpoint', () => {
  const challenged = response(
    401,
    { error: 'invalid_client', error_description: 'Invalid client: client is invalid' },
    { 'www-authenticate': 'Basic realm="Service"' },
  );
  const withEnv = { ...client, secretVariable: 'PARTNER_ACME_CLIENT_SECRET' };
  expect(basicTellsApart(challenged, withEnv)).toBe(true);
  // Positive controls: nothing to tell apart without both credentials, or when the refusal is not of the client.
  expect(basicTellsApart(challenged, { clientId: 'platform' })).toBe(false);
  expect(basicTellsApart(response(400, { error: 'invalid_grant' }), withEnv)).toBe(false);
  expect(basicTellsApart(response(400, { error: 'invalid_client' }), withEnv)).toBe(true);
  expect(basicTellsApart(response(401, { error: 'invalid_client', error_description: 'client not found' }), withEnv)).toBe(false);
  const diagnosis = (basic: JsonResponse, who: EncodingTrial['client'] = withEnv) =>
    diagnoseRefusal({ encoding: 'form', response: challenged, client: who, basic });
  expect(diagnosis(challenged)).toBe(
    'a form-encoded token request with a fresh "code" was answered 401 with "error": "invalid_client", "error_description": "Invalid client: client is invalid": the partner refused the client secret; sent with HTTP Basic instead (RFC 6749 §2.3.1), with a fresh "code", it was refused again, answered 401 with "error": "invalid_client", "error_description": "Invalid client: client is invalid": "clientSecret" (PARTNER_ACME_CLIENT_SECRET) is not the secret the partner holds for the client "platform"; check the value the platform is configured with against the partner\'s registration of that client, and put the current one in .env (PARTNER_ACME_CLIENT_SECRET=…) or the environment',
  );
  expect(diagnosis(response(401, { error: 'invalid_client' }), client)).toContain(
    ': "clientSecret" is not the secret the partner holds for the client "platform"; check the value the platform is configured with against the partner\'s registration of that client, and put the current one in the profile',
  );
  expect(diagnosis(response(200, good))).toBe(
    'a form-encoded token request with a fresh "code" was answered 401 with "error": "invalid_client", "error_description": "Invalid client: client is invalid": the partner requires HTTP Basic client authentication, while the platform sends "client_id" and "client_secret" in the body (client_secret_post; spec §4.2, §5.3): the same credentials sent with HTTP Basic (RFC 6749 §2.3.1) and a fresh "code" were answered with a token; allow client_secret_post for the platform\'s client (RFC 6749 §2.3.1 lets a server accept credentials in the body)',
  );
  // The refused secret is the finding of the rule that judges the platform's request, about "clientSecret"; a Basic-only endpoint stays the encoding's.
  const judged = (basic: JsonResponse) =>
    evaluate(configuredEncodingAccepted, { encoding: 'form', response: challenged, client: withEnv, basic }, undefined).map((f) => [
      f.rule,
      f.field,
      f.code,
      f.outcome,
    ]);
  expect(judged(challenged)).toEqual([['token-exchange/encoding', 'clientSecret', 'secret-refused', 'failed']]);
  expect(judged(response(200, good))).toEqual([['token-exchange/encoding', 'tokenExchangeEncoding', 'refused', 'failed']]);
  // Basic got past client authentication, whatever then became of the code: it was the scheme, not the secret.
  expect(diagnosis(response(400, { error: 'invalid_grant', error_description: 'code expired' }))).toContain(
    'and a fresh "code" got past client authentication (answered 400 with "error": "invalid_grant", "error_description": "code expired"); allow client_secret_post',
  );
});

test('the partner\'s words are quoted and matched bounded: a 1 MiB "error" or "error_description" gives a short message', () => {
  const huge = 'redirect_uri '.repeat(80_000);
  const message = diagnoseRefusal({ encoding: 'form', response: response(400, { error: huge, error_description: huge }), client });
  expect(message.length).toBeLessThan(2000);
  expect(message).toContain('the partner requires "redirect_uri"');
});

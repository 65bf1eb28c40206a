import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { jsonResponse } from '../../checks/evidence';
import { evaluate } from '../../checks/finding';
import { guessability, unguessableCodes, unguessableTokens } from '../../checks/token-entropy';
import { concurrentRedemption, duplicateParamRefused, getRefused, noEchoedCredentials, unknownParamIgnored } from '../../checks/token-hardening';
import { tokenRequest } from '../../client/requests';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  jsonResponse({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), bytes: 0 });
const token = answer(200, { access_token: 'tok', token_type: 'Bearer' });
const refusal = answer(400, { error: 'invalid_request', error_description: 'unknown parameter "certify_unrecognised"' });
const outcome = (findings: { outcome: string }[]) => findings.map((f) => f.outcome);

test.describe('the request the probes bend, one deviation at a time', () => {
  const client = { tokenExchangeUrl: 'https://partner.test/token?gw=1', clientId: 'platform', clientSecret: 's3cret-value' };

  test("unbent, the platform's request: every parameter once, in the body", () => {
    const request = tokenRequest(client, 'form', { code: 'c1' });
    expect([request.method, request.url, request.body]).toEqual([
      'POST',
      'https://partner.test/token?gw=1',
      'grant_type=authorization_code&client_id=platform&client_secret=s3cret-value&code=c1',
    ]);
    expect(JSON.parse(tokenRequest(client, 'json', { code: 'c1' }).body!)).toEqual({
      grant_type: 'authorization_code',
      client_id: 'platform',
      client_secret: 's3cret-value',
      code: 'c1',
    });
  });

  test('a GET carries every parameter in its query string and has no body', () => {
    const request = tokenRequest(client, 'form', { code: 'c1' }, { method: 'GET' });
    expect(request.method).toBe('GET');
    expect(request.body).toBeUndefined();
    expect(Object.fromEntries(new URL(request.url).searchParams)).toEqual({
      gw: '1',
      grant_type: 'authorization_code',
      client_id: 'platform',
      client_secret: 's3cret-value',
      code: 'c1',
    });
  });

  test('credentials in the URI leave the body', () => {
    const request = tokenRequest(client, 'json', { code: 'c1' }, { credentialsInQuery: true });
    expect(new URL(request.url).searchParams.get('client_secret')).toBe('s3cret-value');
    expect(JSON.parse(request.body!)).toEqual({ grant_type: 'authorization_code', code: 'c1' });
  });

  test('a parameter sent twice stays twice, in JSON as in a form', () => {
    expect(tokenRequest(client, 'json', { code: 'a' }, { extra: [['code', 'b']] }).body).toMatch(/"code":"a","code":"b"}$/);
    expect(tokenRequest(client, 'form', { code: 'a' }, { extra: [['code', 'b']] }).body).toMatch(/&code=a&code=b$/);
  });
});

test('a GET, credentials in the URI and a repeated code pass when refused, whatever the error', () => {
  expect(outcome(evaluate(getRefused, answer(405, { error: 'invalid_request' }), undefined))).toEqual(['passed']);
  // RFC 6749 §3.2's MUST binds the client; the platform never sends a GET: a warning (DESIGN §4).
  expect(outcome(evaluate(getRefused, token, undefined))).toEqual(['warning']);
  expect(
    outcome(
      evaluate(
        duplicateParamRefused,
        [
          { first: 'fresh', response: refusal },
          { first: 'made-up', response: answer(400, { error: 'invalid_grant' }) },
        ],
        undefined,
      ),
    ),
  ).toEqual(['passed']);
  const [taken] = evaluate(
    duplicateParamRefused,
    [
      { first: 'fresh', response: refusal },
      { first: 'made-up', response: token },
    ],
    undefined,
  );
  expect(taken!.outcome).toBe('warning');
  expect(taken!.message).toContain('a made-up code first, a fresh one second');
});

test('an unrecognised parameter must be ignored; the refusal is quoted', () => {
  expect(outcome(evaluate(unknownParamIgnored, token, undefined))).toEqual(['passed']);
  const [refused] = evaluate(unknownParamIgnored, refusal, undefined);
  expect(refused!.outcome).toBe('warning');
  expect(refused!.message).toContain('"error_description": "unknown parameter \\"certify_unrecognised\\""');
});

test('a race fails only when more than one token still works once every answer is in, naming the round it was lost in', () => {
  const round = (issued: number, working: number, serverErrors: number[] = []) => ({ issued, working, serverErrors });
  const race = (...rounds: ReturnType<typeof round>[]) => evaluate(concurrentRedemption, { sent: 5, rounds }, undefined);
  expect(outcome(race(round(1, 1), round(1, 1)))).toEqual(['passed']);
  // Two issued, both revoked when the reuse was seen: nothing outlived the refusals.
  expect(outcome(race(round(2, 0)))).toEqual(['passed']);
  const [lost] = race(round(1, 1), round(1, 1), round(3, 3, [500, 500]));
  expect(lost!.outcome).toBe('failed');
  expect(lost!.message).toMatch(
    /^in round 3 \(of 3 rounds run, each a fresh code\), of 5 token requests sent at once with the same "code", 3 were answered with an access token, and 3 of those tokens still work \(2 of the others were answered 500: the code was checked before it was marked used\); mark a code used atomically/,
  );
  expect(lost!.params).toEqual({ round: 3, rounds: 3, sent: 5, issued: 3, working: 3 });
});

test('a race where the losers got a 5xx while one token was issued is a warning, naming the status, though no code yielded two tokens', () => {
  const [warned] = evaluate(
    concurrentRedemption,
    {
      sent: 5,
      rounds: [
        { issued: 1, working: 1, serverErrors: [] },
        { issued: 1, working: 1, serverErrors: [500, 503] },
      ],
    },
    undefined,
  );
  expect(warned!.outcome).toBe('warning');
  expect(warned!.code).toBe('losers-5xx');
  expect(warned!.message).toMatch(
    /^no code yielded two working tokens in 2 rounds, but in 1 of them the requests that lost to the one that got a token were answered 500, 503: /,
  );
});

test.describe('a credential sent back', () => {
  const secret = 'Plain-Secret/with+chars';
  const sent = [{ what: 'the client secret', value: secret }];
  const echoed = (body: unknown, headers: Record<string, string> = {}) =>
    evaluate(noEchoedCredentials, { response: answer(401, body, headers), sent, clientId: 'platform' }, undefined);

  test('is found in any letter case, percent-encoded, in base64 and as an HTTP Basic credential, in the body or a header', () => {
    expect(echoed({ error: 'invalid_client', error_description: 'wrong secret' }).map((f) => f.outcome)).toEqual(['passed']);
    expect(echoed({ error_description: `got ${secret.toUpperCase()}` })[0]!.message).toContain('the client secret (as it is) in the body');
    expect(echoed({ e: encodeURIComponent(secret) })[0]!.message).toContain('(percent-encoded)');
    expect(echoed({ e: Buffer.from(secret).toString('base64') })[0]!.message).toContain('(base64-encoded)');
    expect(echoed({}, { 'set-cookie': `debug=${Buffer.from(`platform:${secret}`).toString('base64')}` })[0]!.message).toContain(
      '(as an HTTP Basic credential) in the "set-cookie" header',
    );
  });

  test('is never quoted in the message', () => {
    const [finding] = echoed({ error_description: secret });
    expect(finding!.message).not.toContain(secret);
  });
});

test.describe('guessing (RFC 6749 §10.10)', () => {
  const random = (n: number) => Array.from({ length: n }, () => randomBytes(24).toString('base64url'));

  test('32 random base64url characters pass; the estimate counts only what varies', () => {
    expect(guessability(random(3)).bits).toBeGreaterThanOrEqual(180);
    expect(outcome(evaluate(unguessableTokens, { values: random(3) }, undefined))).toEqual(['passed']);
    const prefixed = ['Ab3dE5gH7jK9', 'Zx8wV6uT4sR2', 'Mn1oP2qR3sT4'].map((v) => `fixed-prefix-of-forty-characters-000000${v}`);
    // 12 varying characters of [0-9A-Za-z]: 12 × log2(62) ≈ 71.4 bits.
    expect(guessability(prefixed)).toMatchObject({ sharedPrefix: 39, alphabet: '[0-9A-Za-z]', bits: 71 });
  });

  test('a counter behind a fixed prefix is named a sequence, whatever its length', () => {
    const values = ['seq-a1b2c3d4e5f6-0000000041', 'seq-a1b2c3d4e5f6-0000000042', 'seq-a1b2c3d4e5f6-0000000044'];
    const g = guessability(values);
    expect(g.sequentialStep).toBe(2);
    const [finding] = evaluate(unguessableTokens, { values }, undefined);
    expect(finding!.outcome).toBe('warning');
    expect(finding!.message).toContain('follow one another');
    for (const value of values) expect(finding!.message).not.toContain(value);
  });

  test('a short hex value is too few bits; a signed JWT counts its signature; an unsigned one nothing', () => {
    expect(guessability(['a3f9c2d1', '0b7e4f11', '9c0d2e3a'])).toMatchObject({ alphabet: '[0-9a-f]', bits: 32 });
    const jwt = (alg: string, signature: string) =>
      `${Buffer.from(JSON.stringify({ alg })).toString('base64url')}.${Buffer.from('{"sub":"1"}').toString('base64url')}.${signature}`;
    expect(guessability([jwt('HS256', randomBytes(32).toString('base64url'))])).toMatchObject({ jwt: 'signed', bits: 258 });
    expect(guessability([jwt('none', '')])).toMatchObject({ jwt: 'unsigned', bits: 0 });
  });

  test('codes listed by hand are not judged', () => {
    expect(evaluate(unguessableCodes, { notApplicable: 'listed by hand' }, undefined).map((f) => f.outcome)).toEqual(['skipped']);
  });
});

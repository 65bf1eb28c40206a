import { expect, test } from '@playwright/test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { parseJson, type Exchange } from '../../checks/evidence';
import { redact, redactEvidence } from '../../redaction/redact';
import { secretsOf } from '../../redaction/secrets';
import { redactBytes } from '../../redaction/files';
import { maskPersonalData } from '../../redaction/personal-data';
import { curlOf } from '../../reports/reproduce';
import { exchange } from '../support/certifications';

// The evidence a report holds: masked, its bodies parsed with a bound, and replayable with curl. The verdict: report.spec.ts.

test.describe('redaction', () => {
  const tokenExchange = exchange(
    {
      method: 'POST',
      url: 'https://partner.example/oauth/token',
      headers: { 'content-type': 'application/json' },
      body: '{"grant_type":"authorization_code","code":"c0de-1234","client_secret":"s3cret-xyz"}',
    },
    '{"access_token":"at-98765","refresh_token":"rt-55555","token_type":"Bearer"}',
  );
  const account = exchange(
    { method: 'GET', url: 'https://partner.example/api/account', headers: { authorization: 'Bearer at-98765' } },
    '{"company":{"taxInfo":{"identifier":"98-7654321"}},"fundingSources":[{"bankAccountNumber":"000111222333"}]}',
  );
  const dataApiError = exchange({ method: 'GET', url: 'https://platform.example/v1/bills', headers: {} }, '{"code":"MISSING_FILTER","message":"…"}');

  test('masks every secret an exchange carried, wherever it shows up, and keeps the last 4 of bank and tax numbers', () => {
    const secrets = secretsOf([tokenExchange, account, dataApiError], ['profile-secret']);
    const text = redact(`${JSON.stringify([tokenExchange, account, dataApiError])} echoed: at-98765 profile-secret 98-7654321`, secrets);
    for (const value of ['c0de-1234', 's3cret-xyz', 'at-98765', 'rt-55555', 'profile-secret', '98-7654321', '000111222333']) expect(text).not.toContain(value);
    expect(text).toContain('****4321');
    expect(text).toContain('****2333');
    // An error code in an answer is not a secret, although its key is "code".
    expect(text).toContain('MISSING_FILTER');
  });

  test('a date of birth in stored evidence keeps its year only, never its month and day', () => {
    const [stored] = redactEvidence(
      [
        exchange(
          { method: 'GET', url: 'https://partner.example/api/account', headers: {} },
          '{"user":{"dateOfBirth":"1990-01-01"},"bankAccountNumber":"000111222333"}',
        ),
      ],
      [],
    );
    expect(stored!.response!.body).toBe('{"user":{"dateOfBirth":"1990-••-••"},"bankAccountNumber":"****2333"}');
  });

  test('a date of birth the run learned keeps its year only in any text and in any form; under its name, whatever its form', () => {
    const learned = secretsOf([exchange({ method: 'GET', url: 'https://partner.example/api/account', headers: {} }, '{"user":{"dateOfBirth":"1990-01-01"}}')]);
    expect(learned).toEqual([{ value: '1990-01-01', keepYear: true, forms: expect.arrayContaining(['19900101', '01/01/1990', '1990/01/01', '01.01.1990']) }]);
    const cases: [string, string][] = [
      // Learned: wherever it shows up, in the forms dates are written, a bare JSON number quoted so the body stays JSON.
      ['born 1990-01-01 (19900101, 01/01/1990, 1990/01/01, 01.01.1990)', 'born 1990-••-•• (1990-••-••, 1990-••-••, 1990-••-••, 1990-••-••)'],
      ['{"dob":19900101,"n":1}', '{"dob":"1990-••-••","n":1}'],
      ['\\u0031990-01-01 is escaped', '1990-••-•• is escaped'],
      // By its name, a date the run never learned: JSON (also escaped in a string, or a bare number), forms and URLs.
      ['{"dateOfBirth":"1985-12-10"}', '{"dateOfBirth":"1985-••-••"}'],
      ['{\\"dateOfBirth\\":\\"12/10/1985\\"}', '{\\"dateOfBirth\\":\\"1985-••-••\\"}'],
      ['{"dateOfBirth": 19851210}', '{"dateOfBirth": "1985-••-••"}'],
      ['user.dateOfBirth=1985-12-10&user.phone=1', 'user.dateOfBirth=1985-••-••&user.phone=1'],
      ['https://p.example/?dateOfBirth=12%2F10%2F1985', 'https://p.example/?dateOfBirth=1985-••-••'],
      ['{"dateOfBirth":"1985-12-10T00:00:00Z"}', '{"dateOfBirth":"1985-••-••"}'],
      // No year to keep; and null stays null.
      ['{"dateOfBirth":"unknown"}', '{"dateOfBirth":"••••-••-••"}'],
      ['{"dateOfBirth":null}', '{"dateOfBirth":null}'],
      // The control: another date, under another name, is no date of birth.
      ['{"expires":"2026-12-31"}', '{"expires":"2026-12-31"}'],
    ];
    for (const [text, masked] of cases) expect(redact(text, learned), text).toBe(masked);
  });

  test('masks by shape what it never saw: JWTs, Bearer credentials, secrets by name in JSON, forms, URLs and HAR', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const cases: [string, string][] = [
      [`http://127.0.0.1:4401/reference/auth?token=${jwt}`, 'http://127.0.0.1:4401/reference/auth?token=[redacted]'],
      ['Authorization: Bearer abc123def456', 'Authorization: Bearer [redacted]'],
      ['{"access_token":"opaque-1"}', '{"access_token":"[redacted]"}'],
      ['{\\"client_secret\\":\\"opaque-2\\"}', '{\\"client_secret\\":\\"[redacted]\\"}'],
      ['{"identifier":"12-3456789"}', '{"identifier":"****6789"}'],
      ['/?src=http%3A%2F%2Fh%2Fp%2Fauth%3Fcode%3Dopaque-3%26x%3D1', '/?src=http%3A%2F%2Fh%2Fp%2Fauth%3Fcode%3D[redacted]%26x%3D1'],
      ['grant_type=authorization_code&code=opaque-4', 'grant_type=authorization_code&code=[redacted]'],
      ['"queryString":[{"name":"code","value":"opaque-5"}]', '"queryString":[{"name":"code","value":"[redacted]"}]'],
      ['api-key: opaque-6', 'api-key: [redacted]'],
    ];
    for (const [input, output] of cases) expect(redact(input, [])).toBe(output);
    // Prose stays readable.
    for (const prose of ['send WWW-Authenticate: Bearer realm="x"', 'the Bearer authentication scheme', 'var code=e.charCodeAt(0)'])
      expect(redact(prose, [])).toBe(prose);
  });

  test('masks inside zip archives (traces) and zips embedded as data URLs (the HTML report); leaves binary as is', () => {
    const zip = zipSync({ 'trace.network': strToU8('{"url":"/auth?code=opaque-7"}'), 'shot.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) });
    const entries = unzipSync(redactBytes(zip, []));
    expect(strFromU8(entries['trace.network']!)).toBe('{"url":"/auth?code=[redacted]"}');
    expect([...entries['shot.png']!]).toEqual([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
    const page = strToU8(`<template>data:application/zip;base64,${Buffer.from(zip).toString('base64')}</template>`);
    const embedded = /base64,([^<]+)/.exec(strFromU8(redactBytes(page, [])))![1]!;
    expect(strFromU8(unzipSync(Buffer.from(embedded, 'base64'))['trace.network']!)).toContain('code=[redacted]');
    const untouched = strToU8('nothing secret here');
    expect(redactBytes(untouched, [])).toBe(untouched);
  });
});

test('personal data is masked to what recognises a value, not a person; a field a failure names stays whole', () => {
  const account = {
    user: { email: 'ada.lovelace@example.com', firstName: 'Mary-Jane', lastName: "O'Brien", phone: '+1 (212) 555-0142', dateOfBirth: '1985-12-10' },
    company: { name: 'Analytical Engines LLC', address: { line1: 'PO Box 1024', city: 'Springfield' }, legalAddress: { line1: '12 Main Street' } },
  };
  expect(maskPersonalData({ accountInfo: account }, new Set(['user.lastName', 'company.address.line1']))).toEqual({
    accountInfo: {
      user: { email: 'a•••@example.com', firstName: 'M•••-J•••', lastName: "O'Brien", phone: '+• (•••) •••-0142', dateOfBirth: '1985-••-••' },
      company: { name: 'Analytical Engines LLC', address: { line1: 'PO Box 1024', city: 'Springfield' }, legalAddress: { line1: '•• Main Street' } },
    },
  });
});

test('a body nested past 64 levels is refused as such before any rule walks it', () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  expect(parseJson(deep)).toEqual({ ok: false, error: 'it nests more than 64 levels deep' });
  expect(parseJson(`${'['.repeat(64)}${']'.repeat(64)}`).ok).toBe(true);
});

test('a reproduce command is curl with every secret as a named placeholder, quoted for the shell', () => {
  const masked = redact(
    JSON.stringify({
      method: 'POST',
      url: 'https://p.example/oauth/token?x=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '9', authorization: 'Basic cmVmOnNlY3JldDEyMw==' },
      body: "grant_type=authorization_code&code=c0de-1234&client_id=o'neil",
    }),
    [{ value: 'c0de-1234' }],
  );
  expect(curlOf(JSON.parse(masked) as Exchange['request'])).toBe(
    [
      "curl -i -X POST 'https://p.example/oauth/token?x=1'",
      "  -H 'content-type: application/x-www-form-urlencoded'",
      "  -H 'authorization: Basic <BASE64_CLIENT_ID_COLON_SECRET>'",
      "  --data-raw 'grant_type=authorization_code&code=<CODE>&client_id=o'\\''neil'",
    ].join(' \\\n'),
  );
  expect(curlOf({ method: 'GET', url: 'https://p.example/api/account', headers: { authorization: 'Bearer [redacted]' } })).toContain(
    "-H 'authorization: Bearer <ACCESS_TOKEN>'",
  );
  expect(curlOf({ method: 'POST', url: 'https://p.example/t', headers: {}, body: '{"code":"[redacted]","name":"O\'Brien"}' })).toContain(
    `--data-raw '{"code":"<CODE>","name":"O'\\''Brien"}'`,
  );
});

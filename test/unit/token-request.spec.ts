import { expect, test } from '@playwright/test';
import type { Profile } from '../../profile/profile-schema';
import { tokenRequest } from '../../client/requests';

const bare: Profile = {
  tokenExchangeUrl: 'https://partner.example/token',
  accountInfoUrl: 'https://partner.example/account',
  codes: { mintUrl: 'https://partner.example/codes' },
  collectMissingAccountInfo: false,
  tokenExchangeEncoding: 'json',
  requestTimeoutMs: 1000,
  slowChecks: false,
  maxCodeLifetimeSeconds: 600,
  environment: 'staging',
};

test('without predefined credentials only code and grant_type are sent, in both encodings', () => {
  expect(JSON.parse(tokenRequest(bare, 'json', { code: 'c1' }).body!)).toEqual({ grant_type: 'authorization_code', code: 'c1' });
  const form = tokenRequest(bare, 'form', { code: 'c/1 +' });
  expect(form.headers).toEqual({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
  expect(Object.fromEntries(new URLSearchParams(form.body))).toEqual({ grant_type: 'authorization_code', code: 'c/1 +' });
});

test('client_id, client_secret and scope are sent when configured, and only those configured', () => {
  const configured = { ...bare, clientId: 'id', clientSecret: 'secret', scope: 'payments' };
  expect(JSON.parse(tokenRequest(configured, 'json', { code: 'c' }).body!)).toEqual({
    grant_type: 'authorization_code',
    code: 'c',
    client_id: 'id',
    client_secret: 'secret',
    scope: 'payments',
  });
  expect(Object.keys(JSON.parse(tokenRequest({ ...bare, clientId: 'id' }, 'json', { code: 'c' }).body!) as object).sort()).toEqual([
    'client_id',
    'code',
    'grant_type',
  ]);
});

test('a negative case can bend or drop one parameter', () => {
  expect(JSON.parse(tokenRequest(bare, 'json', { code: 'c', grant_type: undefined }).body!)).toEqual({ code: 'c' });
  expect(JSON.parse(tokenRequest(bare, 'json', { code: 'c', grant_type: 'password' }).body!)).toEqual({ code: 'c', grant_type: 'password' });
});

test('the credentials sent with HTTP Basic instead (RFC 6749 §2.3.1): each form-encoded, joined by ":", and out of the body', () => {
  const configured = { ...bare, clientId: 'platform client', clientSecret: 's3cr:t/+' };
  const sent = tokenRequest(configured, 'form', { code: 'c' }, { basic: true });
  expect(sent.headers?.authorization).toBe(`Basic ${Buffer.from('platform+client:s3cr%3At%2F%2B').toString('base64')}`);
  expect(Object.fromEntries(new URLSearchParams(sent.body))).toEqual({ grant_type: 'authorization_code', code: 'c' });
  // Without both credentials there is nothing to send with Basic: the platform's own request.
  expect(tokenRequest({ ...bare, clientId: 'id' }, 'json', { code: 'c' }, { basic: true })).toEqual(
    tokenRequest({ ...bare, clientId: 'id' }, 'json', { code: 'c' }),
  );
});

import { expect, test } from '@playwright/test';
import { evaluate } from '../../checks/finding';
import { discoveryAgrees, discoveryUrls, type DiscoveryEvidence } from '../../checks/token-discovery';

/** checks/token-discovery.ts: a partner's discovery document held against what its token endpoint did. */

const issuer = 'https://auth.acme.example';
const agreeing = {
  issuer,
  token_endpoint: 'https://auth.acme.example/oauth/token',
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
};
const judged = (document: Record<string, unknown>, bodyCredentialsAccepted = true) => {
  const evidence: DiscoveryEvidence = {
    issuer,
    tokenExchangeUrl: 'https://auth.acme.example/oauth/token',
    bodyCredentialsAccepted,
    read: { url: `${issuer}/.well-known/oauth-authorization-server`, document },
  };
  return evaluate(discoveryAgrees, evidence, undefined).map(({ outcome, code }) => [outcome, code]);
};

test("where a discovery document is read: RFC 8414 inserts the well-known path before the issuer's path, OpenID appends it", () => {
  expect(discoveryUrls('https://auth.acme.example')).toEqual([
    'https://auth.acme.example/.well-known/oauth-authorization-server',
    'https://auth.acme.example/.well-known/openid-configuration',
  ]);
  expect(discoveryUrls('https://acme.example/tenant/')).toEqual([
    'https://acme.example/.well-known/oauth-authorization-server/tenant',
    'https://acme.example/tenant/.well-known/openid-configuration',
  ]);
});

test('a document that agrees passes; each contradiction is its own warning, with its code', () => {
  expect(judged(agreeing)).toEqual([['passed', undefined]]);
  expect(judged({ ...agreeing, token_endpoint: 'https://auth.acme.example/oauth/token/' })).toEqual([['passed', undefined]]);
  expect(judged({ ...agreeing, issuer: 'https://other.example' })).toEqual([['warning', 'issuer']]);
  expect(judged({ ...agreeing, token_endpoint: 'https://auth.acme.example/token' })).toEqual([['warning', 'token-endpoint']]);
  expect(judged({ ...agreeing, token_endpoint: 42 })).toEqual([['warning', 'no-token-endpoint']]);
  expect(judged({ ...agreeing, token_endpoint_auth_methods_supported: ['client_secret_basic'] })).toEqual([['warning', 'auth-methods']]);
  // Absent, the methods are client_secret_basic alone (RFC 8414 §2).
  const { token_endpoint_auth_methods_supported: _, ...withoutMethods } = agreeing;
  expect(judged(withoutMethods)).toEqual([['warning', 'auth-methods']]);
  expect(judged({ ...agreeing, grant_types_supported: ['client_credentials'] })).toEqual([['warning', 'grant-types']]);
  // What the endpoint was not seen to take is not held against the document.
  expect(judged({ ...agreeing, token_endpoint_auth_methods_supported: ['client_secret_basic'] }, false)).toEqual([['passed', undefined]]);
});

test('no document at either place is a warning naming what each answered; a hostile value is quoted cut short', () => {
  const evidence: DiscoveryEvidence = {
    issuer,
    tokenExchangeUrl: `${issuer}/oauth/token`,
    bodyCredentialsAccepted: true,
    read: { tried: discoveryUrls(issuer).map((url) => ({ url, answer: '404' })) },
  };
  const [finding] = evaluate(discoveryAgrees, evidence, undefined);
  expect(finding).toMatchObject({ outcome: 'warning', code: 'no-document' });
  expect(finding!.message).toContain(`${issuer}/.well-known/openid-configuration answered 404`);
  const [long] = evaluate(discoveryAgrees, { ...evidence, read: { url: issuer, document: { ...agreeing, issuer: 'x'.repeat(100_000) } } }, undefined);
  expect(long!.message.length).toBeLessThan(600);
});

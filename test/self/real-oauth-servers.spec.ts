import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { profileSchema } from '../../profile/profile-schema';
import { runPlatformProbes } from '../../probes/certification';
import { signOnProbes } from '../../probes/sign-on';
import type { Certification } from '../../reports/certification';
import { oauth2ServerClient, startOauth2ServerPartner } from '../support/oauth2-server-partner';
import { oidcClient, startOidcPartner } from '../support/oidc-partner';
import { partnersDir } from '../support/profiles';
import { runPlaywright } from '../support/run-playwright';
import { leaksOf, textsUnder } from '../support/leaks';
import {
  concurrentRedemption,
  credentialsInUriRefused,
  duplicateParamRefused,
  getRefused,
  noEchoedCredentials,
  unknownParamIgnored,
} from '../../checks/token-hardening';
import { unguessableCodes, unguessableTokens } from '../../checks/token-entropy';
import { partnerAppRules } from '../../checks/partner-app';

const hardeningRules = [
  getRefused,
  credentialsInUriRefused,
  duplicateParamRefused,
  unknownParamIgnored,
  concurrentRedemption,
  noEchoedCredentials,
  unguessableTokens,
  unguessableCodes,
].map((rule) => rule.id);

/**
 * Partners built on real OAuth 2.0 server libraries from npm, their token endpoints unchanged, certified
 * the way a new user would: a PARTNERS_DIR profile each, one nested run, the certification reporter.
 * A standards-conformant server must be certifiable; a real misconfiguration must be named as such.
 */
const emulator = 'http://127.0.0.1:4401';
const authUrlOf = (partnerName: string) => `${emulator}/${partnerName}/auth`;
const platformOf = (partnerName: string) => ({ url: emulator, apiKey: 'reference-platform-api-key', partnerName });

type Started = { origin: string; close: () => Promise<void> };
const servers: Started[] = [];
const started = async <T extends Started>(server: Promise<T>) => {
  const running = await server;
  servers.push(running);
  return running;
};
test.afterAll(() => Promise.all(servers.map((server) => server.close())));

const resources = (origin: string) => ({ accountInfoUrl: `${origin}/api/account`, fundingSourcesUrl: `${origin}/api/funding-sources` });

test('oidc-provider and @node-oauth/oauth2-server certify with form; redirect_uri binding and a JSON profile each give exactly one failure, named', async () => {
  test.setTimeout(420_000);
  const oidc = await started(startOidcPartner({ authUrl: authUrlOf('oidc-mint') }));
  const oidcJson = await started(startOidcPartner({ authUrl: authUrlOf('oidc-json') }));
  const oidcBound = await started(startOidcPartner({ authUrl: authUrlOf('oidc-bound'), bindRedirectUri: true }));
  const oidcLogin = await started(startOidcPartner({ authUrl: authUrlOf('oidc-login') }));
  const nodeOauth = await started(startOauth2ServerPartner());
  // Only oidc-mint signs on through the platform emulator (its code path sends form to oidc-provider's
  // token endpoint); the browser suites of the others would only repeat that, at a cost on 2 cores.
  const oidcProfile = (origin: string, encoding: 'form' | 'json') => ({
    tokenExchangeUrl: `${origin}/token`,
    ...resources(origin),
    clientId: oidcClient.id,
    clientSecret: 'env:PARTNER_OIDC_CLIENT_SECRET',
    tokenExchangeEncoding: encoding,
    codes: { mintUrl: `${origin}/test-hooks/codes` },
  });
  const dir = partnersDir({
    'oidc-mint': { ...oidcProfile(oidc.origin, 'form'), platform: platformOf('oidc-mint') },
    'oidc-json': oidcProfile(oidcJson.origin, 'json'),
    'oidc-bound': oidcProfile(oidcBound.origin, 'form'),
    // Codes from the library's own login and consent pages, as a partner engineer would script them.
    'oidc-login': {
      ...oidcProfile(oidcLogin.origin, 'form'),
      codes: {
        browser: {
          authUrl: authUrlOf('oidc-login'),
          steps: [
            { goto: oidcLogin.authorizationUrl },
            { fill: 'input[name=login]', value: 'ada-lovelace' },
            { fill: 'input[name=password]', value: 'env:PARTNER_OIDC_LOGIN_PASSWORD' },
            { click: 'button[type=submit]' },
            { click: 'button[type=submit]' },
          ],
        },
      },
    },
    'node-oauth': {
      tokenExchangeUrl: `${nodeOauth.origin}/oauth/token`,
      ...resources(nodeOauth.origin),
      clientId: oauth2ServerClient.id,
      clientSecret: 'env:PARTNER_NODE_OAUTH_CLIENT_SECRET',
      tokenExchangeEncoding: 'form',
      codes: { mintUrl: `${nodeOauth.origin}/test-hooks/codes` },
    },
  });
  const names = ['oidc-mint', 'oidc-json', 'oidc-bound', 'oidc-login', 'node-oauth'];
  const run = await runPlaywright(
    [...names.map((name) => `--project=${name}`), '--workers=2'],
    {
      PARTNERS_DIR: dir,
      PARTNER_OIDC_CLIENT_SECRET: oidcClient.secret,
      PARTNER_NODE_OAUTH_CLIENT_SECRET: oauth2ServerClient.secret,
      PARTNER_OIDC_LOGIN_PASSWORD: 'any-password',
    },
    { reporters: ['certification'] },
  );
  const certification = (name: string) => JSON.parse(readFileSync(path.join(run.out, 'certification', name, 'certification.json'), 'utf8')) as Certification;
  const failedRules = (cert: Certification) => cert.rules.filter((rule) => rule.outcome === 'failed').map((rule) => rule.id);
  const messagesOf = (cert: Certification, rule: string) => cert.findings.filter((f) => f.rule === rule && f.outcome === 'failed').map((f) => f.message);
  for (const name of names) console.log(`${name}: ${certification(name).summary}`);

  for (const name of ['oidc-mint', 'oidc-login', 'node-oauth']) {
    const cert = certification(name);
    expect.soft(failedRules(cert), name).toEqual([]);
    expect.soft(cert.verdict, `${name}: ${cert.summary}`).toBe('CERTIFIED');
    expect
      .soft(
        cert.rules.filter((rule) => rule.blockedBy !== undefined).map((rule) => rule.id),
        name,
      )
      .toEqual([]);
    // A standard server passes every hardening rule (RFC 6749 §2.3.1, §3.2, §4.1.2, §10.10).
    const hardening = cert.rules.filter((rule) => hardeningRules.includes(rule.id));
    expect
      .soft(
        hardening.filter((rule) => rule.outcome !== 'passed').map((rule) => `${rule.id}: ${rule.outcome}`),
        name,
      )
      .toEqual([]);
    expect.soft(hardening.length, name).toBe(hardeningRules.length);
  }
  // The platform emulator signed on through oidc-provider's own token endpoint, in form.
  expect(certification('oidc-mint').rules.find((rule) => rule.id === 'sign-on/app/shown')?.outcome).toBe('passed');

  // The library named from its answers (docs/STACKS.md), and its own fix beside the failure.
  for (const name of ['oidc-mint', 'oidc-json', 'oidc-login']) expect.soft(certification(name).stack, name).toMatchObject({ library: 'oidc-provider' });
  expect.soft(certification('node-oauth').stack).toMatchObject({ library: '@node-oauth/oauth2-server (or its predecessor oauth2-server 3.x)' });
  // Its negative cases blocked, a partner that binds codes to a redirect URI is named by its refusal of the platform's request.
  expect.soft(certification('oidc-bound').stack).toMatchObject({ library: 'oidc-provider' });
  expect
    .soft(certification('oidc-bound').rules.find((rule) => rule.id === 'token-exchange/encoding')?.stackFix?.fix)
    .toContain('allowOmittingSingleRegisteredRedirectUri');
  const json = certification('oidc-json');
  expect(json.rules.find((rule) => rule.id === 'token-exchange/encoding')?.stackFix).toMatchObject({
    library: 'oidc-provider',
    fix: expect.stringContaining('"tokenExchangeEncoding": "form"'),
  });
  expect(run.stdout).toContain('OAuth server: oidc-provider\n    token-exchange/encoding: oidc-provider reads only');
  expect(json.verdict).toBe('NOT CERTIFIED');
  expect(failedRules(json)).toEqual(['token-exchange/encoding']);
  expect(messagesOf(json, 'token-exchange/encoding')).toEqual([
    expect.stringMatching(
      /^a JSON token request .* "error_description": "only application\/x-www-form-urlencoded content-type bodies are supported on POST \/token", while the same request form-encoded was answered with a token: .*either accept application\/json token requests .* or have the platform configured to send application\/x-www-form-urlencoded for this partner \("tokenExchangeEncoding": "form"\)$/,
    ),
  ]);

  const bound = certification('oidc-bound');
  expect(bound.verdict).toBe('NOT CERTIFIED');
  expect(failedRules(bound)).toEqual(['token-exchange/encoding']);
  expect(messagesOf(bound, 'token-exchange/encoding')[0]).toContain(
    `"error_description": "missing required parameter 'redirect_uri'": the partner requires "redirect_uri", which the platform never sends`,
  );
  // Everything that needed a token is not checked, blocked by that one failure; nothing is "not applicable" for it.
  const blocked = bound.rules.filter((rule) => rule.blockedBy === 'token-exchange/encoding');
  expect(blocked.length).toBeGreaterThan(150);
  // Nothing of the partner's is "not applicable" for want of a token: only the opt-in code lifetime, the discovery
  // document of a profile without an issuer, and the sign-on by code and the partner's own app, which a profile
  // without a "platform" block has no platform for.
  const notApplicable = bound.rules.filter((rule) => rule.owner === 'partner' && rule.outcome === 'skipped').map((rule) => rule.id);
  expect(notApplicable.sort()).toEqual([
    'sign-on/app/shown',
    'sign-on/message/navigated',
    ...partnerAppRules.map((rule) => rule.id).sort(),
    'token-exchange/code-expires',
    'token-exchange/discovery-agrees',
  ]);
  expect(bound.summary).toContain(`(${blocked.length} blocked by token-exchange/encoding)`);
  expect(run.stdout).toContain(`oidc-bound: NOT CERTIFIED: 1 rule failed`);
});

test('a platform configured for JSON with a form-only library: the code sign-on is blocked by the one encoding failure, not a second one', async ({
  browser,
}) => {
  const oidc = await started(startOidcPartner({ authUrl: authUrlOf('oidc-json-code') }));
  const profile = profileSchema.parse({
    tokenExchangeUrl: `${oidc.origin}/token`,
    ...resources(oidc.origin),
    clientId: oidcClient.id,
    clientSecret: oidcClient.secret,
    tokenExchangeEncoding: 'json',
    codes: { mintUrl: `${oidc.origin}/test-hooks/codes` },
    platform: platformOf('oidc-json-code'),
  });
  const findings = (
    await runPlatformProbes(
      profile,
      browser,
      signOnProbes.filter((probe) => probe.id === 'sign-on/code'),
    )
  ).flatMap((result) => result.findings);
  expect(findings.map((f) => [f.rule, f.outcome, f.blockedBy])).toEqual([
    ['sign-on/app/shown', 'not-checked', 'token-exchange/encoding'],
    ['sign-on/message/navigated', 'not-checked', 'token-exchange/encoding'],
  ]);
});

test('a Basic-only endpoint and a refused secret, answered alike at @node-oauth/oauth2-server: one failure each, told apart by the same credentials sent with Basic', async () => {
  test.setTimeout(300_000);
  // Both answer the platform's request 401 "invalid_client" with "WWW-Authenticate: Basic", as Authlib does.
  const basicOnly = await started(startOauth2ServerPartner({ challengeBasic: true, basicOnly: true }));
  const postAccepted = await started(startOauth2ServerPartner({ challengeBasic: true }));
  const profileOf = (origin: string, secret: string) => ({
    tokenExchangeUrl: `${origin}/oauth/token`,
    ...resources(origin),
    clientId: oauth2ServerClient.id,
    clientSecret: `env:${secret}`,
    tokenExchangeEncoding: 'form',
    codes: { mintUrl: `${origin}/test-hooks/codes` },
  });
  const dir = partnersDir({
    'basic-only': profileOf(basicOnly.origin, 'PARTNER_BASIC_ONLY_SECRET'),
    'stale-secret': profileOf(postAccepted.origin, 'PARTNER_STALE_SECRET'),
    // The positive control: the same server with the secret it holds.
    'post-accepted': profileOf(postAccepted.origin, 'PARTNER_BASIC_ONLY_SECRET'),
  });
  const run = await runPlaywright(
    ['--project=basic-only', '--project=stale-secret', '--project=post-accepted', '--workers=2'],
    // The second platform is configured with a secret the partner rotated away.
    { PARTNERS_DIR: dir, PARTNER_BASIC_ONLY_SECRET: oauth2ServerClient.secret, PARTNER_STALE_SECRET: 'rotated-away-secret-0b7c' },
    { reporters: ['certification'] },
  );
  const certification = (name: string) => JSON.parse(readFileSync(path.join(run.out, 'certification', name, 'certification.json'), 'utf8')) as Certification;
  const failures = (name: string) =>
    certification(name)
      .findings.filter((f) => f.outcome === 'failed')
      .map((f) => [f.rule, f.field, f.message]);
  const refused =
    'a form-encoded token request with a fresh "code" was answered 401 with "error": "invalid_client", "error_description": "Invalid client: client is invalid"';
  expect(failures('basic-only')).toEqual([
    [
      'token-exchange/encoding',
      'tokenExchangeEncoding',
      `${refused}: the partner requires HTTP Basic client authentication, while the platform sends "client_id" and "client_secret" in the body (client_secret_post; spec §4.2, §5.3): the same credentials sent with HTTP Basic (RFC 6749 §2.3.1) and a fresh "code" were answered with a token; allow client_secret_post for the platform's client (RFC 6749 §2.3.1 lets a server accept credentials in the body)`,
    ],
  ]);
  expect(failures('stale-secret')).toEqual([
    [
      'token-exchange/encoding',
      'clientSecret',
      `${refused}: the partner refused the client secret; sent with HTTP Basic instead (RFC 6749 §2.3.1), with a fresh "code", it was refused again, answered 401 with "error": "invalid_client", "error_description": "Invalid client: client is invalid": "clientSecret" (PARTNER_STALE_SECRET) is not the secret the partner holds for the client "platform-client"; check the value the platform is configured with against the partner's registration of that client, and put the current one in .env (PARTNER_STALE_SECRET=…) or the environment`,
    ],
  ]);
  for (const name of ['basic-only', 'stale-secret']) expect(certification(name).verdict, name).toBe('NOT CERTIFIED');
  expect(failures('post-accepted')).toEqual([]);
  expect(certification('post-accepted').verdict).toBe('CERTIFIED');
  // The Basic requests are in the evidence, their credentials masked in every form (client_id:secret in base64 too).
  const texts = [...textsUnder(run.out), { file: 'stdout', text: run.stdout }, { file: 'stderr', text: run.stderr }];
  expect(texts.some(({ file, text }) => file.endsWith('exchanges.har') && text.includes('"value": "Basic [redacted]"'))).toBe(true);
  const basicOf = (secret: string) => `${oauth2ServerClient.id}:${secret}`;
  const planted = {
    secret: oauth2ServerClient.secret,
    stale: 'rotated-away-secret-0b7c',
    basic: basicOf(oauth2ServerClient.secret),
    staleBasic: basicOf('rotated-away-secret-0b7c'),
  };
  expect(leaksOf(planted, texts)).toEqual([]);
});

import { expect, test } from '@playwright/test';
import {
  appShown,
  authenticationErrorMessage,
  errorShown,
  foreignHostCannotFrame,
  fundingSynced,
  messagesToHostOnly,
  navigatedMessage,
  partnerDataEscaped,
} from '../../checks/sign-on';
import { collectionCompletes, collectionScreenShown, inlineErrorShown } from '../../checks/sign-on-collect';
import { emulatorMessages, type Visit } from '../../checks/sign-on-visit';
import { landingCookies, landingFrameAncestors, landingReferrerPolicy, tamperedLinkRules, type Landing } from '../../checks/mock-link-landing';
import { jsonResponse, type JsonResponse } from '../../checks/evidence';
import { evaluate, type Rule } from '../../checks/finding';
import { checkTransport } from '../../checks/transport';
import {
  apiKeyRequired,
  issuedLink,
  linkAlgorithm,
  linkCarriesAccountInfo,
  linkClaims,
  linkCreated,
  mockLinkTransportRules,
  refusalsExplained,
  requiredFieldsRefused,
} from '../../checks/mock-link';

/** The rules about the platform, each shown to pass on a good observation and to fail on a bad one. */

const outcomes = <I>(rule: Rule<I>, input: I) => evaluate(rule, input, undefined).map((f) => f.outcome);
const platformOrigin = 'http://127.0.0.1:4401';
const navigated = { origin: platformOrigin, data: { type: 'NAVIGATED_TO_TARGET', messageId: 'm', target: 'dashboard' } };
const authError = { origin: platformOrigin, data: { type: 'AUTHENTICATION_ERROR', messageId: 'm', reason: 'MISSING_REQUIRED_ACCOUNT_INFO', message: 'x' } };
const visit = (screen: Visit['screen'], messages: Visit['messages'] = [], text = 'Signed in as Ada Lovelace Company: Acme'): Visit => ({
  screen,
  text,
  messages,
  platformOrigins: [platformOrigin],
  vocabulary: emulatorMessages,
});

test('the app must show the name and company, and NAVIGATED_TO_TARGET must come once from the platform origin', () => {
  expect(outcomes(appShown, { ...visit('app'), expected: ['Ada Lovelace', 'Acme'] })).toEqual(['passed']);
  expect(outcomes(appShown, { ...visit('app'), expected: ['Grace Hopper'] })).toEqual(['failed']);
  expect(outcomes(appShown, { ...visit('error'), expected: [] })).toEqual(['failed']);
  expect(outcomes(navigatedMessage, visit('app', [navigated]))).toEqual(['passed']);
  expect(outcomes(navigatedMessage, visit('app', []))).toEqual(['failed']);
  expect(outcomes(navigatedMessage, visit('app', [{ ...navigated, origin: 'http://evil.example' }]))).toEqual(['failed']);
});

test('the error path needs the error screen and an AUTHENTICATION_ERROR with a reason', () => {
  expect(outcomes(errorShown, visit('error'))).toEqual(['passed']);
  expect(outcomes(errorShown, visit('app'))).toEqual(['failed']);
  expect(outcomes(authenticationErrorMessage, visit('error', [authError]))).toEqual(['passed']);
  expect(outcomes(authenticationErrorMessage, visit('error', [{ ...authError, data: { type: 'AUTHENTICATION_ERROR' } }]))).toEqual(['failed']);
});

test('the collection screen must ask for exactly the missing fields, flag a bad value, then open the app', () => {
  const base = { ...visit('collect'), expectedFields: ['user.phone', 'user.dateOfBirth'] };
  expect(outcomes(collectionScreenShown, { ...base, fields: ['user.phone', 'user.dateOfBirth'] })).toEqual(['passed']);
  expect(outcomes(collectionScreenShown, { ...base, fields: ['user.phone', 'user.email'] })).toEqual(['failed', 'failed']);
  expect(outcomes(collectionScreenShown, { ...base, screen: 'app', fields: [] })).toEqual(['failed']);
  const typed = { ...base, fields: base.expectedFields, invalidField: 'user.phone' };
  expect(outcomes(inlineErrorShown, { ...typed, errors: { 'user.phone': 'digits' } })).toEqual(['passed']);
  expect(outcomes(inlineErrorShown, { ...typed, errors: {} })).toEqual(['failed']);
  expect(outcomes(collectionCompletes, visit('app'))).toEqual(['passed']);
  expect(outcomes(collectionCompletes, visit('collect'))).toEqual(['failed']);
});

test('funding sync: the planted source must be gone and every partner source shown', () => {
  const synced = { ...visit('app'), partnerIds: ['fs-1', 'fs-2'], seeded: 'old' };
  expect(outcomes(fundingSynced, { ...synced, shownIds: ['fs-1', 'fs-2'] })).toEqual(['passed']);
  expect(outcomes(fundingSynced, { ...synced, shownIds: ['fs-1', 'fs-2', 'old'] })).toEqual(['failed']);
  expect(outcomes(fundingSynced, { ...synced, shownIds: ['fs-1'] })).toEqual(['failed']);
});

test('a foreign host must neither frame the app nor receive a message; markup must stay text; a tampered link must fail', () => {
  const foreign = { framed: 'none' as const, messages: [], vocabulary: emulatorMessages, foreignOrigin: 'http://foreign.invalid' };
  expect(outcomes(foreignHostCannotFrame, foreign)).toEqual(['passed']);
  expect(outcomes(foreignHostCannotFrame, { ...foreign, framed: 'app' })).toEqual(['failed']);
  // A page the browser loaded in the foreign frame is framed, whatever it rendered (a single-page app renders late, or not without its cookie).
  expect(outcomes(foreignHostCannotFrame, { ...foreign, document: 'http://app.platform.example/home' })).toEqual(['failed']);
  expect(outcomes(messagesToHostOnly, { ...foreign, messages: [navigated] })).toEqual(['failed']);
  const markup = '<b id="x">B</b>';
  expect(outcomes(partnerDataEscaped, { ...visit('app', [], `Company: ${markup}`), injected: false, markup })).toEqual(['passed']);
  expect(outcomes(partnerDataEscaped, { ...visit('app', [], 'Company: B'), injected: true, markup })).toEqual(['failed']);
  expect(outcomes(tamperedLinkRules.expired, visit('error', [authError]))).toEqual(['passed']);
  expect(outcomes(tamperedLinkRules.expired, visit('app', [navigated]))).toEqual(['failed']);
});

test('the landing, judged by effect: no-referrer on each response that carries the token, frame-ancestors exactly the host, cookies a browser keeps and sends', () => {
  const hostOrigin = 'http://127.0.0.1:4402';
  const app = 'http://127.0.0.1:4401';
  const good = { 'content-security-policy': `default-src 'none'; frame-ancestors ${hostOrigin}` };
  const landing = (edit: Partial<Landing> = {}): Landing => ({
    headers: good,
    tokenResponses: [{ url: `${app}/l?token=t`, referrerPolicy: 'no-referrer' }],
    cookies: [{ origin: app, line: 's=1; Path=/; HttpOnly; Secure; SameSite=None' }],
    hostOrigin,
    ...edit,
  });
  for (const rule of [landingReferrerPolicy, landingFrameAncestors, landingCookies]) expect(outcomes(rule, landing())).toEqual(['passed']);
  expect(outcomes(landingReferrerPolicy, landing({ tokenResponses: [{ url: `${app}/l?token=t`, referrerPolicy: 'origin' }] }))).toEqual(['failed']);
  expect(outcomes(landingReferrerPolicy, landing({ tokenResponses: [{ url: `${app}/l?token=t`, referrerPolicy: undefined }] }))).toEqual(['failed']);
  // The header protects the response whose address carries the token: the app page it redirects on to may say otherwise.
  expect(outcomes(landingReferrerPolicy, landing({ headers: { ...good, 'referrer-policy': 'same-origin' } }))).toEqual(['passed']);
  expect(outcomes(landingFrameAncestors, landing({ headers: { 'content-security-policy': `frame-ancestors ${hostOrigin} *` } }))).toEqual(['failed']);
  expect(outcomes(landingFrameAncestors, landing({ headers: { 'content-security-policy': "default-src 'none'" } }))).toEqual(['failed']);
  // A second named host origin is the platform's business; a scheme alone lets any site in.
  expect(
    outcomes(landingFrameAncestors, landing({ headers: { 'content-security-policy': `frame-ancestors ${hostOrigin} https://app2.partner.example` } })),
  ).toEqual(['passed']);
  expect(outcomes(landingFrameAncestors, landing({ headers: { 'content-security-policy': `frame-ancestors ${hostOrigin} https:` } }))).toEqual(['failed']);
  // Cookies by what the browser needs: on the host's own site (same scheme and host) Lax is sent; on another site only Secure; SameSite=None.
  expect(outcomes(landingCookies, landing({ cookies: [{ origin: app, line: 'b=2; HttpOnly; SameSite=Lax' }] }))).toEqual(['passed']);
  expect(outcomes(landingCookies, landing({ cookies: [{ origin: 'https://app.platform.example', line: 'b=2; Secure; SameSite=Lax' }] }))).toEqual(['failed']);
  expect(
    outcomes(
      landingCookies,
      landing({
        cookies: [
          { origin: app, line: 'a=1; Secure; SameSite=None' },
          { origin: app, line: 'b=2; SameSite=None' },
        ],
      }),
    ),
  ).toEqual(['failed']);
  expect(outcomes(landingCookies, landing({ cookies: [{ origin: 'https://app.platform.example', line: 'b=2; Secure; SameSite=None' }] }))).toEqual(['passed']);
});

const jsonAnswer = (status: number, body: unknown): JsonResponse => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return jsonResponse({ status, headers: { 'content-type': 'application/json' }, body: text, bytes: text.length });
};
const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const tokenOf = (header: object, claims: object) => `${segment(header)}.${segment(claims)}.c2ln`;
const sent = { user: { id: 'u' }, company: { id: 'c' } };

test('the mock link: 200 with a link carrying an HS256 JWT with its claims and the account information sent', () => {
  const claims = { iss: 'i', aud: 'acme', iat: 1000, exp: 1600, jti: 'j', accountInfo: sent };
  const created = jsonAnswer(200, { link: `http://p.example/acme/auth?token=${tokenOf({ alg: 'HS256' }, claims)}` });
  const issued = issuedLink(created);
  expect(outcomes(linkCreated, created)).toEqual(['passed']);
  expect(outcomes(linkAlgorithm, issued)).toEqual(['passed']);
  expect(outcomes(linkClaims, issued)).toEqual(['passed']);
  expect(outcomes(linkCarriesAccountInfo, { issued, sent })).toEqual(['passed']);
  expect(outcomes(linkCreated, jsonAnswer(200, { link: 'http://p.example/auth' }))).toEqual(['failed']);
  const weak = issuedLink(jsonAnswer(200, { link: `http://p.example/a?token=${tokenOf({ alg: 'none' }, { ...claims, exp: 99_999, jti: undefined })}` }));
  expect(outcomes(linkAlgorithm, weak)).toEqual(['failed']);
  expect(outcomes(linkClaims, weak)).toEqual(['failed', 'failed']);
  expect(outcomes(linkCarriesAccountInfo, { issued, sent: { ...sent, user: { id: 'v' } } })).toEqual(['failed']);
});

test("another platform's mock link: its own algorithm, claim and lifetime, and the account information whatever its key order", () => {
  const shape = { algorithms: ['RS256'], claim: 'acct', maxLifetimeSeconds: 3600 };
  const info = { company: { name: 'Acme', id: 'c' }, user: { email: 'a@example.com', id: 'u' } };
  const issued = issuedLink(
    jsonAnswer(200, { link: `https://app.example/sso?token=${tokenOf({ alg: 'RS256' }, { iss: 'i', aud: 'a', iat: 0, exp: 3000, jti: 'j', acct: info })}` }),
  );
  expect(outcomes(linkAlgorithm, { ...issued, shape })).toEqual(['passed']);
  expect(outcomes(linkAlgorithm, issued)).toEqual(['failed']); // the emulator's HS256
  expect(outcomes(linkClaims, { ...issued, shape })).toEqual(['passed']);
  expect(outcomes(linkCarriesAccountInfo, { issued, sent: { user: { id: 'u', email: 'a@example.com' }, company: { id: 'c', name: 'Acme' } }, shape })).toEqual([
    'passed',
  ]);
});

test('refusals: the status each case demands, and an error that names the field, in any format', () => {
  expect(outcomes(apiKeyRequired, [{ case: 'without "api-key"', response: jsonAnswer(401, { code: 'MISSING_API_KEY' }) }])).toEqual(['passed']);
  expect(outcomes(apiKeyRequired, [{ case: 'without "api-key"', response: jsonAnswer(200, { link: 'x' }) }])).toEqual(['failed']);
  // The status the profile states for this platform (platform.mockLink.unauthorizedStatus) is its requirement.
  expect(outcomes(apiKeyRequired, [{ case: 'without "api-key"', response: jsonAnswer(403, { error: {} }), statuses: [403] }])).toEqual(['passed']);
  expect(outcomes(apiKeyRequired, [{ case: 'without "api-key"', response: jsonAnswer(401, { error: {} }), statuses: [403] }])).toEqual(['failed']);
  const missing = (status: number, body: unknown) => [{ case: 'without "token"', field: 'token', response: jsonAnswer(status, body) }];
  expect(outcomes(requiredFieldsRefused, missing(400, { field: 'token' }))).toEqual(['passed']);
  expect(outcomes(requiredFieldsRefused, missing(500, 'oops'))).toEqual(['failed']);
  expect(outcomes(refusalsExplained, missing(400, { message: '"token" is required' }))).toEqual(['passed']);
  expect(outcomes(refusalsExplained, missing(400, { message: 'bad request' }))).toEqual(['warning']);
  expect(outcomes(refusalsExplained, missing(400, '<html>'))).toEqual(['warning']);
  // By its effect: a plain-text refusal that names the field tells the engineer as much as JSON does.
  expect(outcomes(refusalsExplained, missing(422, 'token: must be a UUID'))).toEqual(['passed']);
});

test("the mock link's own transport rules name it: no answer and a redirect fail mock-link/transport and mock-link/redirect", () => {
  const request = { method: 'POST', url: 'http://p.example/v1/auth/providers/standard/create-mock-link', headers: {} };
  const at = { startedAt: '2026-11-21T12:00:00.000Z', durationMs: 5 };
  const refused = checkTransport(mockLinkTransportRules, {
    request,
    failure: { kind: 'connection-refused', message: 'connection refused by p.example' },
    ...at,
  });
  const moved = checkTransport(mockLinkTransportRules, { request, response: { status: 302, headers: { location: '/elsewhere' }, body: '', bytes: 0 }, ...at });
  const failedIds = (findings: typeof refused.findings) => findings.filter((f) => f.outcome === 'failed').map((f) => f.rule);
  expect([refused.usable, failedIds(refused.findings)]).toEqual([false, ['mock-link/transport']]);
  expect([moved.usable, failedIds(moved.findings)]).toEqual([false, ['mock-link/redirect']]);
  expect(refused.findings[0]!.message).toContain('"platform.url"');
});

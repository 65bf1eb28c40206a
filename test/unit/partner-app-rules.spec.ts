import { expect, test } from '@playwright/test';
import { policies, sandboxOf, sourceListAllows, sourcesOf } from '../../checks/csp';
import { authUrlDifference, codeIn, codeMarker, withCode, withoutCode } from '../../checks/auth-url';
import { actsOnPlatformMessagesOnly } from '../../checks/partner-app-messages';
import { authUrlAsConfigured, cspAdmitsPlatform, embedsFreshCode, frameSandboxAllowsApp, partnerAppShown, platformInFrame } from '../../checks/partner-app';
import type { EmbedLoad, Embedding } from '../../checks/partner-app-embedding';
import { evaluate, type Rule } from '../../checks/finding';

const page = 'https://app.partner.example/payments';
const authUrl = `https://pay.platform.example/acme/auth?code=${codeMarker}`;
const platform = 'https://pay.platform.example';
const framed = (code: string) => `${platform}/acme/auth?code=${code}`;

/** A load whose frame held the platform's app, reached through `src`, unless `edit` says otherwise. */
const load = (n: number, src: string | undefined, edit: Partial<EmbedLoad> = {}): EmbedLoad => ({
  n,
  purpose: 'sign-on',
  src,
  sandbox: null,
  csp: undefined,
  document: `${platform}/app/home`,
  navigations: src ? [src, `${platform}/app/home`] : [],
  screen: 'app',
  text: 'Home',
  ready: true,
  ...edit,
});
const judge = (rule: Rule<Embedding>, loads: EmbedLoad[]) =>
  evaluate(rule, { page, loads, authUrl, appOrigins: [platform] }, undefined).map((f) => `${f.outcome}${f.outcome === 'failed' ? `: ${f.message}` : ''}`);

test('a source list admits by CSP3 matching: wildcards, schemes, self, ports, paths and the upgrade to https', () => {
  const allows = (source: string, url: string, redirected = false) => sourceListAllows([source], url, page, { redirected });
  expect(allows('https://pay.platform.example', 'https://pay.platform.example')).toBe(true);
  expect(allows('pay.platform.example', 'https://pay.platform.example')).toBe(true);
  expect(allows('http://pay.platform.example', 'https://pay.platform.example')).toBe(true);
  expect(allows('https://*.platform.example', 'https://pay.platform.example')).toBe(true);
  expect(allows('https:', 'https://pay.platform.example')).toBe(true);
  expect(allows('*', 'https://pay.platform.example')).toBe(true);
  expect(allows("'self'", 'https://app.partner.example')).toBe(true);
  expect(allows('https://pay.platform.example:*', 'https://pay.platform.example:8443')).toBe(true);
  // Paths (CSP3 §6.7.2.8): a trailing slash admits what is under it, no slash only itself; a redirect ignores them.
  expect(allows('https://pay.platform.example/acme/', 'https://pay.platform.example/acme/auth?code=1')).toBe(true);
  expect(allows('https://pay.platform.example/acme/auth', 'https://pay.platform.example/acme/auth?code=1')).toBe(true);
  expect(allows('https://pay.platform.example/sso/', 'https://pay.platform.example/acme/auth')).toBe(false);
  expect(allows('https://pay.platform.example/acme/auth', 'https://pay.platform.example/acme/auth/x')).toBe(false);
  expect(allows('https://pay.platform.example/sso/', 'https://pay.platform.example/app', true)).toBe(true);

  expect(allows("'self'", 'https://pay.platform.example')).toBe(false);
  expect(allows("'none'", 'https://pay.platform.example')).toBe(false);
  expect(allows('https://pay.platform.example', 'https://pay.platform.example:8443')).toBe(false);
  expect(allows('https://platform.example', 'https://pay.platform.example')).toBe(false);
  expect(allows('https://*.platform.example', 'https://platform.example')).toBe(false);
  expect(allows('https://pay.platform.example', 'http://pay.platform.example')).toBe(false);
  expect(allows('https://evil-platform.example', 'https://platform.example')).toBe(false);
});

test('each policy of a header is read on its own, and a directive falls back in the order given', () => {
  const [first, second] = policies("default-src 'self'; frame-src https://pay.platform.example, frame-src 'none'");
  expect(sourcesOf(first!, 'frame-src', 'default-src')).toEqual(['https://pay.platform.example']);
  expect(sourcesOf(second!, 'frame-src', 'default-src')).toEqual(["'none'"]);
  expect(sourcesOf(policies("script-src 'self'")[0]!, 'frame-src', 'child-src', 'default-src')).toBeUndefined();
  expect(sandboxOf(policies("default-src 'self'; sandbox Allow-Scripts allow-forms")[0]!)).toEqual(['allow-scripts', 'allow-forms']);
  expect(sandboxOf(policies("default-src 'self'")[0]!)).toBeUndefined();
});

test('sign-on/partner-app/csp: every policy of every load admits the framed auth URL (path included) and the app origins', () => {
  const at = (csp: string | undefined, metaCsp: string[] = []) => judge(cspAdmitsPlatform, [load(1, framed('a1'), { csp, metaCsp })]);
  expect(at(undefined)).toEqual(['passed']);
  expect(at("script-src 'self'")).toEqual(['passed']);
  expect(at("default-src 'self'; frame-src https://pay.platform.example")).toEqual(['passed']);
  expect(at("default-src 'self'")).toEqual([
    `failed: at load 1 of 1, the page's CSP lets frames load "'self'", which leaves out https://pay.platform.example/acme/auth?code=<code>, https://pay.platform.example; add https://pay.platform.example to its "frame-src"`,
  ]);
  expect(at("child-src https://pay.platform.example, frame-src 'none'")[0]).toMatch(/^failed: at load 1 of 1, the page's CSP lets frames load "'none'"/);
  // A <meta> policy is one more to satisfy, and named as such: a header that admits the platform does not lift it.
  expect(at('frame-src https://pay.platform.example', ["frame-src 'self'"])[0]).toMatch(
    /^failed: at load 1 of 1, the page's <meta> CSP lets frames load "'self'"/,
  );
  expect(at(undefined, ['frame-src https://pay.platform.example'])).toEqual(['passed']);
  // A path that leaves out the auth URL's fails; the app origins, reached by redirect, are judged without paths.
  expect(at('frame-src https://pay.platform.example/sso/')).toEqual([
    `failed: at load 1 of 1, the page's CSP lets frames load "https://pay.platform.example/sso/", which leaves out https://pay.platform.example/acme/auth?code=<code>; add https://pay.platform.example to its "frame-src"`,
  ]);
  expect(at('frame-src https://pay.platform.example/acme/')).toEqual(['passed']);
  // Every load: a policy that comes at the second load only is found there.
  expect(judge(cspAdmitsPlatform, [load(1, framed('a1')), load(2, framed('b2'), { csp: "frame-src 'self'" })])[0]).toMatch(/^failed: at load 2 of 2, /);
  // One policy is one failure, whether or not a load's frame was seen to ask for the auth URL (a slow load may not have).
  const policy = { csp: "frame-src 'self'" };
  expect(judge(cspAdmitsPlatform, [load(1, undefined, policy), load(2, framed('b2'), policy), load(3, framed('c3'), policy)])).toEqual([
    `failed: at loads 1, 2, 3 of 3, the page's CSP lets frames load "'self'", which leaves out https://pay.platform.example/acme/auth?code=<code>, https://pay.platform.example; add https://pay.platform.example to its "frame-src"`,
  ]);
});

test("a load whose document's headers the browser never reported is not checked by the policy rules, never passed", () => {
  const loads = [load(1, framed('a1')), load(2, framed('b2'), { headersUnseen: true })];
  const outcomes = (rule: Rule<Embedding>) =>
    evaluate(rule, { page, loads, authUrl, appOrigins: [platform] }, undefined).map((f) => `${f.outcome}: ${f.message}`);
  for (const rule of [cspAdmitsPlatform, frameSandboxAllowsApp])
    expect(outcomes(rule)).toEqual([expect.stringMatching(/^not-checked: at load 2 of 2, the browser reported no response for the page's document/)]);
  // Likewise a frame the browser gave no access to: what it held is not judged there.
  const unread = [load(1, framed('a1')), load(2, framed('b2'), { frameUnread: true, document: undefined })];
  expect(evaluate(platformInFrame, { page, loads: unread, authUrl, appOrigins: [platform] }, undefined).map((f) => `${f.outcome}: ${f.message}`)).toEqual([
    expect.stringMatching(/^not-checked: at load 2 of 2, the browser gave no access to the frame's document/),
  ]);
});

test('sign-on/partner-app/iframe-sandbox: the attribute and the CSP sandbox directive, at every load', () => {
  expect(judge(frameSandboxAllowsApp, [load(1, framed('a1'), { sandbox: 'allow-scripts allow-same-origin allow-forms allow-popups' })])).toEqual(['passed']);
  expect(judge(frameSandboxAllowsApp, [load(1, framed('a1')), load(2, framed('b2'), { sandbox: 'allow-scripts' })])).toEqual([
    'failed: at load 2 of 2, the frame\'s sandbox attribute is "allow-scripts", without allow-same-origin, allow-forms; add them, or drop the sandbox attribute',
  ]);
  expect(judge(frameSandboxAllowsApp, [load(1, framed('a1'), { csp: "default-src 'self'; sandbox allow-scripts allow-same-origin" })])).toEqual([
    'failed: at load 1 of 1, the page\'s CSP has "sandbox allow-scripts allow-same-origin", which its frames inherit, without allow-forms; add them to the directive, or drop it',
  ]);
});

test("the code is read where the profile's auth URL template puts it, in the query or the path", () => {
  expect(codeIn('https://pay.platform.example/acme/auth?code=abc123&lang=en', authUrl)).toBe('abc123');
  expect(codeIn('https://pay.platform.example/acme/auth', authUrl)).toBeUndefined();
  expect(codeIn('https://pay.platform.example/other/auth?code=abc123', authUrl)).toBeUndefined();
  expect(codeIn('https://evil.example/acme/auth?code=abc123', authUrl)).toBeUndefined();
  const path = `https://pay.platform.example/sso/acme/${codeMarker}/start`;
  expect(codeIn('https://pay.platform.example/sso/acme/abc123/start', path)).toBe('abc123');
  expect(codeIn('https://pay.platform.example/sso/acme//start', path)).toBeUndefined();
  // The code put in its place, the rest of the address kept.
  expect(withCode('https://pay.platform.example/acme/auth?code=abc123&lang=en', authUrl, 'other')).toBe(
    'https://pay.platform.example/acme/auth?code=other&lang=en',
  );
  expect(withCode('https://pay.platform.example/sso/acme/abc123/start?x=1', path, 'a b')).toBe('https://pay.platform.example/sso/acme/a%20b/start?x=1');
  expect(withCode('https://evil.example/acme/auth?code=abc123', authUrl, 'other')).toBeUndefined();
  // What a message may quote: the code hidden, also in an address that differs elsewhere.
  expect(withoutCode('https://pay.platform.example/other/auth?code=abc123', authUrl)).toBe('https://pay.platform.example/other/auth?code=<code>');
});

test('sign-on/partner-app/auth-url: every part of the template is compared, and what differs is named', () => {
  const template = `https://pay.platform.example/sso?partner=acme&code=${codeMarker}`;
  expect(authUrlDifference('https://pay.platform.example/sso?partner=acme&code=x1&state=s', template)).toBeUndefined();
  expect(authUrlDifference('https://pay.platform.example/sso?partner=globex&code=x1', template)).toBe('its "partner" parameter is "globex", not "acme"');
  expect(authUrlDifference('https://pay.platform.example/sso?code=x1', template)).toBe('it has no "partner" parameter; the auth URL has "partner=acme"');
  expect(authUrlDifference('https://pay.platform.example/sso?partner=acme', template)).toBe('it has no code in its "code" parameter');
  expect(authUrlDifference('https://evil.example/sso?partner=acme&code=x1', template)).toBe(
    'its origin is https://evil.example, not https://pay.platform.example',
  );
  expect(authUrlDifference(undefined, template)).toBe('the frame has no address');
  expect(judge(authUrlAsConfigured, [load(1, framed('a1')), load(2, `${platform}/globex/auth?code=b2`), load(3, `${platform}/globex/auth?code=c3`)])).toEqual([
    'failed: at loads 2, 3 of 3, the page framed "https://pay.platform.example/globex/auth?code=<code>": its path is "/globex/auth", not "/acme/auth"; frame https://pay.platform.example/acme/auth?code=<a fresh code>',
  ]);
});

test('sign-on/partner-app/fresh-code: every load has a code of its own; a reuse names the load, never the code', () => {
  expect(judge(embedsFreshCode, [load(1, framed('first1')), load(2, framed('second2')), load(3, framed('third3'))])).toEqual(['passed']);
  expect(judge(embedsFreshCode, [load(1, framed('first1')), load(2, framed('second2')), load(3, framed('second2')), load(4, framed('second2'))])).toEqual([
    'failed: at loads 3, 4 of 4, the page framed the code of load 2 again; mint a fresh code for every load (RFC 6749 §4.1.2: a code is used once)',
  ]);
  // A load that framed no auth URL is sign-on/partner-app/auth-url's.
  expect(judge(embedsFreshCode, [load(1, framed('first1')), load(2, undefined)])).toEqual(['passed']);
});

test('sign-on/partner-app/platform-in-frame: the document came from an app origin through the framed auth URL, at every load', () => {
  expect(judge(platformInFrame, [load(1, framed('a1')), load(2, framed('b2'))])).toEqual(['passed']);
  const lookalike = (n: number) => load(n, framed(`c${n}`), { srcdoc: true, document: 'about:srcdoc', navigations: [] });
  expect(judge(platformInFrame, [load(1, framed('a1')), lookalike(2), lookalike(3)])).toEqual([
    "failed: at loads 2, 3 of 3, the frame held a document the page wrote itself (srcdoc), not the platform's app from https://pay.platform.example; frame the auth URL itself and let the platform's document load in it",
  ]);
  expect(
    judge(platformInFrame, [load(1, framed('a1'), { document: 'https://evil.example/home', navigations: [framed('a1'), 'https://evil.example/home'] })])[0],
  ).toMatch(/the frame held a document from https:\/\/evil.example, not/);
  expect(judge(platformInFrame, [load(1, framed('a1'), { navigations: [`${platform}/app/home`] })])[0]).toMatch(
    /, but not through the auth URL the page framed, /,
  );
  expect(judge(platformInFrame, [load(1, framed('a1'), { document: 'about:blank', navigations: [] })])[0]).toMatch(/an empty document \(about:blank\)/);
});

test('sign-on/partner-app/shown: the app at every load meant to sign on, told to the page by the platform', () => {
  expect(judge(partnerAppShown, [load(1, framed('a1')), load(2, framed('b2'), { purpose: 'auth-error', screen: 'error' })])).toEqual(['passed']);
  expect(judge(partnerAppShown, [load(1, framed('a1')), load(2, framed('b2'), { screen: 'error', text: 'Sorry' })])).toEqual([
    'failed: at load 2 of 2, the frame in the partner\'s page showed the error screen ("Sorry"), not the app',
  ]);
  expect(judge(partnerAppShown, [load(1, framed('a1'), { ready: false })])).toEqual([
    "failed: at load 1 of 1, the app showed, but the platform's ready message never reached the page from its app origin",
  ]);
  expect(judge(partnerAppShown, [load(1, framed('a1'), { ready: undefined })])).toEqual(['passed']);
});

test('sign-on/partner-app/message-origin: a reaction names its channel and origin', () => {
  const at = (channels: Parameters<typeof actsOnPlatformMessagesOnly.check>[0]['channels']) =>
    evaluate(actsOnPlatformMessagesOnly, { channels }, undefined).map((f) => `${f.outcome}: ${f.message}`);
  expect(at([{ channel: 'opened-window', origins: ['https://x.example'], control: true }])[0]).toMatch(/^passed/);
  expect(at([{ channel: 'opener', origins: ['https://pay.platform.example0'], reactedTo: 'https://pay.platform.example0' }])).toEqual([
    "failed: a message posted from https://pay.platform.example0 through the window that opened the page made the page show its sign-on error; compare event.origin exactly (===) with the platform's origin before acting on a message, whatever window sent it",
  ]);
});

import { expect, test } from '@playwright/test';
import { policies, sourceListAllows, sourcesOf } from '../../checks/csp';
import { codeIn, codeMarker, cspAdmitsPlatform, embedsFreshCode, withCode, type Embedding } from '../../checks/partner-app';
import { evaluate } from '../../checks/finding';

const page = 'https://app.partner.example/payments';

test('a source list admits by CSP3 matching: wildcards, schemes, self, ports and the upgrade to https', () => {
  const allows = (source: string, url: string) => sourceListAllows([source], url, page);
  expect(allows('https://pay.platform.example', 'https://pay.platform.example')).toBe(true);
  expect(allows('https://pay.platform.example/sso/', 'https://pay.platform.example')).toBe(true);
  expect(allows('pay.platform.example', 'https://pay.platform.example')).toBe(true);
  expect(allows('http://pay.platform.example', 'https://pay.platform.example')).toBe(true);
  expect(allows('https://*.platform.example', 'https://pay.platform.example')).toBe(true);
  expect(allows('https:', 'https://pay.platform.example')).toBe(true);
  expect(allows('*', 'https://pay.platform.example')).toBe(true);
  expect(allows("'self'", 'https://app.partner.example')).toBe(true);
  expect(allows('https://pay.platform.example:*', 'https://pay.platform.example:8443')).toBe(true);

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
});

const judge = (csp: string | undefined, metaCsp: string[] = []) => {
  const embedding: Embedding = { page, loads: [{ src: undefined, sandbox: null, csp, metaCsp }], authUrl: 'https://pay.platform.example/p/auth?code=x', appOrigins: ['https://pay.platform.example'] };
  return evaluate(cspAdmitsPlatform, embedding, undefined).map((f) => `${f.outcome}${f.outcome === 'failed' ? `: ${f.message}` : ''}`);
};

test('sign-on/partner-app/csp: every policy must admit the app origins to frames; no frame directive restricts nothing', () => {
  expect(judge(undefined)).toEqual(['passed']);
  expect(judge("script-src 'self'")).toEqual(['passed']);
  expect(judge("default-src 'self'; frame-src https://pay.platform.example")).toEqual(['passed']);
  expect(judge("default-src 'self'")).toEqual([`failed: the page's CSP lets frames load "'self'", which leaves out https://pay.platform.example; add it to its "frame-src"`]);
  expect(judge("child-src https://pay.platform.example, frame-src 'none'")).toEqual([`failed: the page's CSP lets frames load "'none'", which leaves out https://pay.platform.example; add it to its "frame-src"`]);
  // A <meta> policy is one more to satisfy, and named as such: a header that admits the platform does not lift it.
  expect(judge("frame-src https://pay.platform.example", ["frame-src 'self'"])).toEqual([`failed: the page's <meta> CSP lets frames load "'self'", which leaves out https://pay.platform.example; add it to its "frame-src"`]);
  expect(judge(undefined, ['frame-src https://pay.platform.example'])).toEqual(['passed']);
});

test("the code is read where the profile's auth URL template puts it, in the query or the path", () => {
  const query = `https://pay.platform.example/acme/auth?code=${codeMarker}`;
  expect(codeIn('https://pay.platform.example/acme/auth?code=abc123&lang=en', query)).toBe('abc123');
  expect(codeIn('https://pay.platform.example/acme/auth', query)).toBeUndefined();
  expect(codeIn('https://pay.platform.example/other/auth?code=abc123', query)).toBeUndefined();
  expect(codeIn('https://evil.example/acme/auth?code=abc123', query)).toBeUndefined();
  const path = `https://pay.platform.example/sso/acme/${codeMarker}/start`;
  expect(codeIn('https://pay.platform.example/sso/acme/abc123/start', path)).toBe('abc123');
  expect(codeIn('https://pay.platform.example/sso/acme//start', path)).toBeUndefined();
  // The code put in its place, the rest of the address kept.
  expect(withCode('https://pay.platform.example/acme/auth?code=abc123&lang=en', query, 'other')).toBe('https://pay.platform.example/acme/auth?code=other&lang=en');
  expect(withCode('https://pay.platform.example/sso/acme/abc123/start?x=1', path, 'a b')).toBe('https://pay.platform.example/sso/acme/a%20b/start?x=1');
  expect(withCode('https://evil.example/acme/auth?code=abc123', query, 'other')).toBeUndefined();
});

test('sign-on/partner-app/fresh-code: two loads, two codes; the same code twice, or another address, fails without quoting the code', () => {
  const authUrl = `https://pay.platform.example/acme/auth?code=${codeMarker}`;
  const load = (src: string | undefined) => ({ src, sandbox: null, csp: undefined });
  const judge = (...srcs: (string | undefined)[]) => evaluate(embedsFreshCode, { page, loads: srcs.map(load), authUrl, appOrigins: [] }, undefined).map((f) => `${f.outcome}${f.outcome === 'failed' ? `: ${f.message}` : ''}`);
  expect(judge('https://pay.platform.example/acme/auth?code=first1', 'https://pay.platform.example/acme/auth?code=second2')).toEqual(['passed']);
  expect(judge('https://pay.platform.example/acme/auth?code=same12', 'https://pay.platform.example/acme/auth?code=same12')).toEqual(['failed: the page framed the same code at 2 loads; mint a fresh code for every load (RFC 6749 §4.1.2: a code is used once)']);
  expect(judge('https://pay.platform.example/acme/auth?code=first1', undefined)).toEqual(['failed: the page framed "(no src)"; frame https://pay.platform.example/acme/auth?code=<a fresh code>']);
});

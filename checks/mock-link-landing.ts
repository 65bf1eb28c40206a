import type { ClauseId } from './clauses';
import { policies, sourcesOf } from './csp';
import type { Rule } from './finding';
import { received, screenNames, type Visit } from './sign-on-visit';

/** Rules on a mock link's landing page (its response headers) and on the tampered links a browser must be refused. */

/** A mock link the platform must not honour. */
function tamperedLinkRejected(name: string, what: string, clause: ClauseId = 'RFC8725 §3.1'): Rule<Visit> {
  return {
    id: `mock-link/jwt/${name}-rejected`,
    owner: 'platform',
    field: 'token',
    clause,
    level: 'MUST',
    requirement: `a mock link ${what} shows the error screen`,
    impact: "a forged or stale link signs someone in as the partner's user",
    must: { othersIn: "a forged or stale link signs someone in as the partner's user" },
    check: (visit) =>
      visit.screen === 'error' && received(visit, 'ready').length === 0
        ? []
        : [{ code: 'screen', message: `a link ${what} showed ${screenNames[visit.screen]}; reject it` }],
  };
}

export const tamperedLinkRules = {
  algNone: tamperedLinkRejected('alg-none', 'signed with "alg": "none"'),
  wrongKey: tamperedLinkRejected('wrong-key', 'signed with another key'),
  expired: tamperedLinkRejected('expired', 'past its "exp"', 'harness §mock-link'),
  notYetValid: tamperedLinkRejected('not-yet-valid', 'with an "nbf" in the future', 'RFC7519 §4.1'),
  wrongAudience: tamperedLinkRejected('wrong-audience', 'for another audience', 'RFC7519 §4.1'),
  wrongIssuer: tamperedLinkRejected('wrong-issuer', 'from another issuer', 'RFC7519 §4.1'),
  replay: tamperedLinkRejected('replay', 'used a second time', 'harness §mock-link'),
};

// ---- the landing response ----------------------------------------------------------------------------

export interface Landing {
  /** The headers of the page the link landed on, after the redirects a browser follows. */
  headers: Record<string, string>;
  /** Each response whose address carried the link's token, with its Referrer-Policy. */
  tokenResponses: readonly { url: string; referrerPolicy: string | undefined }[];
  /** Every cookie set on the way, with the origin that set it. */
  cookies: readonly { origin: string; line: string }[];
  hostOrigin: string;
}

export const landingReferrerPolicy: Rule<Landing> = {
  id: 'mock-link/landing/referrer-policy',
  owner: 'platform',
  field: 'referrer-policy',
  clause: 'harness §mock-link',
  level: 'MUST',
  requirement: 'each response whose address carries the link\'s token sends "Referrer-Policy: no-referrer"',
  impact: 'the token in the landing URL leaks to every site the app links to',
  must: { othersIn: 'the token in the landing URL reaches every site the app links to, in "Referer"' },
  // The header protects the document whose address holds the token; a page the link redirects on to, without it, has nothing to leak.
  check: ({ tokenResponses }) =>
    tokenResponses
      .filter(({ referrerPolicy }) => !/(^|,)\s*no-referrer\s*$/i.test(referrerPolicy ?? ''))
      .map(({ referrerPolicy }) => ({
        code: 'referrer-policy',
        message: `"referrer-policy" is ${JSON.stringify(referrerPolicy ?? '(missing)')} on the response whose address carries the token; send "no-referrer" there`,
      })),
};

export const landingFrameAncestors: Rule<Landing> = {
  id: 'mock-link/landing/frame-ancestors',
  owner: 'platform',
  field: 'content-security-policy',
  clause: 'CSP3 frame-ancestors',
  level: 'MUST',
  requirement: "the landing page's CSP allows the partner's host origin as a frame ancestor, and no wildcard",
  impact: "any site can frame the app (clickjacking), or the partner's own app cannot",
  must: { signOn: "without the partner's origin among the frame ancestors, the partner's app cannot show the platform" },
  // Other named origins are the platform's business (two host origins of one partner, say); a wildcard, or
  // a scheme alone, lets any site frame the app.
  check: ({ headers, hostOrigin }) => {
    const directive = policies(headers['content-security-policy'] ?? '')
      .map((policy) => sourcesOf(policy, 'frame-ancestors'))
      .find(Boolean);
    const sources = directive ?? [];
    const wildcard = sources.find((source) => source.includes('*') || /^[a-z][a-z0-9+.-]*:$/i.test(source));
    if (sources.includes(hostOrigin) && !wildcard) return [];
    const fix = wildcard ? `name the host origins instead of ${JSON.stringify(wildcard)}` : `add ${hostOrigin}`;
    return [
      {
        code: 'frame-ancestors',
        message: `frame-ancestors is ${directive ? JSON.stringify(sources.join(' ')) : 'missing'}; ${fix}: "frame-ancestors ${hostOrigin}"`,
      },
    ];
  },
};

/** Same site, as a browser tells it for SameSite: the scheme and the host (no registrable domain is guessed: another host is another site). */
const sameSite = (a: string, b: string) =>
  URL.canParse(a) && URL.canParse(b) && new URL(a).protocol === new URL(b).protocol && new URL(a).hostname === new URL(b).hostname;
const attributes = (line: string) =>
  line
    .split(';')
    .slice(1)
    .map((part) => part.trim().toLowerCase());

export const landingCookies: Rule<Landing> = {
  id: 'mock-link/landing/cookies',
  owner: 'platform',
  field: 'set-cookie',
  clause: 'RFC6265bis §4.1.2',
  level: 'MUST',
  requirement:
    'every cookie the landing sets on the way is one a browser keeps and sends inside the partner\'s page: "Secure; SameSite=None" where the app is on another site than the host',
  impact: "inside the partner's app the browser drops or withholds the session cookie, so the app loses the sign-in",
  must: { signOn: "inside the partner's app the browser drops or withholds the session cookie: the app loses the sign-in" },
  // By what the browser needs (RFC 6265bis §5.4.7, §5.5): a frame on another site than its host gets its cookie
  // only with SameSite=None, which a browser keeps only with Secure; on the host's own site, Lax is sent too.
  check: ({ cookies, hostOrigin }) =>
    cookies.flatMap(({ origin, line }) => {
      const given = attributes(line);
      const none = given.includes('samesite=none');
      const secure = given.includes('secure');
      const why =
        none && !secure
          ? 'a browser drops a SameSite=None cookie without Secure'
          : !sameSite(origin, hostOrigin) && !none
            ? `the app at ${origin} is on another site than the host ${hostOrigin}, where only SameSite=None is sent`
            : undefined;
      return why
        ? [
            {
              code: 'samesite',
              message: `the cookie "${line.split('=')[0]}" is set with "${line
                .split(';')
                .slice(1)
                .map((a) => a.trim())
                .join('; ')}", and ${why}; set it "Secure; SameSite=None"`,
            },
          ]
        : [];
    }),
};

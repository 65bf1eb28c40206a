import { authUrlDifference, codeIn, codeMarker, withoutCode } from './auth-url';
import { policies, sandboxOf, sourceListAllows, sourcesOf } from './csp';
import type { Rule } from './finding';
import { perLoad, unread, unseen, type Embedding } from './partner-app-embedding';
import { actsOnPlatformMessagesOnly, authErrorShown } from './partner-app-messages';
import { screenNames } from './sign-on-visit';

/**
 * Rules on the partner's own app, the page that embeds the platform: what only the partner can get wrong in
 * the browser. The probe lets the page embed the platform at several loads and records each; every rule
 * judges every load it applies to, and a problem names the loads it was seen at.
 * The loads are in partner-app-embedding.ts, the rules on the messages the page receives in partner-app-messages.ts.
 */

const template = (authUrl: string) => authUrl.replace(codeMarker, '<a fresh code>');

export const authUrlAsConfigured: Rule<Embedding> = {
  id: 'sign-on/partner-app/auth-url',
  owner: 'partner',
  field: 'partnerApp.page',
  clause: 'spec §5.2',
  level: 'MUST',
  requirement: "each load of the partner's page frames the platform's auth URL as configured: its origin, its path and every parameter of the template",
  impact: "the platform does not recognise the sign-on, or takes it for another partner's: users see an error, or nothing",
  must: { signOn: 'an auth URL the platform was not configured with does not sign the user on' },
  check: ({ loads, authUrl }) =>
    perLoad(loads, (load) => {
      const difference = authUrlDifference(load.src, authUrl);
      return (
        difference && `the page framed ${load.src ? JSON.stringify(withoutCode(load.src, authUrl)) : '(no src)'}: ${difference}; frame ${template(authUrl)}`
      );
    }),
};

export const embedsFreshCode: Rule<Embedding> = {
  id: 'sign-on/partner-app/fresh-code',
  owner: 'partner',
  field: 'partnerApp.page',
  clause: 'RFC6749 §4.1.2',
  level: 'MUST',
  requirement: "each load of the partner's page frames the platform's auth URL with a code of its own",
  impact: 'the second time a user opens payments, the platform refuses the spent code and shows its error screen',
  must: { signOn: 'a code used once is refused: every load after the first fails', spec: 'spec §5.2: the code is provided to the auth URL' },
  check: ({ loads, authUrl }) => {
    // Loads whose frame is not the auth URL have no code to compare: sign-on/partner-app/auth-url judges them.
    const firstAt = new Map<string, number>();
    return perLoad(loads, (load) => {
      const code = codeIn(load.src, authUrl);
      if (code === undefined) return undefined;
      const earlier = firstAt.get(code);
      if (earlier === undefined) firstAt.set(code, load.n);
      return earlier === undefined
        ? undefined
        : `the page framed the code of load ${earlier} again; mint a fresh code for every load (RFC 6749 §4.1.2: a code is used once)`;
    });
  },
};

/** What a frame's document is, in words, when it is not the platform's. */
function documentKind(url: string | undefined): string {
  if (url === undefined) return 'no document';
  if (url === 'about:srcdoc') return 'a document the page wrote itself (srcdoc)';
  if (url.startsWith('about:')) return `an empty document (${url})`;
  if (url.startsWith('blob:') || url.startsWith('data:')) return `a document the page made (${url.slice(0, url.indexOf(':') + 1)})`;
  if (url.startsWith('chrome-error:')) return 'an error page: the browser did not load what the frame asked for';
  return URL.canParse(url) ? `a document from ${new URL(url).origin}` : `a document at ${JSON.stringify(url)}`;
}

const originOf = (url: string | undefined) => (url && URL.canParse(url) ? new URL(url).origin : undefined);

export const platformInFrame: Rule<Embedding> = {
  id: 'sign-on/partner-app/platform-in-frame',
  owner: 'partner',
  field: 'partnerApp.frame',
  clause: 'spec §1',
  level: 'MUST',
  requirement: "at each load, the frame holds the platform's own document, loaded from one of its app origins through the auth URL the page framed",
  impact: 'users see something that looks like the platform but is not: they are never signed on to it, and whatever they type goes elsewhere',
  must: { signOn: "a look-alike of the platform's app signs no one on", othersIn: 'what a user types in a look-alike goes to whoever wrote it' },
  check: ({ loads, authUrl, appOrigins }) => [
    ...unread(loads),
    ...perLoad(
      loads.filter((load) => !load.frameUnread),
      ({ document, navigations = [], src, srcdoc }) => {
        const origin = originOf(document);
        const fromPlatform = origin !== undefined && appOrigins.includes(origin) && originOf(navigations.at(-1)) === origin;
        const throughAuthUrl =
          navigations.length > 0 && codeIn(navigations[0], authUrl) !== undefined && codeIn(navigations[0], authUrl) === codeIn(src, authUrl);
        if (fromPlatform && throughAuthUrl && !srcdoc) return undefined;
        const found = srcdoc && document !== 'about:srcdoc' ? `${documentKind(document)}, beside a srcdoc` : documentKind(document);
        const how = fromPlatform ? ', but not through the auth URL the page framed' : '';
        return `the frame held ${found}${how}, not the platform's app from ${appOrigins.join(' or ')}; frame the auth URL itself and let the platform's document load in it`;
      },
      loads.length,
    ),
  ],
};

export const partnerAppShown: Rule<Embedding> = {
  id: 'sign-on/partner-app/shown',
  owner: 'partner',
  field: 'partnerApp.page',
  clause: 'spec §1',
  level: 'MUST',
  requirement:
    "the embedded app reaches its home screen inside the partner's page (after the collection screen, where the platform asks for missing data), and tells the page so",
  impact: "users who open payments in the partner's app do not reach them",
  must: { signOn: 'the user does not reach the app', spec: "spec §1: the web app is embedded in the partner's application" },
  check: ({ loads }) =>
    perLoad(
      loads.filter((load) => load.purpose === 'sign-on'),
      ({ screen = 'none', text = '', ready }) => {
        if (screen !== 'app')
          return `the frame in the partner's page showed ${screenNames[screen]}${text ? ` (${JSON.stringify(text.replace(/\s+/g, ' ').trim().slice(0, 200))})` : ''}, not the app`;
        return ready === false ? "the app showed, but the platform's ready message never reached the page from its app origin" : undefined;
      },
      loads.length,
    ),
};

export const cspAdmitsPlatform: Rule<Embedding> = {
  id: 'sign-on/partner-app/csp',
  owner: 'partner',
  field: 'content-security-policy',
  clause: 'CSP3 frame-src',
  level: 'MUST',
  requirement:
    "the partner's page lets its frame load the platform's auth URL and app origins (frame-src, child-src or default-src, paths included), in its header and <meta> policies",
  impact: "the browser refuses to load the platform in the partner's page: users see an empty frame",
  must: { signOn: 'the browser refuses to load the platform in the frame' },
  check: ({ page, loads, authUrl, appOrigins }) => [
    ...unseen(loads),
    ...perLoad(loads, ({ csp, metaCsp = [] }) => {
      const given = [
        ...policies(csp ?? '').map((policy) => ({ policy, where: 'CSP' })),
        ...metaCsp.flatMap((meta) => policies(meta).map((policy) => ({ policy, where: '<meta> CSP' }))),
      ];
      // The framed address is loaded as it is, path and all; the app origins are reached by redirects, where paths do not
      // count. It is the auth URL the template makes, whether or not this load's frame was seen to ask for it (auth-url
      // judges what it asked for): one policy, one message, at every load.
      const framed = [{ url: authUrl.replace(codeMarker, 'code'), shown: authUrl.replace(codeMarker, '<code>'), redirected: false }];
      const targets = [...framed, ...appOrigins.map((origin) => ({ url: origin, shown: origin, redirected: true }))];
      const problems = given.flatMap(({ policy, where }) => {
        // A frame's sources: frame-src, else child-src, else default-src; none of them restricts nothing.
        const sources = sourcesOf(policy, 'frame-src', 'child-src', 'default-src');
        const refused = sources ? targets.filter(({ url, redirected }) => !sourceListAllows(sources, url, page, { redirected })) : [];
        const origins = [...new Set(refused.map(({ url }) => new URL(url).origin))];
        return refused.length === 0
          ? []
          : [
              `the page's ${where} lets frames load ${JSON.stringify(sources!.join(' '))}, which leaves out ${refused.map((target) => target.shown).join(', ')}; add ${origins.join(' ')} to its "frame-src"`,
            ];
      });
      return problems.length > 0 ? problems.join('; ') : undefined;
    }),
  ],
};

/** What the embedded app needs of a sandboxed frame: its scripts, its forms, and its own origin (its storage, its API). */
const neededTokens = ['allow-scripts', 'allow-same-origin', 'allow-forms'];

export const frameSandboxAllowsApp: Rule<Embedding> = {
  id: 'sign-on/partner-app/iframe-sandbox',
  owner: 'partner',
  field: 'sandbox',
  clause: 'HTML iframe sandbox',
  level: 'MUST',
  requirement:
    "a sandbox on the frame, or in the page's CSP (which its frames inherit), still lets the app run its scripts, send its forms and keep its own origin",
  impact: 'the embedded app cannot run, send the collection form or keep the user signed in',
  must: { signOn: 'a sandbox without these tokens stops the app from running or sending its forms' },
  check: ({ loads }) => [
    ...unseen(loads),
    ...perLoad(loads, ({ sandbox, csp }) => {
      const sandboxes = [
        ...(sandbox === null || sandbox === undefined
          ? []
          : [
              {
                tokens: sandbox.toLowerCase().split(/\s+/),
                where: `the frame's sandbox attribute is ${JSON.stringify(sandbox)}`,
                fix: 'add them, or drop the sandbox attribute',
              },
            ]),
        ...policies(csp ?? '').flatMap((policy) => {
          const tokens = sandboxOf(policy);
          return tokens
            ? [
                {
                  tokens,
                  where: `the page's CSP has ${JSON.stringify(['sandbox', ...tokens].join(' '))}, which its frames inherit`,
                  fix: 'add them to the directive, or drop it',
                },
              ]
            : [];
        }),
      ];
      const problems = sandboxes.flatMap(({ tokens, where, fix }) => {
        const missing = neededTokens.filter((token) => !tokens.includes(token));
        return missing.length === 0 ? [] : [`${where}, without ${missing.join(', ')}; ${fix}`];
      });
      return problems.length > 0 ? problems.join('; ') : undefined;
    }),
  ],
};

/** In the order a cause comes before its consequences: the frame's address, the page's policies, then what the frame held and showed. */
export const partnerAppRules = [
  authUrlAsConfigured,
  cspAdmitsPlatform,
  frameSandboxAllowsApp,
  embedsFreshCode,
  platformInFrame,
  partnerAppShown,
  authErrorShown,
  actsOnPlatformMessagesOnly,
];

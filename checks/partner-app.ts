import { policies, sourceListAllows, sourcesOf } from './csp';
import type { Rule } from './finding';
import { screenNames, type Screen } from './sign-on';

/**
 * Rules on the partner's own app, the page that embeds the platform: what only the partner can get wrong in
 * the browser. The probe lets the page embed the platform, loads it twice, and reads what it did.
 */

/** One load of the partner's page: the frame's address and attributes, and the page's CSP. */
export interface EmbedLoad {
  /** The frame's `src`, as the page wrote it. */
  src: string | undefined;
  sandbox: string | null;
  /** The page's Content-Security-Policy header. */
  csp: string | undefined;
  /** Its <meta http-equiv="Content-Security-Policy"> elements' policies, enforced beside the header's. */
  metaCsp?: readonly string[];
}

export interface Embedding {
  /** The partner's page, the CSP's 'self'. */
  page: string;
  loads: readonly EmbedLoad[];
  /** The platform's auth URL with `codeMarker` where the code goes: where the frame must point. */
  authUrl: string;
  /** The origins the platform's app is served from. */
  appOrigins: readonly string[];
}

/** Stands for the code in an auth URL made by the profile's template. */
export const codeMarker = 'CERTIFY-CODE-MARKER';

/** Where an auth URL made with `codeMarker` holds the code: a query parameter, or the path between `before` and `after`. */
function codeSlot(authUrl: URL): { param: string } | { before: string; after: string } | undefined {
  const param = [...authUrl.searchParams].find(([, value]) => value === codeMarker)?.[0];
  if (param !== undefined) return { param };
  const [before = '', after] = authUrl.pathname.split(codeMarker);
  return after === undefined ? undefined : { before, after };
}

/** The code in a framed address, read where the auth URL template puts it (a query parameter or a path segment); undefined when it is not the auth URL. */
export function codeIn(src: string | undefined, authUrl: string): string | undefined {
  if (!src || !URL.canParse(src) || !URL.canParse(authUrl)) return undefined;
  const [framed, wanted] = [new URL(src), new URL(authUrl)];
  const slot = codeSlot(wanted);
  if (framed.origin !== wanted.origin || !slot) return undefined;
  if ('param' in slot) return framed.pathname === wanted.pathname ? framed.searchParams.get(slot.param) || undefined : undefined;
  const { before, after } = slot;
  const path = framed.pathname;
  return path.length > before.length + after.length && path.startsWith(before) && path.endsWith(after) ? path.slice(before.length, path.length - after.length) : undefined;
}

/** `src` with `code` in place of the code the auth URL template puts in it; undefined when it is not the auth URL. */
export function withCode(src: string, authUrl: string, code: string): string | undefined {
  if (codeIn(src, authUrl) === undefined) return undefined;
  const framed = new URL(src);
  const slot = codeSlot(new URL(authUrl))!;
  if ('param' in slot) framed.searchParams.set(slot.param, code);
  else framed.pathname = slot.before + encodeURIComponent(code) + slot.after;
  return framed.href;
}

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
    const wrong = loads.find((load) => codeIn(load.src, authUrl) === undefined);
    if (wrong) return [{ message: `the page framed ${JSON.stringify(wrong.src ?? '(no src)')}; frame ${authUrl.replace(codeMarker, '<a fresh code>')}` }];
    const codes = loads.map((load) => codeIn(load.src, authUrl));
    return new Set(codes).size === codes.length ? [] : [{ message: `the page framed the same code at ${codes.length} loads; mint a fresh code for every load (RFC 6749 §4.1.2: a code is used once)` }];
  },
};

export const partnerAppShown: Rule<{ screen: Screen; text: string }> = {
  id: 'sign-on/partner-app/shown',
  owner: 'partner',
  field: 'partnerApp.page',
  clause: 'spec §1',
  level: 'MUST',
  requirement: "the embedded app reaches its home screen inside the partner's page",
  impact: "users who open payments in the partner's app do not reach them",
  must: { signOn: 'the user does not reach the app', spec: 'spec §1: the web app is embedded in the partner\'s application' },
  check: ({ screen, text }) => (screen === 'app' ? [] : [{ message: `the frame in the partner's page showed ${screenNames[screen]}${text ? ` (${JSON.stringify(text.replace(/\s+/g, ' ').slice(0, 200))})` : ''}, not the app` }]),
};

export const cspAdmitsPlatform: Rule<Embedding> = {
  id: 'sign-on/partner-app/csp',
  owner: 'partner',
  field: 'content-security-policy',
  clause: 'CSP3 frame-src',
  level: 'MUST',
  requirement: "the partner's page lets its frame load the platform's app origins (frame-src, child-src or default-src)",
  impact: "the browser refuses to load the platform in the partner's page: users see an empty frame",
  must: { signOn: 'the browser refuses to load the platform in the frame' },
  check: ({ page, loads, appOrigins }) => {
    const given = [...policies(loads[0]?.csp ?? '').map((policy) => ({ policy, where: 'CSP' })), ...(loads[0]?.metaCsp ?? []).flatMap((meta) => policies(meta).map((policy) => ({ policy, where: '<meta> CSP' })))];
    return given.flatMap(({ policy, where }) => {
      // A frame's sources: frame-src, else child-src, else default-src; none of them restricts nothing.
      const sources = sourcesOf(policy, 'frame-src', 'child-src', 'default-src');
      const refused = sources ? appOrigins.filter((origin) => !sourceListAllows(sources, origin, page)) : [];
      return refused.length === 0 ? [] : [{ message: `the page's ${where} lets frames load ${JSON.stringify(sources!.join(' '))}, which leaves out ${refused.join(', ')}; add ${refused.length > 1 ? 'them' : 'it'} to its "frame-src"` }];
    });
  },
};

/** What the embedded app needs of a sandboxed frame: its scripts, its forms, and its own origin (its storage, its API). */
const neededTokens = ['allow-scripts', 'allow-same-origin', 'allow-forms'];

export const frameSandboxAllowsApp: Rule<Embedding> = {
  id: 'sign-on/partner-app/iframe-sandbox',
  owner: 'partner',
  field: 'sandbox',
  clause: 'HTML iframe sandbox',
  level: 'MUST',
  requirement: 'a sandboxed frame still lets the app run its scripts, send its forms and keep its own origin',
  impact: 'the embedded app cannot run, send the collection form or keep the user signed in',
  must: { signOn: 'a sandbox without these tokens stops the app from running or sending its forms' },
  check: ({ loads }) => {
    const sandbox = loads[0]?.sandbox;
    if (sandbox === null || sandbox === undefined) return [];
    const tokens = sandbox.toLowerCase().split(/\s+/);
    const missing = neededTokens.filter((token) => !tokens.includes(token));
    return missing.length === 0 ? [] : [{ message: `the frame's sandbox is ${JSON.stringify(sandbox)}, without ${missing.join(', ')}; add them, or drop the sandbox attribute` }];
  },
};

export const actsOnPlatformMessagesOnly: Rule<{ reacted: boolean; foreignOrigin: string }> = {
  id: 'sign-on/partner-app/message-origin',
  owner: 'partner',
  field: 'event.origin',
  clause: 'HTML postMessage',
  level: 'MUST',
  requirement: "the partner's page acts only on messages from the platform's origins",
  impact: 'any page that can post to the partner\'s window (one it frames, or one that opened it) makes it show a sign-on state of its choosing',
  must: { othersIn: "any page that can post to the partner's window drives its sign-on state" },
  check: ({ reacted, foreignOrigin }) => (reacted ? [{ message: `a message posted from ${foreignOrigin} made the page show its sign-on error; check event.origin against the platform's origin before acting on a message` }] : []),
};

export const authErrorShown: Rule<{ shown: boolean; message: unknown; locator: string; waitedMs: number }> = {
  id: 'sign-on/partner-app/auth-error-shown',
  owner: 'partner',
  field: 'partnerApp.authError',
  clause: 'spec §7.1',
  level: 'MUST',
  requirement: "when the platform posts its authentication error to the partner's page, the page shows the user that sign-on failed",
  impact: 'a user whose sign-on failed looks at an empty or stuck frame, with nothing to tell them why or what to do',
  must: { spec: 'spec §7.1: the service posts an authentication error message to the host application' },
  check: ({ shown, message, locator, waitedMs }) =>
    shown ? [] : [{ message: `the platform posted ${JSON.stringify(message)} to the page, and ${locator} did not show within ${waitedMs / 1000} s; show the user the failure when the platform's error message arrives` }],
};

export const partnerAppRules = [embedsFreshCode, partnerAppShown, cspAdmitsPlatform, frameSandboxAllowsApp, authErrorShown, actsOnPlatformMessagesOnly];

import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, scriptJson } from '../../html/template';
import { cookieOf } from '../cookies';
import { equalSecrets } from '../secrets';
import type { Store } from './store';
import { referenceClient } from './client';
import { isUserKey } from './users';

/**
 * The reference partner's own app: a login, then a payments page that embeds the platform in an iframe with
 * a fresh code, as a partner's app does (spec §1, §5.2). The page shows "Payments ready" when the platform
 * says the app is shown, and the reason when it says sign-on failed, acting only on messages from the
 * platform's origin. Its faults each break one thing a partner's page can get wrong (`/faults/app-…/app/…`).
 */
export const appFaults = {
  'app-reuses-code': 'embeds the same code at every load of the page, so the second sign-on is refused',
  'app-code-for-incomplete-user':
    'embeds a code minted for another user than the one signed in, one without an e-mail address, so the platform shows its error screen (spec §7.2) and the app does not open',
  'app-csp-blocks-platform': 'sends "frame-src \'self\'" in its CSP, so the browser refuses to load the platform in the frame',
  'app-meta-csp-blocks-platform':
    'sets "frame-src \'self\'" in a <meta> CSP (its header allows the platform), so the browser refuses to load the platform in the frame',
  'app-sandbox-breaks': 'frames the platform with sandbox="allow-scripts", without allow-same-origin and allow-forms',
  'app-ignores-auth-error': "does not act on the platform's error message: a user whose sign-on failed sees only the frame",
  'app-trusts-any-origin': "acts on a sign-on message from any origin, not only the platform's",
  'app-lookalike-frame':
    "from the second load of the page on, fills its frame from srcdoc with a look-alike of the app's home screen, its src still the auth URL",
  'app-origin-prefix': "checks a message's origin with startsWith, so the platform's origin with a suffix (another port, another host) passes",
  'app-trusts-opener-and-frames': "checks the origin only of messages from other windows: its opener's and its frames' are trusted whatever their origin",
  'app-csp-sandbox-without-forms':
    'sends "sandbox allow-scripts allow-same-origin allow-popups" in its CSP, which its frame inherits: the app cannot send forms',
  'app-sandbox-from-second-load': 'frames the platform with sandbox="allow-scripts" from the second load of the page on',
  'app-reuses-code-from-third-load': 'embeds a fresh code at the first two loads of the page, then the same code at every load',
  'app-frames-other-partner': "frames the auth URL with another partner's name where the platform's configuration has its own",
} as const satisfies Record<string, string>;
export type AppFault = keyof typeof appFaults;
export const appFaultNames = Object.keys(appFaults) as AppFault[];
export const isAppFault = (name: string): name is AppFault => Object.hasOwn(appFaults, name);

/** What the payments page embeds: a platform's auth URL (the code goes in `code`) and the names of its messages. */
export interface Embeds {
  authUrl: string;
  /** The partner's name in the auth URL (replaced by another partner's by app-frames-other-partner). */
  partnerName: string;
  messages: { typeKey: string; ready: string; error: string; reasonKey: string };
}

/** The emulator, under a partner name of its own (its host origin is the app's). */
export const emulatorEmbeds = (authUrl = 'http://127.0.0.1:4401/reference-app/auth'): Embeds => ({
  authUrl,
  partnerName: 'reference-app',
  messages: { typeKey: 'type', ready: 'NAVIGATED_TO_TARGET', error: 'AUTHENTICATION_ERROR', reasonKey: 'reason' },
});
/** Ledgerly (sandbox/ledgerly), which allows the app's origin as a host: served under `/ledgerly/app/…`. */
export const ledgerlyEmbeds = (appOrigin: string): Embeds => ({
  authUrl: `${appOrigin}/sso/reference`,
  partnerName: 'reference',
  messages: { typeKey: 'event', ready: 'app.ready', error: 'auth.failed', reasonKey: 'code' },
});
const sessionCookie = 'reference_app_session';

function loginPage(action: string, message = '') {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reference partner – sign in</title></head>
<body><main><h1>Reference partner</h1>${message && html`<p role="alert">${message}</p>`}
<form method="post" action="${action}"><label>User <input id="username" name="username"></label>
<label>Password <input id="password" name="password" type="password"></label><button type="submit">Sign in</button></form></main></body></html>`.text;
}

/** How the page's listener decides whom to heed: exactly the platform's origin, or one of the faults' ways. */
type Trust = 'exact' | 'any' | 'prefix' | 'opener-and-frames';

function ignores(trust: Trust, platformOrigin: string) {
  const origin = scriptJson(platformOrigin);
  if (trust === 'any') return html`false`;
  if (trust === 'prefix') return html`!event.origin.startsWith(${origin})`;
  if (trust === 'opener-and-frames')
    return html`event.source !== window.opener && !Array.from({ length: window.length }, (_, i) => window[i]).includes(event.source) && event.origin !== ${origin}`;
  return html`event.origin !== ${origin}`;
}

interface PageOptions {
  sandbox?: string;
  trust: Trust;
  ignoresErrors: boolean;
  metaBlocks: boolean;
  /** A look-alike of the app's home screen, written into the frame by srcdoc. */
  lookalike: boolean;
}

function paymentsPage(src: string, { messages }: Embeds, nonce: string, { sandbox, trust, ignoresErrors, metaBlocks, lookalike }: PageOptions) {
  const onError = ignoresErrors
    ? html``
    : html`if (type === ${scriptJson(messages.error)}) { const problem = document.getElementById('sign-in-problem'); problem.hidden = false; problem.textContent = 'Payments could not sign you in: ' + data[${scriptJson(messages.reasonKey)}]; }`;
  const script = html`addEventListener('message', (event) => {
  if (${ignores(trust, new URL(src).origin)}) return;
  const data = event.data || {};
  const type = data[${scriptJson(messages.typeKey)}];
  if (type === ${scriptJson(messages.ready)}) { const status = document.getElementById('status'); status.textContent = 'Payments ready'; status.dataset.ready = ''; }
  ${onError}
});`;
  const fake = html`<!doctype html><main data-screen="app"><h1>Payments</h1><p>Ada Lovelace, Analytical Engines LLC</p></main>`.text;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reference partner – payments</title>${metaBlocks ? html`<meta http-equiv="Content-Security-Policy" content="frame-src 'self'">` : ''}</head>
<body><h1>Payments</h1><p id="status">Loading payments…</p><p id="sign-in-problem" role="alert" hidden></p>
<iframe id="payments" title="Payments" src="${src}" style="width:100%;height:34rem" ${sandbox ? html`sandbox="${sandbox}"` : ''} ${lookalike ? html`srcdoc="${fake}"` : ''}></iframe>
<script nonce="${nonce}">${script}</script></body></html>`.text;
}

/** The app's routes, under the partner's routes (so under `/faults/:faults` too). */
export function registerApp(
  app: FastifyInstance,
  {
    store,
    password,
    embeds,
    faultsOf,
    sessionId,
  }: { store: Store; password: string; embeds: Embeds; faultsOf: (request: FastifyRequest) => ReadonlySet<string>; sessionId: () => string },
) {
  const sessions = new Map<string, { user: string; lastCode?: string; loads: number }>();
  const base = (request: FastifyRequest) => request.url.slice(0, request.url.indexOf('/app/'));
  const sessionOf = (request: FastifyRequest) => {
    const id = cookieOf(request, sessionCookie);
    return id === undefined ? undefined : sessions.get(id);
  };
  app.get('/app/login', async (request, reply) => reply.type('text/html; charset=utf-8').send(loginPage(`${base(request)}/app/login`)));
  app.post('/app/login', async (request, reply: FastifyReply) => {
    const { username = '', password: typed = '' } = (request.body ?? {}) as Record<string, string>;
    if (!isUserKey(username) || !equalSecrets(typed, password))
      return reply
        .code(401)
        .type('text/html; charset=utf-8')
        .send(loginPage(`${base(request)}/app/login`, 'Unknown user or wrong password.'));
    const id = sessionId();
    sessions.set(id, { user: username, loads: 0 });
    return reply.header('set-cookie', `${sessionCookie}=${id}; Path=/; HttpOnly; SameSite=Lax`).redirect(`${base(request)}/app/payments`, 303);
  });
  app.get('/app/payments', async (request, reply) => {
    const session = sessionOf(request);
    if (!session) return reply.redirect(`${base(request)}/app/login`, 303);
    const faults = faultsOf(request);
    session.loads += 1;
    const user = faults.has('app-code-for-incomplete-user') ? 'no-email' : session.user;
    const reuses = (faults.has('app-reuses-code') && session.loads >= 2) || (faults.has('app-reuses-code-from-third-load') && session.loads >= 3);
    const code = reuses && session.lastCode ? session.lastCode : store.mintCode(isUserKey(user) ? user : 'complete', referenceClient.id);
    session.lastCode = code;
    const target = new URL(faults.has('app-frames-other-partner') ? embeds.authUrl.replace(embeds.partnerName, 'another-partner') : embeds.authUrl);
    target.searchParams.set('code', code);
    const nonce = randomBytes(16).toString('base64');
    const frameSrc = faults.has('app-csp-blocks-platform') ? "'self'" : target.origin;
    const sandboxed = faults.has('app-csp-sandbox-without-forms') ? '; sandbox allow-scripts allow-same-origin allow-popups' : '';
    const options: PageOptions = {
      ...(faults.has('app-sandbox-breaks') || (faults.has('app-sandbox-from-second-load') && session.loads >= 2) ? { sandbox: 'allow-scripts' } : {}),
      trust: faults.has('app-trusts-any-origin')
        ? 'any'
        : faults.has('app-origin-prefix')
          ? 'prefix'
          : faults.has('app-trusts-opener-and-frames')
            ? 'opener-and-frames'
            : 'exact',
      ignoresErrors: faults.has('app-ignores-auth-error'),
      metaBlocks: faults.has('app-meta-csp-blocks-platform'),
      lookalike: faults.has('app-lookalike-frame') && session.loads >= 2,
    };
    return reply
      .header('content-security-policy', `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; frame-src ${frameSrc}${sandboxed}`)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(paymentsPage(target.href, embeds, nonce, options));
  });
}

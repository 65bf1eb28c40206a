import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, scriptJson } from '../../shared/html';
import { cookieOf } from '../cookies';
import { equalSecrets } from '../secrets';
import type { Store } from './store';
import { referenceClient } from './token-endpoint';
import { isUserKey } from './users';

/**
 * The reference partner's own app: a login, then a payments page that embeds the platform in an iframe with
 * a fresh code, as a partner's app does (spec §1, §5.2). The page shows "Payments ready" when the platform
 * says the app is shown, and the reason when it says sign-on failed, acting only on messages from the
 * platform's origin. Its faults each break one thing a partner's page can get wrong (`/faults/app-…/app/…`).
 */
export const appFaults = {
  'app-reuses-code': 'embeds the same code at every load of the page, so the second sign-on is refused',
  'app-code-for-incomplete-user': 'embeds a code minted for another user than the one signed in, one without the Yes* fields, so the app does not open',
  'app-csp-blocks-platform': 'sends "frame-src \'self\'" in its CSP, so the browser refuses to load the platform in the frame',
  'app-meta-csp-blocks-platform': 'sets "frame-src \'self\'" in a <meta> CSP (its header allows the platform), so the browser refuses to load the platform in the frame',
  'app-sandbox-breaks': 'frames the platform with sandbox="allow-scripts", without allow-same-origin and allow-forms',
  'app-ignores-auth-error': "does not act on the platform's error message: a user whose sign-on failed sees only the frame",
  'app-trusts-any-origin': 'acts on a sign-on message from any origin, not only the platform\'s',
} as const satisfies Record<string, string>;
export type AppFault = keyof typeof appFaults;
export const appFaultNames = Object.keys(appFaults) as AppFault[];
export const isAppFault = (name: string): name is AppFault => Object.hasOwn(appFaults, name);

/** What the payments page embeds: a platform's auth URL (the code goes in `code`) and the names of its messages. */
export interface Embeds {
  authUrl: string;
  messages: { typeKey: string; ready: string; error: string; reasonKey: string };
}

/** The emulator, under a partner name of its own (its host origin is the app's). */
export const emulatorEmbeds = (authUrl = 'http://127.0.0.1:4401/reference-app/auth'): Embeds => ({ authUrl, messages: { typeKey: 'type', ready: 'NAVIGATED_TO_TARGET', error: 'AUTHENTICATION_ERROR', reasonKey: 'reason' } });
/** Ledgerly (sandbox/ledgerly), which allows the app's origin as a host: served under `/ledgerly/app/…`. */
export const ledgerlyEmbeds = (appOrigin: string): Embeds => ({ authUrl: `${appOrigin}/sso/reference`, messages: { typeKey: 'event', ready: 'app.ready', error: 'auth.failed', reasonKey: 'code' } });
const sessionCookie = 'reference_app_session';

function loginPage(action: string, message = '') {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reference partner – sign in</title></head>
<body><main><h1>Reference partner</h1>${message && html`<p role="alert">${message}</p>`}
<form method="post" action="${action}"><label>User <input id="username" name="username"></label>
<label>Password <input id="password" name="password" type="password"></label><button type="submit">Sign in</button></form></main></body></html>`.text;
}

function paymentsPage(src: string, { messages }: Embeds, nonce: string, { sandbox, trustsAnyOrigin, ignoresErrors, metaBlocks }: { sandbox: boolean; trustsAnyOrigin: boolean; ignoresErrors: boolean; metaBlocks: boolean }) {
  const ignores = trustsAnyOrigin ? html`false` : html`event.origin !== ${scriptJson(new URL(src).origin)}`;
  const onError = ignoresErrors
    ? html``
    : html`if (type === ${scriptJson(messages.error)}) { const problem = document.getElementById('sign-in-problem'); problem.hidden = false; problem.textContent = 'Payments could not sign you in: ' + data[${scriptJson(messages.reasonKey)}]; }`;
  const script = html`addEventListener('message', (event) => {
  if (${ignores}) return;
  const data = event.data || {};
  const type = data[${scriptJson(messages.typeKey)}];
  if (type === ${scriptJson(messages.ready)}) { const status = document.getElementById('status'); status.textContent = 'Payments ready'; status.dataset.ready = ''; }
  ${onError}
});`;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reference partner – payments</title>${metaBlocks ? html`<meta http-equiv="Content-Security-Policy" content="frame-src 'self'">` : ''}</head>
<body><h1>Payments</h1><p id="status">Loading payments…</p><p id="sign-in-problem" role="alert" hidden></p>
<iframe id="payments" title="Payments" src="${src}" style="width:100%;height:34rem" ${sandbox ? html`sandbox="allow-scripts"` : ''}></iframe>
<script nonce="${nonce}">${script}</script></body></html>`.text;
}

/** The app's routes, under the partner's routes (so under `/faults/:faults` too). */
export function registerApp(app: FastifyInstance, { store, password, embeds, faultsOf, sessionId }: { store: Store; password: string; embeds: Embeds; faultsOf: (request: FastifyRequest) => ReadonlySet<string>; sessionId: () => string }) {
  const sessions = new Map<string, { user: string; lastCode?: string }>();
  const base = (request: FastifyRequest) => request.url.slice(0, request.url.indexOf('/app/'));
  const sessionOf = (request: FastifyRequest) => {
    const id = cookieOf(request, sessionCookie);
    return id === undefined ? undefined : sessions.get(id);
  };
  app.get('/app/login', async (request, reply) => reply.type('text/html; charset=utf-8').send(loginPage(`${base(request)}/app/login`)));
  app.post('/app/login', async (request, reply: FastifyReply) => {
    const { username = '', password: typed = '' } = (request.body ?? {}) as Record<string, string>;
    if (!isUserKey(username) || !equalSecrets(typed, password)) return reply.code(401).type('text/html; charset=utf-8').send(loginPage(`${base(request)}/app/login`, 'Unknown user or wrong password.'));
    const id = sessionId();
    sessions.set(id, { user: username });
    return reply.header('set-cookie', `${sessionCookie}=${id}; Path=/; HttpOnly; SameSite=Lax`).redirect(`${base(request)}/app/payments`, 303);
  });
  app.get('/app/payments', async (request, reply) => {
    const session = sessionOf(request);
    if (!session) return reply.redirect(`${base(request)}/app/login`, 303);
    const faults = faultsOf(request);
    const user = faults.has('app-code-for-incomplete-user') ? 'minimal' : session.user;
    const code = faults.has('app-reuses-code') && session.lastCode ? session.lastCode : store.mintCode(isUserKey(user) ? user : 'complete', referenceClient.id);
    session.lastCode = code;
    const target = new URL(embeds.authUrl);
    target.searchParams.set('code', code);
    const nonce = randomBytes(16).toString('base64');
    const frameSrc = faults.has('app-csp-blocks-platform') ? "'self'" : target.origin;
    return reply
      .header('content-security-policy', `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; frame-src ${frameSrc}`)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(paymentsPage(target.href, embeds, nonce, { sandbox: faults.has('app-sandbox-breaks'), trustsAnyOrigin: faults.has('app-trusts-any-origin'), ignoresErrors: faults.has('app-ignores-auth-error'), metaBlocks: faults.has('app-meta-csp-blocks-platform') }));
  });
}

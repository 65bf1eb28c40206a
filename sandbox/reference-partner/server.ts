import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerOptions as HttpsOptions } from 'node:https';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { html } from '../../html/template';
import { faultNamesOf } from '../fault-path';
import { equalSecrets } from '../secrets';
import { faultCatalogue } from './faults';
import { hostileFaults, leakFaults } from './hostile';
import { createStore, randomOpaque, type Store } from './store';
import { isUserKey, users } from './users';
import { keyProblemsOf } from '../../checks/evidence';
import { faultsOf, isKnownFault, oauthError, stringParams, tokenEndpoint, tokenEndpointGet, type TokenEndpointOptions } from './token-endpoint';
import { referenceClient } from './client';
import { bearerResource } from './resources';
import { ledgerlyOrigins } from '../ledgerly/config';
import { appFaults, emulatorEmbeds, ledgerlyEmbeds, registerApp, type Embeds } from './app';

/** The password of every test user on the login page. */
export const loginPassword = 'sandbox-password';
export const defaultPlatformAuthUrl = 'http://127.0.0.1:4401/reference/auth';

export interface ReferencePartnerOptions {
  /** Milliseconds since the epoch; injected so tests can age codes and tokens. */
  now?: () => number;
  /** Where the login page sends the user, with `?code=`. */
  platformAuthUrl?: string;
  /** The emulator's auth URL the app's payments page embeds (sandbox/reference-partner/app.ts). */
  appAuthUrl?: string;
  /** Ledgerly's app origin, which the payments page under /ledgerly embeds. */
  ledgerlyAppOrigin?: string;
  /** Planted by the redaction self-test, so it knows every secret the run handles. */
  clientSecret?: string;
  /** The login page's password for every test user; planted by the redaction self-test too. */
  loginPassword?: string;
  /** Makes every code, token and app session id; random by default. */
  opaque?: () => string;
  /** Added before every answer but /health: a partner far away, for the bench's latency sensitivity. */
  latencyMs?: number;
  /** How long a code may wait before its exchange; 10 minutes (RFC 6749 §4.1.2) unless a test needs it short. */
  codeLifetimeMs?: number;
  /** Served over TLS with these options (key, cert, protocol versions), for the TLS self-tests. */
  https?: HttpsOptions;
  /** Makes the refresh token issued with an access token (`refresh-<token>` by default); planted by the masking self-tests. */
  refreshToken?: (accessToken: string) => string;
  /** Every test user's "user.dateOfBirth", for the masking self-tests to look for. */
  dateOfBirth?: string;
}

function loginPage(message = '') {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reference partner – sign in</title></head>
<body><main><h1>Reference partner</h1><p>Sign in to open payments.</p>
${message && html`<p role="alert">${message}</p>`}
<form method="post"><label>User <input id="username" name="username" autocomplete="username"></label>
<label>Password <input id="password" name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form></main></body></html>`.text;
}

/** Every partner-facing route; registered once plainly and once under `/faults/:faults`. */
function partnerRoutes({
  store,
  platformAuthUrl,
  embeds,
  now,
  token,
  password,
  sessionId,
  dateOfBirth,
}: {
  store: Store;
  platformAuthUrl: string;
  embeds: { emulator: Embeds; ledgerly: Embeds };
  now: () => number;
  token: TokenEndpointOptions;
  password: string;
  dateOfBirth: string | undefined;
  sessionId: () => string;
}) {
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      const unknown = faultNamesOf(request).filter((name) => !isKnownFault(name));
      if (unknown.length > 0) {
        return reply
          .code(404)
          .send({ error: 'unknown_fault', error_description: `unknown fault ${unknown.map((n) => `"${n}"`).join(', ')}; GET /faults lists them` });
      }
    });
    app.post('/oauth/token', tokenEndpoint(store, token));
    app.get('/oauth/token', tokenEndpointGet(store, token));
    // The "echoes-issued-tokens" fault: every refusal of the token endpoint lists the tokens issued so far.
    app.addHook('onSend', async (request, reply, payload) => {
      if (
        reply.statusCode < 400 ||
        !request.url.split('?')[0]!.endsWith('/oauth/token') ||
        !faultsOf(request).has('echoes-issued-tokens') ||
        typeof payload !== 'string'
      )
        return payload;
      try {
        const body = JSON.parse(payload) as { error_description?: string };
        return JSON.stringify({ ...body, error_description: `${body.error_description ?? ''} (issued so far: ${store.issuedTokens().join(' ')})` });
      } catch {
        return payload;
      }
    });
    app.get('/api/account', bearerResource(store, 'account-info', now, dateOfBirth));
    app.get('/api/funding-sources', bearerResource(store, 'funding-sources', now));
    // A partner's staging test hook: a fresh code for a user, bound to the reference client unless client=none.
    app.post('/test-hooks/codes', async (request, reply) => {
      const { user = 'complete', client = referenceClient.id, 'funding-sources': funding } = request.query as Record<string, string | undefined>;
      if (!isUserKey(user))
        return reply.code(400).send({ error: 'invalid_request', error_description: `unknown user "${user}"; use one of ${Object.keys(users).join(', ')}` });
      if (client !== 'none' && client !== referenceClient.id)
        return reply.code(400).send({ error: 'invalid_request', error_description: `unknown client "${client}"` });
      if (funding !== undefined && funding !== 'without-last')
        return reply.code(400).send({ error: 'invalid_request', error_description: `unknown funding-sources "${funding}"; use without-last` });
      // funding-sources=without-last: the user's funding sources list one fewer, as after the user closed an account (spec §4.2).
      return { code: store.mintCode(user, client === 'none' ? null : client, { withoutLastFundingSource: funding === 'without-last' }) };
    });
    registerApp(app, { store, password, embeds: embeds.emulator, faultsOf, sessionId });
    await app.register(async (ledgerlyApp) => registerApp(ledgerlyApp, { store, password, embeds: embeds.ledgerly, faultsOf, sessionId }), {
      prefix: '/ledgerly',
    });
    app.get('/login', async (_request, reply) => reply.type('text/html; charset=utf-8').send(loginPage()));
    app.post('/login', async (request, reply) => {
      const { username = '', password: typed = '' } = stringParams(request.body) ?? {};
      if (!isUserKey(username) || !equalSecrets(typed, password)) {
        return reply.code(401).type('text/html; charset=utf-8').send(loginPage('Unknown user or wrong password.'));
      }
      const target = new URL(platformAuthUrl);
      target.searchParams.set('code', store.mintCode(username, referenceClient.id));
      return reply.redirect(target.href, 302);
    });
  };
}

export function buildReferencePartner({
  now = Date.now,
  platformAuthUrl = defaultPlatformAuthUrl,
  appAuthUrl,
  ledgerlyAppOrigin,
  clientSecret = referenceClient.secret,
  loginPassword: password = loginPassword,
  opaque,
  latencyMs = 0,
  codeLifetimeMs,
  https,
  refreshToken,
  dateOfBirth,
}: ReferencePartnerOptions = {}) {
  // Closing ends every connection at once: a client that gave up on a hostile answer (no headers, a slow drip)
  // may leave its socket open, and waiting for it would hold the close for a minute.
  const options = { logger: false, forceCloseConnections: true } as const;
  const app = (https ? Fastify({ ...options, https }) : Fastify(options)) as FastifyInstance;
  const store = createStore(now, opaque, codeLifetimeMs);
  let requests = 0;

  void app.register(formbody);
  // JSON.parse keeps the last of two equal keys without a word; RFC 6749 §3.2 wants a repeated parameter refused.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    const repeated = keyProblemsOf(text).duplicates[0];
    if (repeated !== undefined && !faultsOf(request).has('token-duplicate-params'))
      return done(Object.assign(new Error(`"${repeated}" is sent more than once`), { statusCode: 400 }));
    try {
      done(null, text.trim() === '' ? undefined : JSON.parse(text));
    } catch (error) {
      done(Object.assign(new Error(`the body is not JSON: ${(error as Error).message}`), { statusCode: 400 }));
    }
  });
  app.addHook('onRequest', async (request) => {
    if (!/^\/(health|faults$|test-hooks\/stats)/.test(request.url)) requests++;
    if (latencyMs > 0 && request.url !== '/health') await sleep(latencyMs);
  });
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) app.log.error(error);
    return oauthError(reply, status, status === 500 ? 'server_error' : 'invalid_request', status === 500 ? 'internal error' : error.message);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: 'not_found', error_description: `no route ${request.method} ${request.url.split('?')[0]}` }),
  );

  app.get('/health', async () => ({ ok: true }));
  app.get('/faults', async () => ({ ...faultCatalogue, ...hostileFaults, ...leakFaults, ...appFaults }));
  app.get('/test-hooks/stats', async () => ({ requests, oldestCodeSpentMs: store.oldestCodeSpentMs() }));
  const routes = {
    store,
    platformAuthUrl,
    embeds: { emulator: emulatorEmbeds(appAuthUrl), ledgerly: ledgerlyEmbeds(ledgerlyAppOrigin ?? ledgerlyOrigins.app) },
    now,
    token: { clientSecret, ...(refreshToken ? { refreshToken } : {}) },
    password,
    sessionId: opaque ?? randomOpaque,
    dateOfBirth,
  };
  void app.register(partnerRoutes(routes));
  void app.register(partnerRoutes(routes), { prefix: '/faults/:faults' });
  return app;
}

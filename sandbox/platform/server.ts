import { randomBytes, randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { depthOf, isObject } from '../../checks/evidence';
import type { Payload } from '../../checks/payload';
import { signOnDecision, typedValueProblems } from '../../checks/sign-on-decision';
import type { PartnerConfig } from '../../profile/profile-schema';
import { unsafeRaw } from '../../html/template';
import { authPath, mockLinkPath } from '../../profile/platform-urls';
import { equalSecrets } from '../secrets';
import { seedData } from './data';
import { registerDataApi } from './data-api';
import { registerEmulatorApi } from './emulator-api';
import { apiError, maxBodyDepth } from './errors';
import { dataApiFaults, isEmulatorFault, isPlatformFault, platformFaults } from './faults';
import { syncFundingSources, type KnownSource, type Sync } from './funding';
import { mockLinkKey, verifyMockLink } from './jwt';
import { appScreen, blankScreen, collectScreen, errorScreen, type HostMessage } from './screens';
import { cookieOf } from '../cookies';
import { faultNamesOf, faultPrefix } from '../fault-path';
import { cookieName, dropExpired, remember, sessionLifetimeMs, signInWithCode, text, type Session, type SignIn } from './sign-in';

/** The sandbox platform's credentials; partners/reference.json carries the same values. */
export const platformSandbox = {
  apiKey: 'reference-platform-api-key',
  mockLinkKey: 'reference-platform-mock-link-signing-key-2026',
  dataApiToken: 'reference-data-api-token',
} as const;

export interface PlatformOptions {
  /** Milliseconds since the epoch; injected so tests can age links. */
  now?: () => number;
  apiKey?: string;
  mockLinkKey?: string;
  /** The Bearer token the data API accepts. */
  dataApiToken?: string;
  /** The size of the data API's seed (the bench walks 200,000 bills). */
  dataSeed?: Parameters<typeof seedData>[0];
}

function platformRoutes(options: Required<Omit<PlatformOptions, 'dataSeed'>> & Pick<PlatformOptions, 'dataSeed'>) {
  const { now } = options;
  const key = mockLinkKey(options.mockLinkKey);
  const partners = new Map<string, PartnerConfig>();
  const sessions = new Map<string, Session>();
  const usedJtis = new Map<string, number>();
  const knownSources = new Map<string, Map<string, KnownSource>>();
  const seed = seedData(options.dataSeed);

  const knownOf = (partnerName: string, userId: string) => {
    const id = `${partnerName}\n${userId}`;
    const known = knownSources.get(id) ?? new Map<string, KnownSource>();
    remember(knownSources, id, known);
    return known;
  };

  return async (app: FastifyInstance) => {
    const faultsOf = (request: FastifyRequest) => new Set(faultNamesOf(request).filter(isPlatformFault));

    app.addHook('onRequest', async (request, reply) => {
      const unknown = faultNamesOf(request).filter((name) => !isEmulatorFault(name));
      if (unknown.length > 0) return apiError(reply, 404, 'UNKNOWN_FAULT', `unknown fault ${unknown.map((n) => `"${n}"`).join(', ')}; GET /faults lists them`);
      // spec §5.4: the mock link and the emulator's own API take the api-key header, checked before the body is read.
      if (/^\/v1\/(auth|emulator)\//.test(request.url.slice(faultPrefix(request).length))) {
        const given = request.headers['api-key'];
        if (typeof given !== 'string') return apiError(reply, 401, 'MISSING_API_KEY', 'send the "api-key" header');
        if (!equalSecrets(given, options.apiKey)) return apiError(reply, 401, 'INVALID_API_KEY', 'the "api-key" is not valid');
      }
    });

    registerDataApi(app, { token: options.dataApiToken, seed, faultsOf: (request) => new Set(faultNamesOf(request)) });

    registerEmulatorApi(app, { partners, knownOf, key, now });

    /** How late a screen posts its message: the conformant variations' choice, as a single-page app posts after a fetch. */
    const postDelay = (faults: ReadonlySet<string>) =>
      faults.has('posts-late') ? { postDelayMs: 1_500 } : faults.has('posts-late-varied') ? { postDelayMs: 400 + Math.floor(Math.random() * 1_600) } : {};

    /** Sends a screen with the headers every embedded screen carries (DESIGN §5, issue 4 security). */
    function screen(
      request: FastifyRequest,
      reply: FastifyReply,
      status: number,
      config: PartnerConfig | undefined,
      render: (page: { nonce: string; targetOrigin?: string; postDelayMs?: number }) => string,
    ) {
      const faults = faultsOf(request);
      const nonce = randomBytes(16).toString('base64');
      const ancestors = faults.has('no-frame-ancestors') ? '' : `; frame-ancestors ${config?.hostOrigin ?? "'none'"}`;
      reply.header(
        'content-security-policy',
        `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action 'self'; base-uri 'none'${ancestors}`,
      );
      if (!faults.has('no-referrer-policy')) reply.header('referrer-policy', 'no-referrer');
      const targetOrigin = config && (faults.has('posts-to-any-origin') ? '*' : config.hostOrigin);
      return reply
        .code(status)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .type('text/html; charset=utf-8')
        .send(render({ nonce, ...(targetOrigin ? { targetOrigin } : {}), ...postDelay(faults) }));
    }

    const errorPage = (request: FastifyRequest, reply: FastifyReply, status: number, config: PartnerConfig | undefined, reason: string, problems: string[]) =>
      screen(request, reply, status, config, (page) => {
        const message: HostMessage = { type: 'AUTHENTICATION_ERROR', messageId: randomUUID(), reason, message: problems[0] ?? reason };
        return errorScreen(reason, problems, { ...page, message });
      });

    function startSession(request: FastifyRequest, reply: FastifyReply, session: Omit<Session, 'csrf' | 'expiresAt'>): Session {
      dropExpired(sessions, (old) => old.expiresAt, now());
      const id = randomBytes(24).toString('base64url');
      const started = { ...session, csrf: randomBytes(16).toString('base64url'), expiresAt: now() + sessionLifetimeMs };
      remember(sessions, id, started);
      const attributes = faultsOf(request).has('none-cookies-without-secure') ? 'SameSite=None' : 'Secure; SameSite=None';
      reply.header('set-cookie', `${cookieName}=${id}; Path=${faultPrefix(request)}/${session.partnerName}/; HttpOnly; ${attributes}`);
      return started;
    }

    const sessionOf = (request: FastifyRequest, partnerName: string) => {
      const id = cookieOf(request, cookieName);
      const session = id === undefined ? undefined : sessions.get(id);
      return session && session.partnerName === partnerName && session.expiresAt > now() ? session : undefined;
    };

    function appPage(request: FastifyRequest, reply: FastifyReply, config: PartnerConfig, session: Session) {
      const { user, company } = session.accountInfo as { user: Payload; company: Payload };
      const known = knownOf(session.partnerName, text(user.id));
      const name = [text(user.firstName), text(user.lastName)].filter(Boolean).join(' ');
      const companyName = faultsOf(request).has('unescaped-html') ? unsafeRaw(text(company.name)) : text(company.name);
      return screen(request, reply, 200, config, (page) =>
        appScreen(
          { user: { name, email: text(user.email) }, company: companyName, sources: [...known.values()], sync: session.sync },
          { ...page, message: { type: 'NAVIGATED_TO_TARGET', messageId: randomUUID(), target: 'dashboard' } },
        ),
      );
    }

    app.get(authPath(':partnerName'), async (request, reply) => {
      const { partnerName } = request.params as { partnerName: string };
      const { code, token } = request.query as { code?: unknown; token?: unknown };
      const config = partners.get(partnerName);
      if (!config) return errorPage(request, reply, 404, undefined, 'UNKNOWN_PARTNER', [`no partner "${partnerName}" is configured on this platform`]);
      const faults = faultsOf(request);
      if (faults.has('blank-app')) return screen(request, reply, 200, config, (page) => blankScreen(page));
      if ((typeof code === 'string') === (typeof token === 'string') || (code ?? token) === '') {
        return errorPage(request, reply, 400, config, 'INVALID_REQUEST', ['the auth URL takes exactly one of "code" or "token"']);
      }

      let signIn: SignIn;
      if (typeof token === 'string') {
        const verified = await verifyMockLink(token, partnerName, key, now(), faults.has('accepts-expired-jwt'));
        if ('problem' in verified) return errorPage(request, reply, 401, config, 'INVALID_MOCK_LINK', [verified.problem]);
        const { jti, exp } = verified.claims;
        if (usedJtis.has(jti) && !faults.has('allows-jwt-replay'))
          return errorPage(request, reply, 401, config, 'INVALID_MOCK_LINK', ['the link was already used']);
        dropExpired(usedJtis, (expiry) => expiry, now());
        remember(usedJtis, jti, exp * 1000);
        signIn = { accountInfo: verified.claims.accountInfo };
      } else {
        signIn = await signInWithCode(config, code as string);
      }
      if ('reason' in signIn) return errorPage(request, reply, 401, config, signIn.reason, signIn.problems);

      const ctx = { now: new Date(now()), collectMissingAccountInfo: config.collectMissingAccountInfo };
      const decision = signOnDecision(signIn.accountInfo, ctx);
      if (decision.screen === 'error')
        return errorPage(
          request,
          reply,
          401,
          config,
          decision.reason,
          decision.problems.map((problem) => problem.message),
        );

      const { user } = signIn.accountInfo as { user: Payload };
      const sync: Sync = 'funding' in signIn ? syncFundingSources(knownOf(partnerName, text(user.id)), signIn.funding, ctx.now) : { added: [], removed: [] };
      const fields = decision.screen === 'collect' && !faults.has('skips-missing-info-screen') ? decision.fields : [];
      const session = startSession(request, reply, { partnerName, accountInfo: signIn.accountInfo, fields, sync });
      if (fields.length === 0) return appPage(request, reply, config, session);
      return screen(request, reply, 200, config, (page) => collectScreen(fields, {}, {}, session.csrf, page));
    });

    app.post('/:partnerName/collect', async (request, reply) => {
      const { partnerName } = request.params as { partnerName: string };
      const config = partners.get(partnerName);
      const session = sessionOf(request, partnerName);
      if (!config || !session) return errorPage(request, reply, 401, config, 'SESSION_EXPIRED', ['the sign-in session has expired; open the app again']);
      const typed = Object.fromEntries(
        Object.entries(isObject(request.body) ? request.body : {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
      if (!typed.csrf || !equalSecrets(typed.csrf, session.csrf))
        return errorPage(request, reply, 403, config, 'INVALID_REQUEST', ['the form was not sent from this sign-in']);
      const ctx = { now: new Date(now()), collectMissingAccountInfo: true };
      const { merged, problems } = typedValueProblems(session.accountInfo, session.fields, typed, ctx);
      if (Object.keys(problems).length > 0)
        return screen(request, reply, 422, config, (page) => collectScreen(session.fields, typed, problems, session.csrf, page));
      Object.assign(session, { accountInfo: merged, fields: [] });
      return reply.code(303).header('location', 'app').header('cache-control', 'no-store').send();
    });

    app.get('/:partnerName/app', async (request, reply) => {
      const { partnerName } = request.params as { partnerName: string };
      const config = partners.get(partnerName);
      const session = sessionOf(request, partnerName);
      if (!config || !session || session.fields.length > 0) {
        return errorPage(request, reply, 401, config, 'SESSION_EXPIRED', ['the sign-in session has expired; open the app again']);
      }
      return appPage(request, reply, config, session);
    });
  };
}

export function buildPlatform({
  now = Date.now,
  apiKey = platformSandbox.apiKey,
  mockLinkKey = platformSandbox.mockLinkKey,
  dataApiToken = platformSandbox.dataApiToken,
  dataSeed,
}: PlatformOptions = {}) {
  const app = Fastify({ logger: false });
  void app.register(formbody);
  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) app.log.error(error);
    const code =
      status === 500 ? 'INTERNAL_ERROR' : error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || /JSON/.test(error.message) ? 'INVALID_JSON' : 'INVALID_REQUEST';
    return apiError(reply, status, code, status === 500 ? 'internal error' : error.message);
  });
  app.setNotFoundHandler((request, reply) => apiError(reply, 404, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`));
  // Every rule that reads a body walks it recursively: a body nested thousands deep would overflow the stack.
  app.addHook('preValidation', async (request, reply) => {
    if (depthOf(request.body, maxBodyDepth) > maxBodyDepth) return apiError(reply, 400, 'TOO_DEEP', `the body nests deeper than ${maxBodyDepth} levels`);
  });
  app.get('/health', async () => ({ ok: true }));
  app.get('/faults', async () => ({ ...platformFaults, ...dataApiFaults }));
  // What the bench and the fleet measurement count: how often the platform's checks reach it.
  const stats = { mockLinks: 0, dataApi: 0, authUrl: 0 };
  app.addHook('onRequest', async (request) => {
    const route = request.url.split('?')[0]!.replace(/^\/faults\/[^/]+/, '');
    if (route === mockLinkPath) stats.mockLinks++;
    else if (/^\/v1\/(organizations|bills|payments|vendors)$/.test(route)) stats.dataApi++;
    else if (/^\/[^/]+\/auth$/.test(route)) stats.authUrl++;
  });
  app.get('/test-hooks/stats', async () => stats);
  const routes = platformRoutes({ now, apiKey, mockLinkKey, dataApiToken, dataSeed });
  void app.register(routes);
  void app.register(routes, { prefix: '/faults/:faults' });
  return app;
}

import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError, type HarborContext } from './context.js';
import { hasFault, prefixOf } from './faults.js';
import { SESSION_COOKIE, type Outcome, type Session, type View } from './sessions.js';
import { renderShell } from './shell.js';
import { decide, hostOriginFor, problem, signOnWithCode } from './sso.js';
import { checkLeaf, writeLeaf } from './validate.js';

const PAGES = ['/home', '/complete-profile', '/problem', '/wallet'];
const PAGE_FOR: Record<View, string> = { home: '/home', collect: '/complete-profile', problem: '/problem' };

function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export function registerApp(app: FastifyInstance, ctx: HarborContext): void {
  const sessionOf = (request: FastifyRequest): Session | undefined => ctx.store.get(cookie(request, SESSION_COOKIE));

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'no-store');
  });

  /** Starts a fresh session (never reusing one the browser brought) and sends the browser to its page. */
  const open = (request: FastifyRequest, reply: FastifyReply, outcome: Outcome): FastifyReply => {
    const s = ctx.store.create(outcome);
    // No Secure: served over plain http; the partner page is same-site on loopback, so Lax still reaches the frame.
    reply.header('Set-Cookie', `${SESSION_COOKIE}=${s.id}; HttpOnly; Path=/; SameSite=Lax`);
    return reply.redirect(`${ctx.appOrigin}${prefixOf(request)}${PAGE_FOR[s.view]}`, 302);
  };

  app.get('/embed', async (request, reply) => {
    // This URL carries the authorization code.
    reply.header('Referrer-Policy', 'no-referrer');
    const q = request.query as Record<string, unknown>;
    const partner = ctx.partners.get(q.tenant);
    if (!partner) return open(request, reply, problem('UNKNOWN_PARTNER', 'the tenant parameter names no configured partner'));
    const hostOrigin = hostOriginFor(partner, request);
    if (typeof q.code !== 'string' || q.code === '') {
      return open(request, reply, problem('MISSING_CODE', 'the auth URL carries no code', partner, hostOrigin));
    }
    const outcome = await signOnWithCode(partner, q.code, hostOrigin, ctx.store, {
      now: ctx.now(),
      skipsCollection: hasFault(request, 'skips-collection'),
      keepRemovedSources: hasFault(request, 'keeps-removed-sources'),
    });
    return open(request, reply, outcome);
  });

  app.get('/session/open', async (request, reply) => {
    // This URL carries the one-time ticket.
    reply.header('Referrer-Policy', 'no-referrer');
    const ticket = (request.query as Record<string, unknown>).ticket;
    const outcome = ctx.store.redeemTicket(typeof ticket === 'string' ? ticket : undefined);
    return open(request, reply, outcome ?? problem('TICKET_INVALID', 'the sign-on ticket is unknown, used or expired'));
  });

  const page = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const session = sessionOf(request);
    const partner = session ? ctx.partners.get(session.partnerName) : undefined;
    const nonce = randomBytes(18).toString('base64');
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      `connect-src 'self' ${ctx.appOrigin}`,
      "img-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
    ];
    if (!hasFault(request, 'frameable-anywhere')) csp.push(`frame-ancestors ${partner ? partner.hostOrigins.join(' ') : "'self'"}`);
    const base = `${ctx.appOrigin}${prefixOf(request)}`;
    const late = hasFault(request, 'posts-late');
    const html = renderShell(
      {
        path: request.routeOptions.url ?? '/home',
        base,
        sessionUrl: `${base}/api/session`,
        delay: late ? [1500, 2500] : [300, 900],
        anyOrigin: hasFault(request, 'targets-any-origin'),
        rawMarkup: hasFault(request, 'renders-markup'),
      },
      nonce,
    );
    return reply
      .header('Content-Security-Policy', csp.join('; '))
      .header('Referrer-Policy', 'strict-origin-when-cross-origin')
      .type('text/html; charset=utf-8')
      .send(html);
  };
  for (const path of PAGES) app.get(path, page);

  app.get('/api/session', async (request, reply) => {
    const s = sessionOf(request);
    if (!s) return sendError(reply, 401, 'unauthorized', 'no Harbor session');
    const info = s.info ?? {};
    const user = (info.user ?? {}) as Record<string, unknown>;
    const company = (info.company ?? {}) as Record<string, unknown>;
    const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
    return {
      view: s.view,
      partnerName: s.partnerName ?? null,
      hostOrigin: s.hostOrigin ?? null,
      csrf: s.csrf,
      ...(s.view === 'problem' ? { reason: s.reason, detail: s.detail } : {}),
      user: { firstName: str(user.firstName), lastName: str(user.lastName) },
      company: { name: str(company.name) },
      sources: ctx.store.sourcesOf(s.partnerName, s.userId).map(({ id, nickname, last4 }) => ({ id, nickname: nickname ?? null, last4 })),
      fields: (s.fields ?? []).map((f, i) => ({ name: `field-${i + 1}`, path: f.path, value: f.value, error: f.error ?? null })),
    };
  });

  app.post('/complete-profile', async (request, reply) => {
    const s = sessionOf(request);
    const to = (path: string): FastifyReply => reply.redirect(`${ctx.appOrigin}${prefixOf(request)}${path}`, 303);
    if (!s) return sendError(reply, 401, 'unauthorized', 'no Harbor session');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const origin = request.headers.origin;
    if (body._csrf !== s.csrf || (origin !== undefined && origin !== ctx.appOrigin)) {
      return sendError(reply, 403, 'forbidden', 'the form did not come from this Harbor session');
    }
    if (s.view !== 'collect' || !s.fields || !s.info) return to(PAGE_FOR[s.view]);
    const now = ctx.now();
    let anyError = false;
    s.fields = s.fields.map((f, i) => {
      const raw = body[`field-${i + 1}`];
      const value = typeof raw === 'string' ? raw.trim() : '';
      const error = value === '' ? 'This field is required.' : checkLeaf(f.path, value, now);
      if (error) anyError = true;
      return error ? { path: f.path, value, error } : { path: f.path, value };
    });
    if (anyError) return to('/complete-profile');
    for (const f of s.fields) writeLeaf(s.info, f.path, f.value);
    const partner = ctx.partners.get(s.partnerName);
    if (!partner) {
      Object.assign(s, { view: 'problem', reason: 'UNKNOWN_PARTNER', detail: 'the partner is no longer configured', fields: undefined });
      return to('/problem');
    }
    const next = decide(partner, s.info, now, false, s.hostOrigin);
    Object.assign(s, { view: next.view, reason: next.reason, detail: next.detail, fields: next.fields, info: next.info ?? s.info });
    return to(PAGE_FOR[s.view]);
  });
}

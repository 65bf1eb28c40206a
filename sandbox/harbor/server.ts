import formbody from '@fastify/formbody';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { registerApi } from './api.js';
import { registerApp } from './app.js';
import { sendError, type HarborContext } from './context.js';
import { rejectUnknownFaults, rewriteFaultPrefix } from './faults.js';
import { PartnerRegistry, defaultPartners, type PartnerConfig } from './partners.js';
import { SessionStore } from './sessions.js';
import { LinkSigner } from './tokens.js';

export type { PartnerConfig } from './partners.js';

export interface HarborOptions {
  apiOrigin?: string;
  appOrigin?: string;
  keysOrigin?: string;
  /** Milliseconds since the epoch; drives JWT iat/exp and their checks, tickets, sessions and age checks. */
  now?: () => number;
  /** Replaces the default partners (reference, reference-strict) when given. */
  partners?: PartnerConfig[];
}

export interface Harbor {
  api: FastifyInstance;
  app: FastifyInstance;
  keys: FastifyInstance;
}

function origin(value: string | undefined, fallback: string): string {
  return new URL(value ?? fallback).origin;
}

function server(): FastifyInstance {
  const f = Fastify({ logger: false, rewriteUrl: rewriteFaultPrefix });
  f.addHook('onRequest', rejectUnknownFaults);
  f.addHook('onRequest', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
  });
  f.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    const type = status === 415 ? 'unsupported_media_type' : status < 500 ? 'invalid_request' : 'internal_error';
    return sendError(reply, status, type, status < 500 ? error.message : 'Harbor failed to answer');
  });
  f.setNotFoundHandler((request, reply) => sendError(reply, 404, 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
  return f;
}

export function buildHarbor(options: HarborOptions = {}): Harbor {
  const apiOrigin = origin(options.apiOrigin, 'http://127.0.0.1:4405');
  const now = options.now ?? Date.now;
  const ctx: HarborContext = {
    apiOrigin,
    appOrigin: origin(options.appOrigin, 'http://127.0.0.1:4406'),
    keysOrigin: origin(options.keysOrigin, 'http://127.0.0.1:4407'),
    now,
    partners: new PartnerRegistry(options.partners ?? defaultPartners()),
    store: new SessionStore(now),
    signer: new LinkSigner(apiOrigin, now),
  };

  const api = server();
  registerApi(api, ctx);

  const app = server();
  void app.register(formbody);
  registerApp(app, ctx);

  const keys = server();
  keys.get('/keys/harbor.jwks', async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=300').header('Access-Control-Allow-Origin', '*').type('application/json').send(ctx.signer.jwks),
  );

  return { api, app, keys };
}

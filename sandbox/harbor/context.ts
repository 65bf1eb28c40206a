import type { FastifyReply } from 'fastify';
import type { PartnerRegistry } from './partners.js';
import type { SessionStore } from './sessions.js';
import type { LinkSigner } from './tokens.js';

/** State shared by the three origins of one Harbor instance. */
export interface HarborContext {
  apiOrigin: string;
  appOrigin: string;
  keysOrigin: string;
  now: () => number;
  partners: PartnerRegistry;
  store: SessionStore;
  signer: LinkSigner;
}

export function sendError(reply: FastifyReply, code: number, type: string, detail: string): FastifyReply {
  return reply.code(code).send({ error: { type, detail } });
}

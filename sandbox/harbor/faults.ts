import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const FAULTS = {
  'targets-any-origin': 'The app posts its messages to window.parent with target origin "*".',
  'frameable-anywhere': 'App pages send no frame-ancestors directive, so any site may frame them.',
  'reusable-links': 'A mock link can be used more than once.',
  'data-api-open': 'The data API answers without a bearer token (or with a wrong one).',
  'keeps-removed-sources': 'Funding sources no longer listed by the partner stay in /wallet.',
  'renders-markup': 'The company name is written into the page as HTML.',
  'skips-collection': 'Missing Yes* fields go straight to the app instead of the collection screen.',
  'long-lived-links': 'Mock-link JWTs expire after 24 hours instead of 15 minutes.',
} as const;

export const VARIATIONS = {
  'posts-late': 'The app renders and posts its message 1.5 to 2.5 s after load instead of 300 to 900 ms.',
} as const;

export type FaultName = keyof typeof FAULTS | keyof typeof VARIATIONS;

const KNOWN = new Set<string>([...Object.keys(FAULTS), ...Object.keys(VARIATIONS)]);
const PREFIX = /^\/faults\/([^/?#]+)(\/[^?#]*)?(\?.*)?$/;

interface Parsed {
  names: FaultName[];
  unknown: string[];
}

const parsed = new WeakMap<IncomingMessage, Parsed>();

/**
 * Fastify rewriteUrl hook: strips a /faults/<a>,<b>/ prefix so every route also answers under it,
 * remembering the names on the raw request for the handlers.
 */
export function rewriteFaultPrefix(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const m = PREFIX.exec(url);
  if (!m) return url;
  const names = decodeURIComponent(m[1] ?? '')
    .split(',')
    .filter((n) => n !== '');
  const unique = [...new Set(names)];
  parsed.set(req, {
    names: unique.filter((n): n is FaultName => KNOWN.has(n)),
    unknown: names.length === 0 ? ['(empty)'] : unique.filter((n) => !KNOWN.has(n)),
  });
  return (m[2] ?? '/') + (m[3] ?? '');
}

export function faultsOf(request: FastifyRequest): FaultName[] {
  return parsed.get(request.raw)?.names ?? [];
}

export function hasFault(request: FastifyRequest, name: FaultName): boolean {
  return faultsOf(request).includes(name);
}

/** The path prefix to carry into every link, redirect and URL written while answering this request. */
export function prefixOf(request: FastifyRequest): string {
  const names = faultsOf(request);
  return names.length ? `/faults/${names.join(',')}` : '';
}

/** onRequest hook: an unknown fault name is a 404 rather than silently running without it. */
export async function rejectUnknownFaults(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const p = parsed.get(request.raw);
  if (p && p.unknown.length) {
    await reply.code(404).send({
      error: { type: 'unknown_fault', detail: `unknown fault(s): ${p.unknown.join(', ')}; see GET /faults on the API origin` },
    });
  }
}

export function faultList(): unknown {
  return {
    usage: 'Prefix any path of any Harbor origin with /faults/<name>[,<name>...]/',
    faults: Object.entries(FAULTS).map(([name, description]) => ({ name, description, conformant: false })),
    variations: Object.entries(VARIATIONS).map(([name, description]) => ({ name, description, conformant: true })),
  };
}

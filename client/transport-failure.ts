import type { TransportFailure } from '../checks/evidence';
import { TlsProblem } from './tls';

/** The message of a handshake client/tls.ts refused, wherever fetch wrapped it. */
function tlsProblemOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if (e instanceof TlsProblem) return e.message;
  return undefined;
}

/** Error codes and messages along an error's `cause` chain (fetch wraps the socket error). */
function causes(error: unknown): { codes: string[]; text: string } {
  const codes: string[] = [];
  const messages: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (typeof message === 'string') messages.push(message);
  }
  return { codes, text: messages.join(': ') };
}

/** What went wrong with a call, named in the partner's terms. */
export function classify(error: unknown, url: string, timeoutMs: number, headersArrived: boolean): TransportFailure {
  const name = (error as { name?: unknown }).name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    const stage = headersArrived ? 'the headers arrived but the body never finished' : 'no response headers arrived';
    return { kind: 'timeout', message: `no complete response within ${timeoutMs} ms ("requestTimeoutMs"): ${stage}` };
  }
  if (!URL.canParse(url)) return { kind: 'invalid-url', message: `${JSON.stringify(url)} is not a valid URL` };
  const { codes, text } = causes(error);
  const host = new URL(url).host;
  const refused = tlsProblemOf(error);
  if (refused) return { kind: 'tls', message: refused };
  const handshake = codes.find((c) => /^ERR_SSL_|^ERR_TLS_|^EPROTO$/.test(c));
  if (handshake)
    return {
      kind: 'tls',
      message: `the TLS handshake with ${host} failed (${handshake}: ${text}); serve TLS 1.2 or 1.3 with a certificate valid for ${host.replace(/:\d+$/, '')}`,
    };
  if (codes.includes('ECONNREFUSED')) return { kind: 'connection-refused', message: `connection refused by ${host}; is the server running?` };
  if (codes.some((c) => c === 'ENOTFOUND' || c === 'EAI_AGAIN')) return { kind: 'dns', message: `the host name of ${host} does not resolve` };
  if (codes.some((c) => c === 'ECONNRESET' || c === 'UND_ERR_SOCKET' || c === 'EPIPE') || /other side closed|socket hang up|terminated/i.test(text)) {
    const stage = headersArrived ? 'in the middle of the body' : 'before any response';
    return { kind: 'connection-reset', message: `${host} closed the connection ${stage}` };
  }
  return { kind: 'network', message: `the request to ${host} failed: ${text || String(error)}` };
}

import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import type { Profile } from '../profile/profile-schema';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { checkedAgent, type TlsOptions } from './tls';
import { classify } from './transport-failure';
import { jsonResponse, type Exchange, type JsonResponse, type RequestRecord, type ResponseRecord, type TransportFailure } from '../checks/evidence';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpClientOptions {
  /** An overall deadline for the whole exchange, headers and body: a slow drip cannot outlive it. */
  timeoutMs: number;
  maxBodyBytes?: number;
  /** The longest "Retry-After" waited out, once per endpoint (origin and path); a longer one is reported. */
  maxRetryAfterMs?: number;
  /** A partner's private CA, trusted besides the system's roots. */
  tls?: TlsOptions;
  /** A production profile sends nothing over plain http://: the call fails before it is made. */
  production?: boolean;
}

export const defaultMaxRetryAfterMs = 5000;

/** "Retry-After" in seconds or as an HTTP date (RFC 9110 §10.2.3), in milliseconds from `now`. */
export function retryAfterMs(value: string, now = Date.now()): number | undefined {
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface HttpClient {
  /** Never throws: transport problems come back as `exchange.failure`, named. */
  send(request: HttpRequest): Promise<Exchange>;
  /**
   * The throttles waited out and answered since the last call, each handed over once, marked
   * `rateLimited`: whichever probe takes one notes it, however the call that met it was judged.
   */
  takeWaits?: () => Exchange[];
  /** Closes the client's connections (each request in flight has one of its own, kept alive after). */
  close?: () => Promise<void>;
}

export const defaultMaxBodyBytes = 1024 * 1024;
const userAgent = 'partner-certify/0.1 (+certification harness)';

/** The client a profile calls its partner with: its timeout, its private CA, and no plain http:// in production. */
export function profileClient(profile: Pick<Profile, 'requestTimeoutMs' | 'environment' | 'caFile'>): HttpClient {
  return httpClient({
    timeoutMs: profile.requestTimeoutMs,
    production: profile.environment === 'production',
    ...(profile.caFile !== undefined ? { tls: { ca: readFileSync(profile.caFile, 'utf8') } } : {}),
  });
}

/**
 * A client that never hammers a partner: a 429, or a 503 with "Retry-After", is waited out once per
 * endpoint when the wait is at most `maxRetryAfterMs`, and retried once; any other is returned as it came,
 * marked, for the transport rules to name.
 */
export function httpClient({
  timeoutMs,
  maxBodyBytes = defaultMaxBodyBytes,
  maxRetryAfterMs = defaultMaxRetryAfterMs,
  tls,
  production = false,
}: HttpClientOptions): HttpClient {
  const agent = checkedAgent(tls);
  const once = sendOnce(timeoutMs, maxBodyBytes, agent, production);
  // A pooled connection that the server closes just as it is reused fails before any response, and more often
  // on a busy machine: as a browser does, the request is sent once more, on a connection of its own. A server
  // that closes that one too is judged on it.
  const resentIfClosed = async (request: HttpRequest, first: Exchange): Promise<Exchange> => {
    if (first.failure?.kind !== 'connection-reset' || first.response) return first;
    const fresh = checkedAgent(tls);
    try {
      return { ...(await sendOnce(timeoutMs, maxBodyBytes, fresh, production)(request)), resentAfter: first.failure.message };
    } finally {
      void fresh.close();
    }
  };
  const waited = new Set<string>();
  const waits: Exchange[] = [];
  return {
    takeWaits: () => waits.splice(0),
    close: () => agent.close(),
    async send(request) {
      const exchange = await resentIfClosed(request, await once(request));
      if (!isThrottle(exchange)) return exchange;
      const status = exchange.response!.status;
      const retryAfter = exchange.response!.headers['retry-after'];
      const endpoint = endpointOf(request.url);
      const waitMs = retryAfter === undefined ? undefined : retryAfterMs(retryAfter);
      const limited = { status, retryAfter: retryAfter ?? '(none)' };
      if (waitMs === undefined || waitMs > maxRetryAfterMs) return { ...exchange, rateLimited: { ...limited, refused: 'too-long' } };
      if (waited.has(endpoint)) return { ...exchange, rateLimited: { ...limited, refused: 'again' } };
      waited.add(endpoint);
      await sleep(waitMs);
      const retried = await once(request);
      const wait = { ...retried, rateLimited: { ...limited, waitedMs: waitMs } };
      if (isThrottle(retried)) return wait;
      // Answered: the call is judged as it came; the wait is noted once, by whichever probe takes it.
      waits.push(wait);
      return retried;
    },
  };
}

/** A URL's origin and path: throttles are waited out once per endpoint, whatever the query. */
export const endpointOf = (url: string) => (URL.canParse(url) ? (({ origin, pathname }) => origin + pathname)(new URL(url)) : url);

const isThrottle = ({ response }: Exchange) => response?.status === 429 || (response?.status === 503 && response.headers['retry-after'] !== undefined);

function sendOnce(timeoutMs: number, maxBodyBytes: number, dispatcher: Dispatcher, production: boolean): HttpClient['send'] {
  return async function send({ method, url, headers = {}, body }) {
    const request: RequestRecord = { method, url, headers, ...(body === undefined ? {} : { body }) };
    const startedAt = new Date().toISOString();
    if (production && url.toLowerCase().startsWith('http://')) {
      const host = URL.canParse(url) ? new URL(url).host : url;
      return {
        request,
        failure: {
          kind: 'plain-http',
          message: `${host} is called over plain http:// in a production profile, so the request (and any code, token or secret in it) was not sent; serve it over https://`,
        },
        startedAt,
        durationMs: 0,
      };
    }
    const started = performance.now();
    let response: ResponseRecord | undefined;
    let failure: TransportFailure | undefined;
    try {
      // Node's fetch is undici inside, and dispatches through the package's Agent; the DOM's RequestInit has no word for it.
      const init: RequestInit & { dispatcher: Dispatcher } = {
        dispatcher,
        method,
        headers: { 'user-agent': userAgent, ...headers },
        ...(body === undefined ? {} : { body }),
        redirect: 'manual', // the platform never follows a partner's redirect, so neither do we
        signal: AbortSignal.timeout(timeoutMs),
      };
      const res = await fetch(url, init);
      const received: Record<string, string> = Object.fromEntries(res.headers);
      // Several Set-Cookie headers cannot be folded with commas (cookies contain them): one per line.
      if (res.headers.getSetCookie().length > 1) received['set-cookie'] = res.headers.getSetCookie().join('\n');
      response = { status: res.status, headers: received, body: '', bytes: 0 };
      const read = await readCapped(res.body, maxBodyBytes);
      response.body = read.text;
      response.bytes = read.bytes;
      const encodingProblem = read.overCap ? undefined : utf8Problem(read.raw);
      if (encodingProblem) response.encodingProblem = encodingProblem;
      if (read.overCap) {
        // fetch decompresses as it reads, so the cap bounds the decompressed bytes: a gzip bomb stops here.
        const encoding = received['content-encoding'];
        const what = encoding ? `once decompressed ("content-encoding: ${encoding}"), the response body` : 'the response body';
        failure = { kind: 'body-too-large', message: `${what} is larger than the ${formatBytes(maxBodyBytes)} cap; it was cut off there` };
      }
    } catch (error) {
      failure = classify(error, url, timeoutMs, response !== undefined);
    }
    const durationMs = Math.round(performance.now() - started);
    return { request, ...(response ? { response } : {}), ...(failure ? { failure } : {}), startedAt, durationMs };
  };
}

async function readCapped(body: ReadableStream<Uint8Array> | null, max: number) {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let overCap = false;
  if (body) {
    for await (const chunk of body) {
      const room = max - bytes;
      chunks.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
      bytes += Math.min(chunk.byteLength, room);
      if (chunk.byteLength > room) {
        overCap = true;
        break; // leaving the loop cancels the stream, so the rest is never downloaded
      }
    }
  }
  const raw = Buffer.concat(chunks);
  return { raw, text: new TextDecoder().decode(raw), bytes, overCap };
}

/** A BOM, or where the bytes stop being UTF-8 (the longest prefix a streaming strict decoder accepts). */
function utf8Problem(raw: Buffer): string | undefined {
  if (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) return 'starts with a UTF-8 byte order mark (EF BB BF)';
  if (isUtf8(raw)) return undefined;
  const validPrefix = (length: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(raw.subarray(0, length), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let [low, high] = [0, raw.length];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (validPrefix(mid)) low = mid;
    else high = mid - 1;
  }
  const byte = raw[low] ?? raw[low - 1]!;
  return `is not valid UTF-8: byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} at offset ${low} (Latin-1 or Windows-1252, perhaps)`;
}

const formatBytes = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`);

/** Collects every exchange a probe makes, for evidence. */
export type Recorder = HttpClient & { exchanges: Exchange[] };

export function recorder(http: HttpClient): Recorder {
  const exchanges: Exchange[] = [];
  return {
    exchanges,
    ...(http.takeWaits ? { takeWaits: http.takeWaits } : {}),
    async send(request) {
      const exchange = await http.send(request);
      exchanges.push(exchange);
      return exchange;
    },
  };
}

export type Answer = { exchange: Exchange; response: JsonResponse } | { exchange: Exchange; problem: string };

/** Sends a request whose answer is read as JSON; with no answer at all, `problem` names what happened. */
export async function answer(http: HttpClient, request: HttpRequest): Promise<Answer> {
  const exchange = await http.send(request);
  return exchange.response ? { exchange, response: jsonResponse(exchange.response) } : { exchange, problem: exchange.failure?.message ?? 'no answer' };
}

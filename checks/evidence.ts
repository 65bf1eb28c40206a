import { visit } from 'jsonc-parser';

/**
 * The evidence one HTTP call leaves behind, as plain data. client/http.ts produces it; rules read it.
 */
export interface RequestRecord {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ResponseRecord {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  bytes: number;
  /** Set when the bytes were not plain UTF-8: a byte order mark, or invalid sequences (shown replaced by U+FFFD). */
  encodingProblem?: string;
}

export type TransportFailureKind =
  | 'timeout'
  | 'connection-refused'
  | 'connection-reset'
  | 'body-too-large'
  | 'dns'
  | 'invalid-url'
  /** A handshake refused for its protocol or certificate (client/tls.ts), or plain http:// in a production profile. */
  | 'tls'
  | 'plain-http'
  | 'network';

export interface TransportFailure {
  kind: TransportFailureKind;
  /** Names the behaviour, e.g. `no complete response within 10000 ms ("requestTimeoutMs")`. */
  message: string;
}

export interface Exchange {
  request: RequestRecord;
  /** Present when status and headers arrived, even if the body then failed. */
  response?: ResponseRecord;
  failure?: TransportFailure;
  startedAt: string;
  durationMs: number;
  /**
   * Set when the endpoint answered 429 or 503 with "Retry-After": `waitedMs` when the client waited it out
   * and this exchange is the one retry; without it, the wait was refused (too long, or not the first).
   */
  rateLimited?: { status: number; retryAfter: string; waitedMs?: number; refused?: 'too-long' | 'again' };
  /** Set when this is the request sent again on a new connection, after the first was closed before any response. */
  resentAfter?: string;
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; error: string };

/** A response that should carry JSON, parsed once and read by every rule. */
export interface JsonResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: JsonBody;
  /** Keys JSON.parse would have folded or let through silently, by path: `user.email`. */
  keys: { duplicates: string[]; proto: string[] };
  encodingProblem?: string;
}

/** Deeper than any payload of the spec: rules walk bodies recursively, so a deeper one is refused here. */
export const maxJsonDepth = 64;

/** The nesting depth of a parsed value, walked without recursion; it stops counting past `limit`. */
export function depthOf(value: unknown, limit = Infinity): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Node 24 adds "(line 1 column 34)" to JSON.parse's "at position 33": a partner's message is the same on every Node. */
const withoutLineAndColumn = (message: string) => message.replace(/(at position \d+) \(line \d+ column \d+\)/, '$1');

export function parseJson(body: string): JsonBody {
  let value: unknown;
  try {
    value = JSON.parse(body) as unknown;
  } catch (error) {
    return { ok: false, error: error instanceof Error ? withoutLineAndColumn(error.message) : String(error) };
  }
  if (depthOf(value, maxJsonDepth) > maxJsonDepth) return { ok: false, error: `it nests more than ${maxJsonDepth} levels deep` };
  return { ok: true, value };
}

/**
 * JSON.parse keeps the last of two equal keys and turns a "__proto__" key into an own property, both
 * without a word; a second, tokenizing pass (jsonc-parser) names them.
 */
export function keyProblemsOf(text: string): JsonResponse['keys'] {
  const keys: JsonResponse['keys'] = { duplicates: [], proto: [] };
  const open: Set<string>[] = [];
  const at = (path: (string | number)[], key: string) => [...path, key].map(String).join('.');
  visit(text, {
    onObjectBegin: () => void open.push(new Set()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (key, _offset, _length, _line, _column, pathSupplier) => {
      const seen = open.at(-1);
      if (seen?.has(key)) keys.duplicates.push(at(pathSupplier(), key));
      seen?.add(key);
      if (key === '__proto__') keys.proto.push(at(pathSupplier(), key));
    },
  });
  return keys;
}

const parsed = new WeakMap<ResponseRecord, JsonResponse>();

/** The response with its body parsed: once per response, however many rules, probes and redactors read it. */
export function jsonResponse(response: ResponseRecord): JsonResponse {
  let read = parsed.get(response);
  if (!read) parsed.set(response, (read = readJson(response)));
  return read;
}

function readJson(response: ResponseRecord): JsonResponse {
  const json = parseJson(response.body);
  return {
    status: response.status,
    headers: response.headers,
    body: response.body,
    json,
    keys: json.ok ? keyProblemsOf(response.body) : { duplicates: [], proto: [] },
    ...(response.encodingProblem ? { encodingProblem: response.encodingProblem } : {}),
  };
}

/** The body of a response when it is a JSON object. */
export const jsonObject = (response: JsonResponse): Record<string, unknown> | undefined =>
  response.json.ok && isObject(response.json.value) ? response.json.value : undefined;

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `application/json; charset=utf-8` → `application/json`. */
export const mediaType = (headers: Record<string, string>): string => (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * A short preview of a body for messages: its start, with control characters shown. It never cuts a word
 * (up to 200 characters more), so a secret the body quotes is shown whole, where masking finds it, not cut
 * to a fragment no mask would recognise.
 */
export function bodyPreview(body: string, max = 60): string {
  const flat = body
    .slice(0, max + 1000)
    .replace(/\s+/g, ' ')
    .trim();
  if (flat.length <= max) return JSON.stringify(flat);
  // Never a piece of a word: a word of up to 200 characters is shown whole (a secret is then masked whole), and a
  // longer one (a token, a code) not at all, so no preview holds a fragment of it too short to be recognised.
  const wordEnd = /^[^\s"'<>,;]{0,201}/.exec(flat.slice(max))![0].length;
  const wordStart = max - /[^\s"'<>,;]*$/.exec(flat.slice(0, max))![0].length;
  const cut = wordEnd <= 200 ? flat.slice(0, max + wordEnd) : flat.slice(0, wordStart).trimEnd();
  return JSON.stringify(cut.length < flat.length ? `${cut}…` : cut);
}

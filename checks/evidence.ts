/**
 * The evidence one HTTP call leaves behind, as plain data. probes/http.ts produces it; rules read it.
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
}

export type TransportFailureKind =
  | 'timeout'
  | 'connection-refused'
  | 'connection-reset'
  | 'body-too-large'
  | 'dns'
  | 'invalid-url'
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
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; error: string };

/** A response that should carry JSON, parsed once and read by every rule. */
export interface JsonResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: JsonBody;
}

export function parseJson(body: string): JsonBody {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export const jsonResponse = (response: ResponseRecord): JsonResponse => ({
  status: response.status,
  headers: response.headers,
  body: response.body,
  json: parseJson(response.body),
});

/** The body of a response when it is a JSON object. */
export const jsonObject = (response: JsonResponse): Record<string, unknown> | undefined =>
  response.json.ok && isObject(response.json.value) ? response.json.value : undefined;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `application/json; charset=utf-8` → `application/json`. */
export const mediaType = (headers: Record<string, string>): string =>
  (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A short, secret-free preview of a body for messages: its start, with control characters shown. */
export function bodyPreview(body: string, max = 60): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max)}…` : flat);
}

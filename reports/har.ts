import type { Exchange } from '../checks/evidence';

/**
 * A run's HTTP exchanges as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), which DevTools'
 * network panel and HTTP clients import. Built from the evidence as the tests attached it, masked, so it
 * holds nothing the evidence does not.
 */

interface NameValue {
  name: string;
  value: string;
}

const pairs = (record: Record<string, string>): NameValue[] => Object.entries(record).map(([name, value]) => ({ name, value }));

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** HAR's URLs are URIs (RFC 3986): a mask's brackets, or a hostile URL's spaces, percent-encoded after the host. */
function uriOf(url: string): string {
  const scheme = url.indexOf('://');
  const pathAt = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
  if (pathAt < 0) return url;
  const encode = (c: string) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate: U+FFFD
    }
  };
  return url.slice(0, pathAt) + url.slice(pathAt).replace(/[^A-Za-z0-9\-._~:/?#@!$&'()*+,;=%]/gu, encode);
}

const headerOf = (headers: Record<string, string>, name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

function entryOf({ request, response, failure, startedAt, durationMs, rateLimited }: Exchange, test: string) {
  const time = Math.max(0, Math.round(durationMs * 1000) / 1000);
  const body = request.body;
  const answered = response?.headers ?? {};
  return {
    startedDateTime: startedAt,
    time,
    request: {
      method: request.method,
      url: uriOf(request.url),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(request.headers),
      queryString: queryOf(request.url),
      ...(body !== undefined ? { postData: { mimeType: headerOf(request.headers, 'content-type') ?? '', text: body } } : {}),
      headersSize: -1,
      bodySize: body === undefined ? 0 : Buffer.byteLength(body),
    },
    // HAR has no place for an exchange without a response: status 0, as browsers export a failed request.
    response: {
      status: response?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(answered),
      content: { size: response?.bytes ?? 0, mimeType: headerOf(answered, 'content-type') ?? '', text: response?.body ?? '' },
      redirectURL: headerOf(answered, 'location') ?? '',
      headersSize: -1,
      bodySize: response?.bytes ?? -1,
    },
    cache: {},
    // The client times each exchange whole, from sending to the body's last byte; HAR's parts it cannot split.
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: time, receive: 0 },
    comment: test,
    ...(failure ? { _failure: failure } : {}),
    ...(rateLimited ? { _rateLimited: rateLimited } : {}),
  };
}

export function harOf(tests: readonly { title: string; exchanges: readonly Exchange[] }[], creator: { name: string; version: string }) {
  const entries = tests
    .flatMap((test) => test.exchanges.map((exchange) => entryOf(exchange, test.title)))
    .sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  return { log: { version: '1.2', creator, pages: [], entries } };
}

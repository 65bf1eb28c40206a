import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import nock from 'nock';
import { httpClient } from '../../client/http';
import type { Exchange } from '../../checks/evidence';
import { evaluate } from '../../checks/finding';
import { transportRule, transportRules } from '../../checks/transport';

const partner = 'http://partner.test';

test.describe('with nock', () => {
  test.beforeAll(() => nock.disableNetConnect());
  test.afterEach(() => nock.cleanAll());
  test.afterAll(() => nock.enableNetConnect());

  test('records method, URL, status, headers, body and timing', async () => {
    nock(partner).post('/token', 'a=1').reply(200, { access_token: 't' }, { 'Cache-Control': 'no-store' });
    const exchange = await httpClient({ timeoutMs: 1000 }).send({
      method: 'POST',
      url: `${partner}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(exchange.failure).toBeUndefined();
    expect(exchange.request).toEqual({
      method: 'POST',
      url: `${partner}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(exchange.response).toMatchObject({ status: 200, body: '{"access_token":"t"}', bytes: 20 });
    expect(exchange.response?.headers['cache-control']).toBe('no-store');
    expect(exchange.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(exchange.startedAt)).not.toBeNaN();
  });

  test('a response slower than the timeout is a named timeout, ended on time', async () => {
    nock(partner).get('/slow').delay(5000).reply(200, {});
    const exchange = await httpClient({ timeoutMs: 200 }).send({ method: 'GET', url: `${partner}/slow` });
    expect(exchange.failure).toEqual({ kind: 'timeout', message: 'no complete response within 200 ms ("requestTimeoutMs"): no response headers arrived' });
    expect(exchange.durationMs).toBeLessThan(2000);
  });

  test('a body over the cap is cut at the cap and named', async () => {
    nock(partner)
      .get('/huge')
      .reply(200, 'x'.repeat(2 * 1024 * 1024));
    const exchange = await httpClient({ timeoutMs: 5000, maxBodyBytes: 1024 * 1024 }).send({ method: 'GET', url: `${partner}/huge` });
    expect(exchange.failure).toEqual({ kind: 'body-too-large', message: 'the response body is larger than the 1 MiB cap; it was cut off there' });
    expect(exchange.response?.bytes).toBe(1024 * 1024);
    expect(exchange.response?.body).toHaveLength(1024 * 1024);
  });

  test('a redirect is recorded, never followed', async () => {
    nock(partner).post('/token').reply(307, '', { Location: 'http://elsewhere.test/token' });
    const elsewhere = nock('http://elsewhere.test').post('/token').reply(200, { access_token: 'stolen' });
    const exchange = await httpClient({ timeoutMs: 1000 }).send({ method: 'POST', url: `${partner}/token`, body: '{}' });
    expect(exchange.response?.status).toBe(307);
    expect(exchange.response?.headers.location).toBe('http://elsewhere.test/token');
    expect(elsewhere.isDone()).toBe(false);
  });

  test('a non-JSON body is recorded verbatim with its content type', async () => {
    nock(partner).get('/account').reply(200, '<html><body>Sign in</body></html>', { 'Content-Type': 'text/html' });
    const exchange = await httpClient({ timeoutMs: 1000 }).send({ method: 'GET', url: `${partner}/account` });
    expect(exchange.failure).toBeUndefined();
    expect(exchange.response).toMatchObject({ status: 200, body: '<html><body>Sign in</body></html>', headers: { 'content-type': 'text/html' } });
  });

  test('a connection reset is named, once the request sent again on a connection of its own was reset too', async () => {
    nock(partner).get('/account').times(2).replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    const exchange = await httpClient({ timeoutMs: 1000 }).send({ method: 'GET', url: `${partner}/account` });
    expect(exchange.failure).toEqual({ kind: 'connection-reset', message: 'partner.test closed the connection before any response' });
    expect(exchange.resentAfter).toBe('partner.test closed the connection before any response');
  });

  test('a request whose connection was closed before any response is sent once more, and its answer is judged', async () => {
    nock(partner).post('/token').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' }).post('/token').reply(200, { access_token: 't' });
    const exchange = await httpClient({ timeoutMs: 1000 }).send({ method: 'POST', url: `${partner}/token`, body: 'code=c' });
    expect(exchange.failure).toBeUndefined();
    expect(exchange).toMatchObject({ response: { status: 200 }, resentAfter: 'partner.test closed the connection before any response' });
  });
});

test.describe('on real loopback sockets', () => {
  let server: Server;
  let base: string;
  test.beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/drip') {
        // Headers at once, then a byte every 50 ms forever: an idle timeout would never fire.
        response.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => response.write(' '), 50);
        response.on('close', () => clearInterval(timer));
      } else if (request.url === '/bom') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
      } else if (request.url === '/latin-1') {
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(Buffer.from('{"name":"Müller"}', 'latin1'));
      } else if (request.url === '/gzip-bomb') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20)));
      } else if (request.url === '/reset') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('{"access_token":');
        setTimeout(() => request.socket.destroy(), 20);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a slow drip is cut by the overall deadline', async () => {
    const exchange = await httpClient({ timeoutMs: 400 }).send({ method: 'GET', url: `${base}/drip` });
    expect(exchange.failure).toEqual({
      kind: 'timeout',
      message: 'no complete response within 400 ms ("requestTimeoutMs"): the headers arrived but the body never finished',
    });
    expect(exchange.response?.status).toBe(200);
    expect(exchange.durationMs).toBeLessThan(2000);
  });

  test('a reset in the middle of the body is named', async () => {
    const exchange = await httpClient({ timeoutMs: 2000 }).send({ method: 'GET', url: `${base}/reset` });
    expect(exchange.failure?.kind).toBe('connection-reset');
    expect(exchange.failure?.message).toMatch(/closed the connection in the middle of the body$/);
  });

  test('a byte order mark and bytes that are not UTF-8 are recorded, with where the UTF-8 stops', async () => {
    const client = httpClient({ timeoutMs: 2000 });
    const bom = await client.send({ method: 'GET', url: `${base}/bom` });
    expect(bom.response).toMatchObject({ body: '{}', encodingProblem: 'starts with a UTF-8 byte order mark (EF BB BF)' });
    const latin1 = await client.send({ method: 'GET', url: `${base}/latin-1` });
    expect(latin1.response?.encodingProblem).toBe('is not valid UTF-8: byte 0xFC at offset 10 (Latin-1 or Windows-1252, perhaps)');
  });

  test('a gzip bomb is cut at the cap on the decompressed bytes, and named', async () => {
    const exchange = await httpClient({ timeoutMs: 5000, maxBodyBytes: 1024 * 1024 }).send({ method: 'GET', url: `${base}/gzip-bomb` });
    expect(exchange.failure).toEqual({
      kind: 'body-too-large',
      message: 'once decompressed ("content-encoding: gzip"), the response body is larger than the 1 MiB cap; it was cut off there',
    });
    expect(exchange.response?.bytes).toBe(1024 * 1024);
  });

  test('a refused connection is named', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const exchange = await httpClient({ timeoutMs: 2000 }).send({ method: 'GET', url: `http://127.0.0.1:${port}/` });
    expect(exchange.failure).toEqual({ kind: 'connection-refused', message: `connection refused by 127.0.0.1:${port}; is the server running?` });
  });
});

test.describe('a throttling partner is waited out once per endpoint, briefly, and never hammered', () => {
  let server: Server;
  let base = '';
  const hits = new Map<string, number>();
  test.beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const limited = (retryAfter?: string) => {
        response.writeHead(path.startsWith('/503') ? 503 : 429, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) });
        response.end('{"error":"slow_down"}');
      };
      if (path === '/once' && hits.get(path) === 1) return limited('1');
      if (path === '/long') return limited('60');
      if (path.startsWith('/always')) return limited('0');
      if (path === '/bare' || path === '/503-bare') return limited();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const judged = (exchange: Exchange) =>
    evaluate(transportRule(transportRules('token-exchange', 'tokenExchangeUrl', 'partner'), 'rate-limit'), exchange, undefined)[0]!;

  test('a 429 with "Retry-After: 1" is waited out and retried once, and noted', async () => {
    const started = performance.now();
    const client = httpClient({ timeoutMs: 2000 });
    const exchange = await client.send({ method: 'POST', url: `${base}/once` });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect([exchange.response?.status, exchange.rateLimited, judged(exchange).outcome]).toEqual([200, undefined, 'passed']);
    expect(hits.get('/once')).toBe(2);
    // The wait is handed over once, for whichever probe takes it to note.
    const [wait, ...more] = client.takeWaits!();
    expect([wait?.rateLimited, more, client.takeWaits!()]).toEqual([{ status: 429, retryAfter: '1', waitedMs: 1000 }, [], []]);
    expect(judged(wait!)).toMatchObject({ rule: 'token-exchange/rate-limit', outcome: 'info' });
  });

  test('a "Retry-After" over 5 s is not waited, and is a failure that names it', async () => {
    const exchange = await httpClient({ timeoutMs: 2000 }).send({ method: 'POST', url: `${base}/long` });
    expect(hits.get('/long')).toBe(1);
    expect(judged(exchange)).toMatchObject({
      outcome: 'failed',
      message: expect.stringMatching(/^"tokenExchangeUrl" answered 429 with "Retry-After: 60", longer than the 5 s the harness waits; /),
    });
  });

  test('a second throttle on the same endpoint is not waited again; one after the wait is named too', async () => {
    const client = httpClient({ timeoutMs: 2000 });
    const first = await client.send({ method: 'POST', url: `${base}/always` });
    expect(judged(first).message).toMatch(/^"tokenExchangeUrl" answered 429 with "Retry-After: 0", and again 429 after the harness waited 0 s; /);
    const second = await client.send({ method: 'POST', url: `${base}/always?other=query` });
    expect(judged(second).message).toMatch(/a second time, after the harness had already waited once for this endpoint; /);
    expect(hits.get('/always')).toBe(2);
    expect(hits.get('/always?other=query')).toBe(1);
  });

  test('a 429 without "Retry-After" fails at once; a 503 without it is left to the status rules', async () => {
    const client = httpClient({ timeoutMs: 2000 });
    expect(judged(await client.send({ method: 'POST', url: `${base}/bare` })).message).toMatch(/^"tokenExchangeUrl" answered 429 without "Retry-After"; /);
    expect(hits.get('/bare')).toBe(1);
    const unavailable = await client.send({ method: 'POST', url: `${base}/503-bare` });
    expect([unavailable.response?.status, unavailable.rateLimited, judged(unavailable).outcome]).toEqual([503, undefined, 'passed']);
  });
});

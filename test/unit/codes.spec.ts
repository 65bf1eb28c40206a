import { expect, test } from '@playwright/test';
import nock from 'nock';
import { limited, staticCodes } from '../../probes/codes';
import { mintedCodes } from '../../probes/minted-codes';
import { SetupError } from '../../client/setup-error';
import { httpClient } from '../../client/http';
import { tempDir } from '../support/temp';

test('static codes: each code is handed out once across sources sharing a claim folder, then a clear error', async () => {
  const claims = tempDir('claims-');
  const codes = ['a', 'b', 'c', 'd', 'e'];
  // Two sources on one folder stand for two worker processes.
  const [one, two] = [staticCodes(codes, claims, 7), staticCodes(codes, claims, 7)];
  const handed = await Promise.all([1, 2, 3, 4, 5].map((i) => (i % 2 ? one : two).next()));
  expect(handed.sort()).toEqual(codes);
  await expect(two.next()).rejects.toThrow(
    new SetupError('code-source', '"codes.static" ran out: it holds 5 codes and this run needs 7; ask the partner for 7 fresh codes'),
  );
});

test.describe('minted codes', () => {
  test.beforeAll(() => nock.disableNetConnect());
  test.afterEach(() => nock.cleanAll());
  test.afterAll(() => nock.enableNetConnect());
  const http = httpClient({ timeoutMs: 1000 });

  test('a POST with no body answers {"code": …}', async () => {
    nock('http://partner.test')
      .post('/codes', (body) => body === '' || body === undefined)
      .reply(200, { code: 'fresh-1' });
    expect(await mintedCodes('http://partner.test/codes', http).next()).toBe('fresh-1');
  });

  test('one code is minted ahead, and one that waited too long is dropped for a code minted just in time', async () => {
    let clock = 0;
    let minted = 0;
    nock('http://partner.test')
      .post('/codes')
      .times(4)
      .reply(200, () => ({ code: `code-${++minted}` }));
    const source = mintedCodes('http://partner.test/codes', http, { maxAgeMs: 30_000, now: () => clock });
    expect(await source.next()).toBe('code-1');
    // code-2 was minted ahead; while it waits 31 s, it ages past 30 s and is never handed out.
    await expect.poll(() => minted).toBe(2);
    clock += 31_000;
    expect(await source.next()).toBe('code-4');
    expect(minted).toBe(4);
  });

  // The pauses are recorded, not waited: `pause` is the source's clock for them. A source mints one code ahead
  // once the hook has given one.
  const pausing = () => {
    const paused: number[] = [];
    return { paused, pause: async (ms: number) => void paused.push(ms) };
  };
  // A client that waits out no "Retry-After" itself, so the source's own pauses are what the tests see.
  const unthrottled = httpClient({ timeoutMs: 1000, maxRetryAfterMs: 0 });

  test('a transient failure (a 5xx, a 429, a timeout) is asked again after 0.5 s, then 1.5 s, and each retry is handed over once, with why', async () => {
    let asked = 0;
    nock('http://partner.test')
      .post('/codes')
      .times(4)
      .reply(() => (++asked === 1 ? [500, 'busy'] : asked === 2 ? [429, 'slow down'] : [200, { code: `code-${asked}` }]));
    const { paused, pause } = pausing();
    const source = mintedCodes('http://partner.test/codes', unthrottled, { pause });
    expect(await source.next()).toBe('code-3');
    await expect.poll(() => asked).toBe(4);
    expect(paused).toEqual([500, 1500]);
    expect(source.takeRetries!()).toEqual(['answered 500', 'answered 429']);
    expect(source.takeRetries!()).toEqual([]);
    // No answer within the client's 1 s: asked again, once.
    nock.cleanAll();
    nock('http://partner.test').post('/codes').delay(1500).reply(200, { code: 'too-late' }).post('/codes').times(2).reply(200, { code: 'in-time' });
    const timedOut = pausing();
    const again = mintedCodes('http://partner.test/codes', unthrottled, { pause: timedOut.pause });
    expect(await again.next()).toBe('in-time');
    expect(await again.next()).toBe('in-time');
    expect(timedOut.paused).toEqual([500]);
    expect(again.takeRetries!()).toEqual(['timed out']);
  });

  test('a mint hook that keeps failing is asked exactly 3 times, after 0.5 s and 1.5 s, then a set-up error quoting its answer', async () => {
    let asked = 0;
    nock('http://partner.test')
      .post('/codes')
      .times(4)
      .reply(() => (++asked, [500, 'down']));
    const { paused, pause } = pausing();
    const source = mintedCodes('http://partner.test/codes', unthrottled, { pause });
    await expect(source.next()).rejects.toThrow(
      new SetupError(
        'code-source',
        '"codes.mintUrl" answered 500 "down", 3 times (asked again after 0.5 s and 1.5 s); it should answer 200 with {"code": "…"}',
      ),
    );
    // No code is minted ahead of a hook that has given none.
    expect(asked).toBe(3);
    expect(paused).toEqual([500, 1500]);
    expect(source.takeRetries!()).toEqual(['answered 500', 'answered 500']);
  });

  test('a short Retry-After is waited out instead of a shorter pause; a long one is not waited for', async () => {
    nock('http://partner.test').post('/codes').reply(503, 'later', { 'retry-after': '1' }).post('/codes').times(2).reply(200, { code: 'fresh' });
    const short = pausing();
    expect(await mintedCodes('http://partner.test/codes', unthrottled, { pause: short.pause }).next()).toBe('fresh');
    expect(short.paused).toEqual([1000]);
    nock.cleanAll();
    nock('http://partner.test').post('/codes').times(2).reply(503, 'much later', { 'retry-after': '60' });
    const long = pausing();
    await expect(mintedCodes('http://partner.test/codes', unthrottled, { pause: long.pause }).next()).rejects.toThrow(
      '"codes.mintUrl" answered 503 "much later"; it asked to be asked again after 60 s ("Retry-After: 60"), longer than the 5 s a run waits; it should answer 200 with {"code": "…"}',
    );
    expect(long.paused).toEqual([]);
  });

  test('a 4xx, or an answer without a code, is not asked again (a 5xx before it is: the control)', async () => {
    let asked = 0;
    nock('http://partner.test')
      .post('/codes')
      .times(2)
      .reply(() => (++asked, [400, '{"error":"invalid_request"}']));
    const { paused, pause } = pausing();
    const source = mintedCodes('http://partner.test/codes', unthrottled, { pause });
    await expect(source.next()).rejects.toThrow('"codes.mintUrl" answered 400 "{\\"error\\":\\"invalid_request\\"}"; it should answer 200');
    expect(asked).toBe(1);
    expect(paused).toEqual([]);
    expect(source.takeRetries!()).toEqual([]);
    nock.cleanAll();
    nock('http://partner.test').post('/codes').reply(502, 'gateway').post('/codes').times(2).reply(200, { token: 'no code' });
    const control = pausing();
    await expect(mintedCodes('http://partner.test/codes', unthrottled, { pause: control.pause }).next()).rejects.toThrow('without a "code" string');
    expect(control.paused).toEqual([500]);
  });

  test('a broken mint hook is a clear set-up error', async () => {
    nock('http://partner.test').post('/codes').reply(404, '<h1>Not Found</h1>').post('/codes').reply(200, { token: 'x' });
    const source = mintedCodes('http://partner.test/codes', http);
    await expect(source.next()).rejects.toThrow('"codes.mintUrl" answered 404 "<h1>Not Found</h1>"; it should answer 200 with {"code": "…"}');
    await expect(source.next()).rejects.toThrow(
      '"codes.mintUrl" answered "{\\"token\\":\\"x\\"}" without a "code" string; it should answer 200 with {"code": "…"}',
    );
  });
});

test('browser logins run at most a few at once, in the order asked, and a failed one frees its place', async () => {
  const slot = limited(4);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const login = (i: number) =>
    slot(async () => {
      started.push(i);
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (i % 3 === 0) throw new Error(`login ${i} failed`);
      return i;
    });
  const outcomes = await Promise.allSettled(Array.from({ length: 15 }, (_, i) => login(i)));
  expect(most).toBe(4);
  expect(started).toEqual(Array.from({ length: 15 }, (_, i) => i));
  expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(5);
});

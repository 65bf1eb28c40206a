import { expect, test } from '@playwright/test';
import nock from 'nock';
import { limited, mintedCodes, staticCodes } from '../../probes/codes';
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

  test('a mint hook that fails for a moment (a 5xx) is asked once more; one that fails twice is a set-up error', async () => {
    // One code is minted ahead too: each mint may be asked twice.
    nock('http://partner.test').post('/codes').reply(503, 'busy').post('/codes').times(3).reply(200, { code: 'after-a-pause' });
    expect(await mintedCodes('http://partner.test/codes', http).next()).toBe('after-a-pause');
    nock.cleanAll();
    nock('http://partner.test').post('/codes').times(4).reply(500, 'down');
    await expect(mintedCodes('http://partner.test/codes', http).next()).rejects.toThrow('"codes.mintUrl" answered 500 "down"');
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

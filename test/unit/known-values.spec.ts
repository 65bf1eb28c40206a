import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import nock from 'nock';
import { jsonResponse, type Exchange, type ResponseRecord } from '../../checks/evidence';
import { bodyJsonObject } from '../../checks/token-response';
import { httpClient } from '../../client/http';
import { mintedCodes } from '../../probes/minted-codes';
import { preflightOutcome } from '../../probes/preflight';
import { redact, redactEvidence } from '../../redaction/redact';
import { secretsOf } from '../../redaction/secrets';
import { referenceProfile } from '../support/profiles';

/**
 * Issue 50, item 3: every value the run can know is known before anything is written. Each case plants a value a
 * partner's answer carries where the run did not look for it, and shows it masked once the run has learned it.
 */

/** Every run of 10 characters of `value` that `text` still holds, in any case. */
const left = (text: string, value: string) =>
  Array.from({ length: Math.max(1, value.length - 9) }, (_, at) => value.slice(at, at + 10).toLowerCase()).filter((run) => text.toLowerCase().includes(run));

const answered = (
  response: Omit<ResponseRecord, 'bytes'>,
  request: Exchange['request'] = { method: 'POST', url: 'https://p.example/oauth/token', headers: {} },
) => ({
  request,
  response: { ...response, bytes: response.body.length },
  startedAt: '',
  durationMs: 1,
});

test.describe('1. every code a mint hook answer carries, whatever its status', () => {
  test.beforeAll(() => nock.disableNetConnect());
  test.afterEach(() => nock.cleanAll());
  test.afterAll(() => nock.enableNetConnect());
  const http = httpClient({ timeoutMs: 1000, maxRetryAfterMs: 0 });
  const code = 'm1nted-Qx7Kp2Lw9Rt4Vz';
  const answers: Record<string, [status: number, body: string, headers?: Record<string, string>]> = {
    'a 500 quoting the code it minted, in JSON': [500, JSON.stringify({ error: 'could not store it', code })],
    'a 500 with the code in an HTML page': [500, `<html><body><pre>{"code": "${code}", "stored": false}</pre></body></html>`],
    'a 500 with the code as a form pair': [500, `stored=false&code=${code}&retry=1`],
    'a 307 to another host with the code in its Location': [307, '', { location: `https://elsewhere.example/callback?code=${code}&state=x` }],
    'a 200 with the code nested, not where the hook should put it': [200, JSON.stringify({ data: { code } })],
    'a 400 with the code as a JSON string escaped in another': [400, JSON.stringify({ error: `upstream said ${JSON.stringify({ code })}` })],
  };
  for (const [what, [status, body, headers]] of Object.entries(answers)) {
    test(what, async () => {
      nock('http://partner.test').post('/codes').times(3).reply(status, body, headers);
      const received: string[] = [];
      const source = mintedCodes('http://partner.test/codes', http, { pause: async () => {}, received: (value) => received.push(value) });
      const error = await source.next().then(
        () => undefined,
        (thrown: unknown) => thrown as Error,
      );
      // Told to the run before the error is thrown, so the worker's vault masks the error and every answer echoing the code.
      expect(received).toContain(code);
      expect(error?.message).toMatch(/^"codes\.mintUrl" answered /);
      // The error quotes the answer with the code whole (a preview cuts no word to a fragment), so that masking with what was received leaves none of it.
      expect(left(redact(`${error!.message} ${body} ${headers?.location ?? ''}`, secretsOf([], received)), code)).toEqual([]);
      if (status === 307) expect(error!.message).toContain('(a redirect to https://elsewhere.example/callback, not followed)');
    });
  }

  test("every answer asked again tells its codes, in a Location's fragment too; a code in a number is a code", async () => {
    nock('http://partner.test')
      .post('/codes')
      .reply(503, { code: 'f1rst-answer-c0de-Lq2' })
      .post('/codes')
      .reply(503, '', { location: 'https://elsewhere.example/cb#code=s3cond-answer-c0de-Wq8' })
      .post('/codes')
      .reply(200, { code: 48213377 });
    const received: string[] = [];
    const error = await mintedCodes('http://partner.test/codes', http, { pause: async () => {}, received: (value) => received.push(value) })
      .next()
      .catch((thrown: Error) => thrown);
    expect(received).toEqual(['f1rst-answer-c0de-Lq2', 's3cond-answer-c0de-Wq8', '48213377']);
    // As the run's egress hands it out: masked with what the run was told first.
    expect(redact((error as Error).message, secretsOf([], received))).toBe(
      '"codes.mintUrl" answered "{\\"code\\":[redacted]}" without a "code" string, 3 times (asked again after 0.5 s and 1.5 s); it should answer 200 with {"code": "…"}',
    );
  });

  test('the control: a 200 with its code is told once and handed out; an answer without a code tells nothing', async () => {
    nock('http://partner.test').post('/codes').reply(200, { code }).post('/codes').reply(400, { error: 'invalid_request', message: 'try later' });
    const received: string[] = [];
    const source = mintedCodes('http://partner.test/codes', http, { pause: async () => {}, received: (value) => received.push(value) });
    expect(await source.next()).toBe(code);
    await expect.poll(() => nock.isDone()).toBe(true);
    expect(received).toEqual([code]);
  });
});

test('2. the preflight: what its own mint received masks its lines, and it mints one code, not one ahead', async () => {
  const code = 'pr3fl1ght-c0de-Zt9Wq4Xy';
  let mints = 0;
  let minted!: () => void;
  const mintDone = new Promise<void>((resolve) => (minted = resolve));
  const server = createServer((request, response) => {
    request.resume();
    if (request.url === '/mint') {
      mints++;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code }));
      return minted();
    }
    // The token endpoint answers the preflight's empty request 404, quoting the last code minted.
    if (request.url === '/token')
      return void mintDone.then(() => response.writeHead(404, { 'content-type': 'text/plain' }).end(`no route; last code issued: ${code}`));
    response.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { platform: _platform, dataApi: _dataApi, ...reference } = referenceProfile(origin);
    const profile = {
      ...reference,
      tokenExchangeUrl: `${origin}/token`,
      accountInfoUrl: `${origin}/account`,
      fundingSourcesUrl: `${origin}/funding`,
      codes: { mintUrl: `${origin}/mint` },
    };
    const outcome = await preflightOutcome(profile);
    // Returned for the printer: the line as the partner worded it, and what to mask it with.
    expect(outcome.problems).toEqual([expect.stringContaining(code)]);
    expect(outcome.secrets.map((secret) => secret.value)).toContain(code);
    await new Promise((settle) => setTimeout(settle, 200));
    expect(mints).toBe(1);
    // As the run's coordinator prints it: masked with those secrets (end to end: test/self/one-egress.spec.ts).
    expect(outcome.problems.map((line) => redact(line, outcome.secrets))).toEqual([
      expect.stringMatching(/^"tokenExchangeUrl" \(.*\/token\) answered 404 to an empty token request \("no route; last code issued: \[redacted\]"\)/),
    ]);
  } finally {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  }
});

test.describe('3. tokens in an answer that does not parse as JSON', () => {
  const token = 'at-9Kq2Lw7Rt4Vz1Xy8Mn3Bp6';
  const refresh = 'rt-4Hc8Jd2Ke6Lf0Mg7Nh5Pq1';
  const bodies: Record<string, string> = {
    'JSON followed by a comment repeating the token': `{"access_token":"${token}","token_type":"Bearer"} // token: ${token}`,
    'JSON cut short inside the refresh token': `{"access_token":"${token}","refresh_token":"${refresh}`,
    'JSON inside an HTML page': `<html><body><p>Issued</p><pre>{"access_token": "${token}", "refresh_token": "${refresh}"}</pre> ${token}</body></html>`,
    'HTML-escaped JSON inside an HTML page': `<p>{&quot;access_token&quot;:&quot;${token}&quot;}</p><!-- ${token} -->`,
    'a Python dict': `{'access_token': '${token}', 'refresh_token': '${refresh}'} issued ${token}`,
    'form pairs inside a page': `<p>Issued: access_token=${token}&refresh_token=${refresh}&token_type=bearer</p><!-- ${token} -->`,
    'a log line': `issued: access_token="${token}" for client reference-client; ${token}`,
  };
  for (const [what, body] of Object.entries(bodies)) {
    test(what, () => {
      const exchange = answered({ status: 200, headers: { 'content-type': 'application/json' }, body });
      const secrets = secretsOf([exchange]);
      // The rule's message quotes the body's start or end; the HAR and the certification hold it whole.
      const message = bodyJsonObject.check(jsonResponse(exchange.response), undefined)[0]?.message ?? '';
      const written = `${message}\n${JSON.stringify(redactEvidence([exchange], secrets))}`;
      expect(left(redact(written, secrets), token)).toEqual([]);
      if (body.includes(refresh)) expect(left(redact(written, secrets), refresh)).toEqual([]);
    });
  }

  test('the control: a body\'s words stay, and an answer\'s "code" is still an error code', () => {
    const body = '{"code":"MISSING_FILTER_ORGANIZATION","message":"token_type Bearer expected"} trailing';
    const secrets = secretsOf([answered({ status: 400, headers: {}, body })]);
    expect(secrets).toEqual([]);
    expect(redact(body, secrets)).toBe(body);
  });

  test('a JSON string holding fields, in a body that parses', () => {
    const body = JSON.stringify({ error: 'upstream_failed', detail: `upstream answered {"access_token": "${token}"}`, seen: token });
    expect(left(redact(body, secretsOf([answered({ status: 502, headers: {}, body })])), token)).toEqual([]);
  });
});

test.describe('5. values an answer carries outside its body', () => {
  test("a session cookie a partner endpoint sets, and a code or token in a redirect's Location", () => {
    const [session, code, token] = ['s3ss10n-Kq2Lw7Rt4Vz', 'l0cat10n-c0de-Wq8Zt', 'fr4gment-t0ken-Mn3Bp'];
    const exchange = answered({
      status: 302,
      headers: { 'set-cookie': `sid=${session}; Path=/; HttpOnly\nlang=en`, location: `https://app.example/cb?code=${code}#access_token=${token}` },
      body: `see ${session} ${code} ${token}`,
    });
    const secrets = secretsOf([exchange]);
    expect(secrets.map((secret) => secret.value)).toEqual([session, code, token]);
    expect(redact(JSON.stringify(exchange), secrets)).not.toMatch(new RegExp(`${session}|${code}|${token}`));
  });

  test('a token under a camel-case name is learned, and masked by shape where the run never saw it', () => {
    const token = 'camel-t0ken-Kq2Lw7Rt4Vz';
    const body = JSON.stringify({ accessToken: token, idToken: `${token}-id`, note: token });
    expect(redact(body, secretsOf([answered({ status: 200, headers: {}, body })]))).not.toContain(token.slice(0, 12));
    expect(redact('{"accessToken":"never-seen-0123456789"} #access_token=never-seen-too-0123', [])).toBe(
      '{"accessToken":"[redacted]"} #access_token=[redacted]',
    );
  });
});

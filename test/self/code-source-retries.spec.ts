import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { endpointsOf, partnersDir, referenceProfile } from '../support/profiles';
import { readCertification, runPlaywright } from '../support/run-playwright';
import { startReferencePartner } from '../support/sandbox';

/**
 * A partner's mint hook that fails for a moment (a 500, no answer in time) is asked again, and the run completes,
 * saying how often and why; one that always fails stops its tests after exactly 3 requests each, quoting it; a
 * 4xx is asked once (probes/minted-codes.ts).
 */

type Answer = 'mint' | 'hang' | { status: number; body: string };

/** A mint hook on loopback that answers its n-th request (from 1) as `answerTo` says, minting through the reference partner's hook. */
async function mintHook(referenceMintUrl: string, answerTo: (n: number) => Answer) {
  let requests = 0;
  const hung: ServerResponse[] = [];
  const server = createServer((request, response) => {
    request.resume();
    const answer = answerTo(++requests);
    if (answer === 'hang') return void hung.push(response); // until the harness gives up on it
    if (answer !== 'mint') return void response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
    void fetch(referenceMintUrl, { method: 'POST' }).then(async (minted) =>
      response.writeHead(minted.status, { 'content-type': 'application/json' }).end(await minted.text()),
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/test-hooks/codes`,
    requests: () => requests,
    close: () => {
      for (const response of hung) response.destroy();
      server.closeAllConnections();
      return new Promise((closed) => server.close(closed));
    },
  };
}

let partner: Awaited<ReturnType<typeof startReferencePartner>>;
test.beforeAll(async () => (partner = await startReferencePartner()));
test.afterAll(() => partner.close());

/** A certification of the reference partner (its HTTP side) with codes from `hook`, without the preflight (it would mint a code first). */
async function certifyWith(name: string, hook: { url: string }, args: string[] = []) {
  const profile = { ...endpointsOf(referenceProfile(partner.origin)), codes: { mintUrl: hook.url }, requestTimeoutMs: 5000 };
  const run = await runPlaywright(
    [`--project=${name}`, ...args],
    { PARTNERS_DIR: partnersDir({ [name]: profile }), CERTIFY_NO_PREFLIGHT: '1' },
    { reporters: ['certification'] },
  );
  return { run, cert: readCertification(run, name) };
}

const configuredExchange = "the configured encoding's token exchange issues a working token";

test('a mint hook that answers 500, then does not answer in time, then mints: CERTIFIED, and the report counts both retries and why', async () => {
  test.setTimeout(180_000);
  const hook = await mintHook(referenceProfile(partner.origin).codes.mintUrl!, (n) => (n === 1 ? { status: 500, body: 'busy' } : n === 2 ? 'hang' : 'mint'));
  try {
    const { run, cert } = await certifyWith('flaky-mint', hook);
    expect(cert.verdict, cert.summary).toBe('CERTIFIED');
    expect(cert.codeRetries).toEqual([
      { reason: 'answered 500', count: 1 },
      { reason: 'timed out', count: 1 },
    ]);
    const said = '2 code requests retried (the code source answered 500 once, timed out once)';
    expect(cert.summary).toMatch(new RegExp(`^CERTIFIED: \\d+ of \\d+ rules passed, .*, ${said.replace(/[()]/g, '\\$&')}$`));
    expect(readFileSync(path.join(run.out, 'certification', 'flaky-mint', 'certification.html'), 'utf8')).toContain(said);
    // Every code the run spent was minted: more requests than the two that failed.
    expect(hook.requests()).toBeGreaterThan(10);
  } finally {
    await hook.close();
  }
});

test('a mint hook that always answers 500 is asked exactly 3 times for each code, then the test is INCOMPLETE quoting it; a 400 is asked once (the control)', async () => {
  test.setTimeout(120_000);
  const mintUrl = referenceProfile(partner.origin).codes.mintUrl!;
  const [down, refusing] = await Promise.all([
    mintHook(mintUrl, () => ({ status: 500, body: 'mint hook down' })),
    mintHook(mintUrl, () => ({ status: 400, body: 'no test user' })),
  ]);
  try {
    // Two code requests: the worker's set-up's (it reads the test user's data whatever the run selects) and the one test's.
    const [failing, refused] = await Promise.all([
      certifyWith('down-mint', down, ['-g', configuredExchange]),
      certifyWith('refusing-mint', refusing, ['-g', configuredExchange]),
    ]);
    expect(down.requests()).toBe(6);
    expect(refusing.requests()).toBe(2);
    const errorsOf = (cert: typeof failing.cert) => cert.tests.filter((t) => t.title === configuredExchange).flatMap((t) => t.errors);
    expect(failing.cert.verdict).toBe('INCOMPLETE');
    expect(errorsOf(failing.cert).join('\n')).toContain(
      '"codes.mintUrl" answered 500 "mint hook down", 3 times (asked again after 0.5 s and 1.5 s); it should answer 200 with {"code": "…"}',
    );
    expect(failing.cert.codeRetries).toEqual([{ reason: 'answered 500', count: 4 }]);
    expect(failing.cert.summary).toContain('4 code requests retried (the code source answered 500 4 times)');
    expect(refused.cert.verdict).toBe('INCOMPLETE');
    expect(errorsOf(refused.cert).join('\n')).toContain('"codes.mintUrl" answered 400 "no test user"; it should answer 200 with {"code": "…"}');
    expect(refused.cert.codeRetries).toEqual([]);
    expect(refused.cert.summary).not.toContain('retried');
  } finally {
    await Promise.all([down.close(), refusing.close()]);
  }
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { evaluate } from '../../checks/finding';
import { issuedLink, linkAlgorithm } from '../../checks/mock-link';
import { jsonResponse } from '../../checks/evidence';
import { httpClient } from '../../client/http';
import { verifiedWith } from '../../probes/mock-link';

/** platform.mockLink.jwksUrl: an issued link's signature verifies with the keys the platform publishes, over real loopback HTTP. */

let server: Server;
let base: string;
const keySets: Record<string, object> = {};
test.beforeAll(async () => {
  server = createServer((request, response) =>
    response
      .writeHead(keySets[request.url!] ? 200 : 404, { 'content-type': 'application/json' })
      .end(JSON.stringify(keySets[request.url!] ?? { error: 'not_found' })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise((resolve) => server.close(resolve)));

test("a link signed with the platform's published key verifies; one signed with another key of the same algorithm, or without a key set, does not", async () => {
  const platform = await generateKeyPair('RS256', { extractable: true });
  const forger = await generateKeyPair('RS256', { extractable: true });
  keySets['/jwks.json'] = { keys: [{ ...(await exportJWK(platform.publicKey)), alg: 'RS256', kid: 'k1' }] };
  const sign = (key: CryptoKey) => new SignJWT({ acct: {} }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuedAt().setExpirationTime('10m').sign(key);
  const http = httpClient({ timeoutMs: 2_000 });
  const judge = async (token: string, url: string) => {
    const issued = issuedLink(jsonResponse({ status: 200, headers: {}, body: JSON.stringify({ link: `https://app.example/sso?token=${token}` }), bytes: 0 }));
    const signature = await verifiedWith(http, url, token, ['RS256']);
    return evaluate(linkAlgorithm, { ...issued, shape: { algorithms: ['RS256'], claim: 'acct', maxLifetimeSeconds: 900 }, signature }, undefined).map(
      (f) => `${f.outcome}: ${f.message}`,
    );
  };
  expect(await judge(await sign(platform.privateKey), `${base}/jwks.json`)).toEqual([expect.stringMatching(/^passed: /)]);
  expect(await judge(await sign(forger.privateKey), `${base}/jwks.json`)).toEqual([
    expect.stringMatching(/^failed: the JWT's signature does not verify with the keys at "platform\.mockLink\.jwksUrl": signature verification failed/),
  ]);
  expect(await judge(await sign(platform.privateKey), `${base}/no-such-keys`)).toEqual([expect.stringMatching(/^failed: .*the key set answered 404/)]);
  await http.close?.();
});

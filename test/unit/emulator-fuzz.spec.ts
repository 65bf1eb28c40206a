import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { platformSandbox } from '../../sandbox/platform/server';
import { bearer, emulatorUnderAttack, mockLinkPath, validLink } from '../support/emulator-under-attack';

/**
 * The platform emulator under generated attack, over real loopback HTTP: 10,000+ requests to the mock link
 * and the data API, most of them invalid. None gets a 5xx, and the emulator still serves afterwards.
 */

const { send } = emulatorUnderAttack();

test('10,000 generated requests to the mock link and the data API: no 5xx, and the emulator still serves', async () => {
  test.setTimeout(180_000);
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('', ' ', '%', '%FF', '../', '\u0000', 'null', '1e9', '-1', '0', '1.5', randomUUID()),
  );
  const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }));
  const mockLink = fc.record({
    kind: fc.constant('mock-link' as const),
    method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE'),
    apiKey: fc.oneof(fc.constant(platformSandbox.apiKey), text),
    contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', ''),
    body: fc.oneof(
      // The valid request with fields replaced, removed or added: closest to what reaches deep code.
      fc
        .dictionary(fc.constantFrom('partnerName', 'token', 'externalUserId', 'externalOrgId', 'accountInfo', 'extra', '__proto__', 'constructor'), value, {
          maxKeys: 3,
        })
        .map((edits) => JSON.stringify({ ...validLink(), ...edits })),
      fc.record({ user: fc.dictionary(text, value), company: fc.dictionary(text, value) }).map((info) => JSON.stringify({ ...validLink(), accountInfo: info })),
      fc.jsonValue().map((json) => JSON.stringify(json)),
      text,
    ),
  });
  const dataApi = fc.record({
    kind: fc.constant('data-api' as const),
    method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'DELETE'),
    path: fc.constantFrom('/v1/organizations', '/v1/bills', '/v1/payments', '/v1/vendors', '/v1/bills/', '/v1/unknown'),
    authorization: fc.oneof(
      fc.constant(`Bearer ${platformSandbox.dataApiToken}`),
      fc.constant(`bearer  ${platformSandbox.dataApiToken}`),
      text.map((t) => `Bearer ${t}`),
      text,
    ),
    query: fc.array(
      fc.tuple(
        fc.constantFrom('limit', 'after', 'ids', 'organizationId', 'x'),
        fc.oneof(text, fc.integer().map(String), fc.constantFrom('org-1', 'bill-00001', '100', '0')),
      ),
      { maxLength: 4 },
    ),
  });
  let requests = 0;
  const server5xx: string[] = [];
  await fc.assert(
    fc.asyncProperty(fc.oneof(mockLink, dataApi), async (generated) => {
      requests++;
      let response: Response;
      if (generated.kind === 'mock-link') {
        const headers: Record<string, string> = { 'api-key': generated.apiKey.replace(/[^\t\x20-\x7e]/g, '') };
        if (generated.contentType) headers['content-type'] = generated.contentType;
        response = await send(generated.method, mockLinkPath, generated.method === 'GET' ? undefined : generated.body, headers);
      } else {
        const query = new URLSearchParams(generated.query).toString();
        response = await send(generated.method, `${generated.path}?${query}`, undefined, {
          authorization: generated.authorization.replace(/[^\t\x20-\x7e]/g, ''),
        });
      }
      const body = await response.text();
      if (response.status >= 500) server5xx.push(`${response.status} ${JSON.stringify(generated).slice(0, 300)}: ${body.slice(0, 200)}`);
      return response.status < 500;
    }),
    { numRuns: 10_000, seed: Number(process.env.FC_SEED ?? 20261121), verbose: false },
  );
  expect(server5xx).toEqual([]);
  expect(requests).toBeGreaterThanOrEqual(10_000);
  // Still serving, correctly.
  expect((await send('POST', mockLinkPath, JSON.stringify(validLink()))).status).toBe(200);
  expect((await send('GET', '/v1/organizations', undefined, bearer())).status).toBe(200);
});

import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { platformSandbox } from '../../sandbox/platform/server';
import { startPlatform } from './sandbox';

export const mockLinkPath = '/v1/auth/providers/standard/create-mock-link';
export const bearer = (token = platformSandbox.dataApiToken) => ({ authorization: `Bearer ${token}` });
export const accountInfo = { user: { id: 'u-1', email: 'a@example.com', firstName: 'Ada', lastName: 'Lovelace' }, company: { id: 'c-1', name: 'Acme' } };
export const validLink = () => ({ partnerName: 'acme', token: randomUUID(), externalUserId: 'u-1', externalOrgId: 'c-1', accountInfo });

/**
 * A platform emulator for the tests of one file, with partner "acme" configured: started before the first
 * test and closed after the last. `platform` is filled in then; `send` sends the api key unless told otherwise.
 */
export function emulatorUnderAttack() {
  const platform = {} as Awaited<ReturnType<typeof startPlatform>>;
  const send = (
    method: string,
    path: string,
    body?: string | Uint8Array<ArrayBuffer>,
    headers: Record<string, string> = { 'api-key': platformSandbox.apiKey, 'content-type': 'application/json' },
  ) => fetch(`${platform.origin}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  test.beforeAll(async () => {
    Object.assign(platform, await startPlatform());
    const configured = await send(
      'PUT',
      '/v1/emulator/partners/acme',
      JSON.stringify({
        tokenExchangeUrl: 'http://127.0.0.1:9/token',
        accountInfoUrl: 'http://127.0.0.1:9/account',
        tokenExchangeEncoding: 'json',
        requestTimeoutMs: 1000,
        hostOrigin: platform.hostOrigin,
        // The test user carries only the always-required fields: the collection screen asks for the rest.
        collectMissingAccountInfo: true,
      }),
    );
    expect(configured.status).toBe(200);
  });
  test.afterAll(() => platform.close());
  return { platform, send };
}

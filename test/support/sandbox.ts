import type { AddressInfo } from 'node:net';
import { test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { buildHostPage } from '../../sandbox/host-page/server';
import { buildPlatform, platformSandbox, type PlatformOptions } from '../../sandbox/platform/server';
import type { PlatformFault } from '../../sandbox/platform/faults';
import { buildReferencePartner, type ReferencePartnerOptions } from '../../sandbox/reference-partner/server';
import type { PlatformProfile } from '../../profile/profile-schema';

/**
 * Listens on an ephemeral port, or with `prefixable` on a free one of four digits (below 6554): an origin
 * that a digit more still leaves an origin, the look-alike a listener checking with startsWith accepts.
 */
async function listen(app: FastifyInstance, scheme = 'http', { prefixable = false } = {}) {
  for (let tries = 0; prefixable && tries < 50; tries++) {
    const port = 5_000 + Math.floor(Math.random() * 1_554);
    const taken = await app.listen({ host: '127.0.0.1', port }).then(
      () => false,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EADDRINUSE') throw error;
        return true;
      },
    );
    if (!taken) return { origin: `${scheme}://127.0.0.1:${port}`, close: () => app.close() };
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { origin: `${scheme}://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
}

/** A reference partner of the test's own, on an ephemeral loopback port (https:// with `options.https`). */
export const startReferencePartner = (options: ReferencePartnerOptions = {}) => listen(buildReferencePartner(options), options.https ? 'https' : 'http');

/** A platform emulator and a host page of the test's own, each on an ephemeral port (so on origins of their own). */
export async function startPlatform(options: PlatformOptions = {}, { prefixable = false } = {}) {
  const [platform, host] = await Promise.all([listen(buildPlatform(options), 'http', { prefixable }), listen(buildHostPage())]);
  return {
    origin: platform.origin,
    hostOrigin: host.origin,
    /** The profile's "platform" block for this emulator, with `faults` switched on. */
    block: (faults: readonly PlatformFault[] = []): PlatformProfile => ({
      url: `${platform.origin}${faults.length > 0 ? `/faults/${faults.join(',')}` : ''}`,
      apiKey: platformSandbox.apiKey,
      partnerName: 'reference',
      hostPageUrl: `${host.origin}/`,
      mockLinkKey: platformSandbox.mockLinkKey,
      configure: true,
    }),
    close: () => Promise.all([platform.close(), host.close()]),
  };
}

/**
 * A reference partner and a platform emulator shared by the tests of one file: started before the first
 * test and closed after the last. Read them inside tests (`sandbox.partner.origin`), once they are set.
 */
export function sandboxPerFile() {
  const sandbox = {} as { partner: Awaited<ReturnType<typeof startReferencePartner>>; platform: Awaited<ReturnType<typeof startPlatform>> };
  test.beforeAll(async () => {
    [sandbox.partner, sandbox.platform] = await Promise.all([startReferencePartner(), startPlatform()]);
  });
  test.afterAll(async () => {
    await Promise.all([sandbox.partner.close(), sandbox.platform.close()]);
  });
  return sandbox;
}

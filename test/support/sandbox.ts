import type { AddressInfo } from 'node:net';
import { buildReferencePartner, type ReferencePartnerOptions } from '../../sandbox/reference-partner/server';

/** A reference partner of the test's own, on an ephemeral loopback port. */
export async function startReferencePartner(options: ReferencePartnerOptions = {}) {
  const app = buildReferencePartner(options);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { origin, close: () => app.close() };
}

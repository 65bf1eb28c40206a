/**
 * `npm run sandbox`: the bundled reference partner on 127.0.0.1. playwright.config.ts starts it as a
 * webServer for the `reference` project, and reuses it when it is already running.
 */
import { buildReferencePartner } from './reference-partner/server';

const sandboxHost = '127.0.0.1';
const port = Number(process.env.REFERENCE_PARTNER_PORT ?? 4400);

const partner = buildReferencePartner();
try {
  const address = await partner.listen({ host: sandboxHost, port });
  console.log(`reference partner listening on ${address} (faults: ${address}/faults)`);
} catch (error) {
  console.error(`the reference partner could not listen on ${sandboxHost}:${port}: ${(error as Error).message}`);
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void partner.close().then(() => process.exit(0)));
}

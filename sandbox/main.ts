/**
 * `npm run sandbox`: the bundled sandbox on 127.0.0.1. The host page and the platform emulator start
 * first and the reference partner last, because playwright.config.ts waits for the partner's /health.
 * Playwright starts it as a webServer for a run, and reuses one that is already running.
 */
import type { FastifyInstance } from 'fastify';
import { buildHostPage } from './host-page/server';
import { buildPlatform } from './platform/server';
import { buildReferencePartner } from './reference-partner/server';

const sandboxHost = '127.0.0.1';
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

const servers: [string, FastifyInstance, number, string][] = [
  ['host page', buildHostPage(), port('HOST_PAGE_PORT', 4402), '/?src=<auth URL>'],
  ['platform emulator', buildPlatform(), port('PLATFORM_PORT', 4401), '/faults'],
  ['reference partner', buildReferencePartner(), port('REFERENCE_PARTNER_PORT', 4400), '/faults'],
];

for (const [name, server, at, hint] of servers) {
  try {
    const address = await server.listen({ host: sandboxHost, port: at });
    console.log(`${name} listening on ${address} (${address}${hint})`);
  } catch (error) {
    console.error(`the ${name} could not listen on ${sandboxHost}:${at}: ${(error as Error).message}`);
    process.exit(1);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void Promise.all(servers.map(([, server]) => server.close())).then(() => process.exit(0)));
}

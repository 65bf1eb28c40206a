/**
 * `npm run sandbox`: the bundled sandbox on 127.0.0.1. Playwright starts it as a webServer for a run,
 * and reuses one that is already running.
 */
import { buildSandbox, sandboxHost } from './sandbox';

async function listen() {
  const servers = await buildSandbox();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void Promise.all(servers.map(({ server }) => server.close())).then(() => process.exit(0)));
  }
  for (const { name, server, port, hint } of servers) {
    try {
      const address = await server.listen({ host: sandboxHost, port });
      console.log(`${name} listening on ${address} (${address}${hint})`);
    } catch (error) {
      console.error(`the ${name} could not listen on ${sandboxHost}:${port}: ${(error as Error).message}`);
      process.exit(1);
    }
  }
}
void listen();

import { buildHarbor } from './server.js';

async function main(): Promise<void> {
  const { api, app, keys } = buildHarbor();
  const servers = [
    { name: 'api', server: api, port: 4405 },
    { name: 'app', server: app, port: 4406 },
    { name: 'keys', server: keys, port: 4407 },
  ];
  for (const { name, server, port } of servers) {
    await server.listen({ host: '127.0.0.1', port });
    console.log(`harbor ${name} listening on http://127.0.0.1:${port}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

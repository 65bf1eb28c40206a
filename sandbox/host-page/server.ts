import Fastify from 'fastify';
import { hostPageHtml } from '../../html/host-page';

/** The host page (html/host-page.ts) on an origin of its own: `GET /?src=<auth URL>`. */
export function buildHostPage() {
  const app = Fastify({ logger: false });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ code: 'NOT_FOUND', message: `no route ${request.method} ${request.url.split('?')[0]}` }));
  app.get('/health', async () => ({ ok: true }));
  app.get('/', async (request, reply) => {
    const { src } = request.query as { src?: unknown };
    if (typeof src !== 'string' || !URL.canParse(src) || !/^https?:$/.test(new URL(src).protocol)) {
      return reply.code(400).send({ code: 'INVALID_REQUEST', message: '"src" must be the http(s) URL to embed: /?src=<auth URL>' });
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(hostPageHtml(src));
  });
  return app;
}

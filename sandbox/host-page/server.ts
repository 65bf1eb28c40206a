import Fastify from 'fastify';
import { html } from '../../shared/html';

/**
 * The host page: the stand-in for the partner's app, on an origin of its own. `GET /?src=<auth URL>`
 * embeds the platform in an iframe and lists every message the window receives, with its origin, in
 * `#messages` (one `<li data-origin>` each, the data as JSON text).
 */
function hostPage(src: string) {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner app (host page)</title>
<style>body{font:15px system-ui,sans-serif;margin:1rem;background:#eef1f4}iframe{width:100%;height:34rem;border:1px solid #aab;background:#fff}
#messages{font:12px ui-monospace,monospace}</style></head>
<body><h1>Partner app</h1><iframe id="platform" title="Embedded payments app" src="${src}"></iframe>
<h2>Messages received</h2><ol id="messages"></ol>
<script>
addEventListener('message', (event) => {
  const item = document.createElement('li');
  item.dataset.origin = event.origin;
  item.textContent = JSON.stringify(event.data);
  document.getElementById('messages').append(item);
});
</script></body></html>`.text;
}

export function buildHostPage() {
  const app = Fastify({ logger: false });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ code: 'NOT_FOUND', message: `no route ${request.method} ${request.url.split('?')[0]}` }));
  app.get('/health', async () => ({ ok: true }));
  app.get('/', async (request, reply) => {
    const { src } = request.query as { src?: unknown };
    if (typeof src !== 'string' || !URL.canParse(src) || !/^https?:$/.test(new URL(src).protocol)) {
      return reply.code(400).send({ code: 'INVALID_REQUEST', message: '"src" must be the http(s) URL to embed: /?src=<auth URL>' });
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(hostPage(src));
  });
  return app;
}

import { html } from './template';

/**
 * The host page: the stand-in for the partner's app. It embeds the platform's `src` in an iframe and lists
 * every message the window receives, with its origin (`#messages`, one `<li data-origin>` each, the data as
 * JSON text), for the screenshots. The sandbox serves it on an origin of its own; the harness serves it in
 * the browser at the host origin a profile names.
 */
export function hostPageHtml(src: string): string {
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

/** The single-page app shell served for /home, /complete-profile, /problem and /wallet. */

export interface ShellConfig {
  /** The page path without the faults prefix, e.g. /wallet. */
  path: string;
  /** appOrigin plus the faults prefix: every URL the page writes starts with it. */
  base: string;
  sessionUrl: string;
  /** Render and post this many ms after load, chosen at random in [min, max]. */
  delay: [number, number];
  anyOrigin: boolean;
  rawMarkup: boolean;
}

// Plain ES5 in a string (not a stringified function) so no build-time helper can leak into the page.
const CLIENT = `(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('harbor-config').textContent);
  var root = document.getElementById('harbor-root');
  var delay = cfg.delay[0] + Math.random() * (cfg.delay[1] - cfg.delay[0]);

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function post(msg, host) {
    if (cfg.anyOrigin) window.parent.postMessage(msg, '*');
    else if (host) window.parent.postMessage(msg, host);
  }
  function go(path) {
    if (cfg.path !== path) history.replaceState(null, '', cfg.base + path);
  }
  function show(node) {
    root.replaceChildren(node);
    root.removeAttribute('aria-busy');
  }
  function home(s) {
    var sec = el('section', { id: 'harbor-home', 'aria-label': 'Harbor home' });
    sec.appendChild(el('h1', {}, 'Harbor'));
    sec.appendChild(el('p', { 'class': 'harbor-user' }, [s.user.firstName, s.user.lastName].filter(Boolean).join(' ')));
    var company = el('p', { 'class': 'harbor-company' });
    if (cfg.rawMarkup) company.innerHTML = s.company.name || '';
    else company.textContent = s.company.name || '';
    sec.appendChild(company);
    sec.appendChild(el('a', { href: cfg.base + '/wallet' }, 'Funding sources'));
    return sec;
  }
  function wallet(s) {
    var sec = el('section', { id: 'harbor-wallet', 'aria-label': 'Harbor wallet' });
    sec.appendChild(el('h1', {}, 'Funding sources'));
    var ul = el('ul', { 'class': 'harbor-sources' });
    s.sources.forEach(function (src) {
      ul.appendChild(el('li', { 'class': 'harbor-source', 'data-source-id': src.id }, (src.nickname || 'Bank account') + ' \\u00b7\\u00b7\\u00b7\\u00b7' + src.last4));
    });
    sec.appendChild(s.sources.length ? ul : el('p', {}, 'No funding sources yet.'));
    sec.appendChild(el('a', { href: cfg.base + '/home' }, 'Back to Harbor'));
    return sec;
  }
  function problem(s) {
    var box = el('div', { role: 'alert', 'class': 'harbor-problem', 'data-reason': s.reason });
    box.appendChild(el('strong', {}, 'Harbor could not sign you in.'));
    var p = el('p', {}, 'Reason: ');
    p.appendChild(el('code', {}, s.reason));
    box.appendChild(p);
    if (s.detail) box.appendChild(el('p', { 'class': 'harbor-problem-detail' }, s.detail));
    return box;
  }
  function collect(s) {
    var form = el('form', { id: 'complete-profile', method: 'post', action: cfg.base + '/complete-profile', novalidate: '' });
    form.appendChild(el('h1', {}, 'Complete your profile'));
    form.appendChild(el('input', { type: 'hidden', name: '_csrf', value: s.csrf }));
    s.fields.forEach(function (f) {
      var row = el('div', { 'class': 'harbor-field' });
      row.appendChild(el('label', { 'for': f.name }, f.path));
      var input = el('input', { id: f.name, name: f.name, type: 'text', autocomplete: 'off' });
      input.value = f.value || '';
      row.appendChild(input);
      if (f.error) row.appendChild(el('small', { 'class': 'field-error', 'data-for': f.path }, f.error));
      form.appendChild(row);
    });
    form.appendChild(el('button', { type: 'submit' }, 'Save and continue'));
    return form;
  }
  function render(s) {
    if (s.view === 'problem') {
      go('/problem');
      show(problem(s));
      post({ harbor: 'failed', why: s.reason }, s.hostOrigin);
    } else if (s.view === 'collect') {
      go('/complete-profile');
      show(collect(s));
    } else {
      var view = cfg.path === '/wallet' ? 'wallet' : 'home';
      go('/' + view);
      show(view === 'wallet' ? wallet(s) : home(s));
      post({ harbor: 'ready', view: view }, s.hostOrigin);
    }
  }
  var load = fetch(cfg.sessionUrl, { credentials: 'same-origin', headers: { accept: 'application/json' } })
    .then(function (res) {
      return res.ok ? res.json() : { view: 'problem', reason: 'SESSION_MISSING', detail: 'There is no Harbor session.', hostOrigin: null };
    })
    .catch(function () {
      return { view: 'problem', reason: 'SESSION_UNAVAILABLE', detail: 'Harbor could not be reached.', hostOrigin: null };
    });
  var wait = new Promise(function (resolve) { setTimeout(resolve, delay); });
  Promise.all([load, wait]).then(function (r) { render(r[0]); });
})();`;

const STYLE = `
body { font: 15px/1.4 system-ui, sans-serif; margin: 0; padding: 16px; color: #102a43; }
.harbor-problem { border: 1px solid #c53030; background: #fff5f5; padding: 12px; }
.harbor-field { margin: 8px 0; display: grid; gap: 2px; max-width: 24rem; }
.field-error { color: #c53030; }
.harbor-source { font-variant-numeric: tabular-nums; }
`;

/** JSON inside a script element: `<` is escaped so no value can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function renderShell(cfg: ShellConfig, nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harbor</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main id="harbor-root" aria-busy="true"><p class="harbor-loading">Loading Harbor…</p></main>
<script type="application/json" id="harbor-config">${scriptJson(cfg)}</script>
<script nonce="${nonce}">${CLIENT}</script>
</body>
</html>
`;
}

import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { importJWK, jwtVerify } from 'jose';
import { isObject } from '../../checks/evidence';
import type { Field, Payload } from '../../checks/payload';
import { signOnDecision, typedValueProblems, withTypedValues } from '../../checks/sign-on-decision';
import { html } from '../../html/template';
import type { LedgerlyKeys } from './api';
import { ledgerly, ledgerlyPartners } from './config';
import { ledgerlyFaultsOf, refuseUnknownFaults } from './faults';

/**
 * Ledgerly's app origin: a single-page app. The page is a shell; its script asks the app's own API for the
 * session (a mock link's token, verified against the platform's RS256 key, or a code, exchanged with the
 * partner as the platform is configured to), then renders the screen and, once rendered, posts to the host:
 * `{event: "app.ready"}` or `{event: "auth.failed", code}`, to the host's origin when it is one of the
 * partner's. No cookie: the session travels in the app's own requests, so a host on another site does not
 * lose it.
 */

interface Session {
  partnerName: string;
  accountInfo: Payload;
  fields: Field[];
  sources: { id: string; nickname?: string }[];
}

const styles = `body{font:15px/1.5 Georgia,serif;margin:0;padding:1rem;background:#fffdf7;color:#222}
main,form,[data-testid]{max-width:36rem}label{display:block;margin-top:.5rem}input{font:inherit;width:100%}
.field-error{color:#a00;font-size:.85rem}button{margin-top:1rem;font:inherit}`;

/** The app's script: it fetches, renders, then posts; every value is set as text. */
const script = `(() => {
  const root = document.getElementById('root');
  // The app's routes may sit under a prefix (/faults/<names>): everything before /sso/.
  const [base, rest] = location.pathname.split('/sso/');
  const partner = decodeURIComponent((rest || '').split('/')[0]);
  const query = new URLSearchParams(location.search);
  let session;
  const el = (tag, attrs, ...children) => { const node = document.createElement(tag); for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v); for (const child of children) node.append(child); return node; };
  const post = (message, hostOrigins) => {
    const target = hostOrigins.includes('*') ? '*' : location.ancestorOrigins && location.ancestorOrigins[0];
    if (window.parent !== window && hostOrigins.includes(target)) window.parent.postMessage(message, target);
  };
  const render = (state) => {
    root.replaceChildren();
    if (state.screen === 'app') {
      root.append(el('main', { 'aria-label': 'Dashboard' }, el('h1', {}, 'Welcome, ' + state.name), el('p', {}, state.company), el('ul', {}, ...state.sources.map((s) => el('li', { class: 'account' }, s.nickname || s.id)))));
      post({ event: 'app.ready', view: 'dashboard' }, state.hostOrigins);
    } else if (state.screen === 'collect') {
      session = state.session;
      const form = el('form', { id: 'missing-info' }, el('h1', {}, 'A few more details'));
      for (const field of state.fields) {
        const id = 'f-' + field.replace(/\\./g, '-');
        const name = state.opaqueNames ? 'field' + state.fields.indexOf(field) : field;
        form.append(el('label', { for: id }, field), el('input', { id, name, value: (state.values || {})[field] || '' }));
        if (state.errors && state.errors[field]) form.append(el('p', { class: 'field-error', id: 'e-' + id.slice(2) }, state.errors[field]));
      }
      form.append(el('button', { type: 'submit' }, 'Continue'));
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        const values = Object.fromEntries(state.fields.map((field) => [field, form.querySelector('#f-' + field.replace(/\\./g, '-')).value]));
        root.replaceChildren(el('p', {}, 'Saving…'));
        ask(base + '/api/sessions/' + encodeURIComponent(session) + '/complete', { values });
      });
      root.append(form);
    } else {
      root.append(el('div', { 'data-testid': 'sign-in-error' }, el('h1', {}, 'Sign-in failed'), el('p', {}, state.code), el('ul', {}, ...(state.problems || []).map((p) => el('li', {}, p)))));
      post({ event: 'auth.failed', code: state.code, detail: (state.problems || []).join('; ') }, state.hostOrigins || []);
    }
  };
  const ask = (path, body) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json()).then(render, () => render({ screen: 'error', code: 'NETWORK' }));
  ask(base + '/api/sessions', { partnerName: partner, token: query.get('token') || undefined, code: query.get('code') || undefined });
})();`;

const shell = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ledgerly</title><link rel="stylesheet" href="/app.css"></head>
<body><div id="root"><p>Loading…</p></div><script src="/app.js"></script></body></html>`.text;

export async function buildLedgerlyApp(keys: LedgerlyKeys, { now = Date.now }: { now?: () => number } = {}) {
  const app = Fastify({ logger: false });
  const publicKey = await importJWK(keys.jwk, 'RS256');
  const sessions = new Map<string, Session>();
  const usedLinks = new Set<string>();
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: 'not_found', detail: `${request.method} ${request.url.split('?')[0]}` }));
  app.setErrorHandler((error, _request, reply) =>
    reply.code(400).send({ error: 'invalid_request', detail: error instanceof Error ? error.message : String(error) }),
  );
  app.get('/health', async () => ({ ok: true }));
  app.get('/app.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(script));
  app.get('/app.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(styles));

  // Every route of the app, also under /faults/<names>/ with those faults on (sandbox/ledgerly/faults.ts).
  const routes = async (app: FastifyInstance) => {
    app.addHook('onRequest', refuseUnknownFaults);
    // The "posts-to-any-origin" fault: the app is told every origin may hear it, as a platform misconfigured so.
    app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
      if (!isObject(payload)) return payload;
      const faults = ledgerlyFaultsOf(request);
      // "posts-to-any-origin": the app is told every origin may hear it, as a platform misconfigured so.
      const targets = faults.has('posts-to-any-origin') && Array.isArray(payload.hostOrigins) ? { hostOrigins: ['*'] } : {};
      // "opaque-input-names": the form's inputs are named by position, not by spec path.
      return { ...payload, ...targets, ...(faults.has('opaque-input-names') ? { opaqueNames: true } : {}) };
    });
    app.get('/sso/:partnerName', async (request, reply) => {
      const partner = ledgerlyPartners.get((request.params as { partnerName: string }).partnerName);
      const ancestors = ledgerlyFaultsOf(request).has('frames-anywhere') ? '' : `; frame-ancestors ${partner ? partner.hostOrigins.join(' ') : "'none'"}`;
      return reply
        .header(
          'content-security-policy',
          `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'${ancestors}`,
        )
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(shell);
    });

    const failed = (reply: FastifyReply, code: string, problems: string[], hostOrigins: readonly string[] = []) =>
      reply.send({ screen: 'error', code, problems, hostOrigins });

    /** What the account information leads to, as spec §7 says, by the spec's own field rules. */
    function decide(reply: FastifyReply, partnerName: string, accountInfo: Payload, sources: Session['sources']) {
      const partner = ledgerlyPartners.get(partnerName)!;
      const decision = signOnDecision(accountInfo, { now: new Date(now()), collectMissingAccountInfo: partner.collectMissingAccountInfo });
      if (decision.screen === 'error')
        return failed(
          reply,
          decision.reason === 'INVALID_ACCOUNT_INFO' ? 'INVALID_DETAILS' : 'MISSING_DETAILS',
          decision.problems.slice(0, 5).map((p) => p.message),
          partner.hostOrigins,
        );
      const session = randomUUID();
      sessions.set(session, { partnerName, accountInfo, fields: decision.screen === 'collect' ? decision.fields : [], sources });
      if (decision.screen === 'collect')
        return reply.send({ screen: 'collect', session, fields: decision.fields.map((field) => field.path), hostOrigins: partner.hostOrigins });
      return reply.send(appState(partnerName, accountInfo, sources));
    }

    const appState = (partnerName: string, accountInfo: Payload, sources: Session['sources']) => {
      const user = isObject(accountInfo.user) ? accountInfo.user : {};
      const company = isObject(accountInfo.company) ? accountInfo.company : {};
      return {
        screen: 'app',
        name: [user.firstName, user.lastName].filter((part) => typeof part === 'string').join(' '),
        company: typeof company.name === 'string' ? company.name : '',
        sources,
        hostOrigins: ledgerlyPartners.get(partnerName)!.hostOrigins,
      };
    };

    app.post('/api/sessions', async (request, reply) => {
      const { partnerName, token, code } = (request.body ?? {}) as { partnerName?: unknown; token?: unknown; code?: unknown };
      const partner = typeof partnerName === 'string' ? ledgerlyPartners.get(partnerName) : undefined;
      if (!partner || typeof partnerName !== 'string') return failed(reply, 'UNKNOWN_PARTNER', []);
      if (typeof token === 'string') {
        try {
          const { payload } = await jwtVerify(token, publicKey, {
            algorithms: ['RS256'],
            issuer: ledgerly.issuer,
            audience: partnerName,
            currentDate: new Date(now()),
          });
          const replayable = ledgerlyFaultsOf(request).has('replayable-links');
          if (typeof payload.jti !== 'string' || (usedLinks.has(payload.jti) && !replayable)) return failed(reply, 'LINK_USED', [], partner.hostOrigins);
          usedLinks.add(payload.jti);
          return decide(reply, partnerName, isObject(payload.acct) ? payload.acct : {}, []);
        } catch (error) {
          return failed(reply, 'LINK_REFUSED', [error instanceof Error ? error.message : String(error)], partner.hostOrigins);
        }
      }
      if (typeof code !== 'string') return failed(reply, 'NO_CREDENTIAL', [], partner.hostOrigins);
      // The code, exchanged as the platform is configured for this partner (spec §4.2).
      const params = { grant_type: 'authorization_code', code, client_id: partner.clientId, client_secret: partner.clientSecret };
      const json = partner.tokenExchangeEncoding === 'json';
      const exchanged = await fetch(partner.tokenExchangeUrl, {
        method: 'POST',
        headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: json ? JSON.stringify(params) : new URLSearchParams(params as Record<string, string>).toString(),
        redirect: 'manual',
        signal: AbortSignal.timeout(partner.requestTimeoutMs),
      }).catch(() => undefined);
      const tokenBody = exchanged?.status === 200 ? ((await exchanged.json().catch(() => ({}))) as { access_token?: unknown }) : {};
      if (typeof tokenBody.access_token !== 'string')
        return failed(reply, 'TOKEN_EXCHANGE_FAILED', [`the partner answered ${exchanged?.status ?? 'nothing'}`], partner.hostOrigins);
      const read = async (url: string | undefined) => {
        if (!url) return undefined;
        const answer = await fetch(url, {
          headers: { authorization: `Bearer ${tokenBody.access_token as string}`, accept: 'application/json' },
          redirect: 'manual',
          signal: AbortSignal.timeout(partner.requestTimeoutMs),
        }).catch(() => undefined);
        return answer?.status === 200 ? ((await answer.json().catch(() => undefined)) as unknown) : undefined;
      };
      const [accountInfo, funding] = await Promise.all([read(partner.accountInfoUrl), read(partner.fundingSourcesUrl)]);
      if (!isObject(accountInfo)) return failed(reply, 'ACCOUNT_INFO_FAILED', [], partner.hostOrigins);
      const listed = isObject(funding) && Array.isArray(funding.fundingSources) ? funding.fundingSources.filter(isObject) : [];
      return decide(
        reply,
        partnerName,
        accountInfo,
        listed.map((source) => ({ id: String(source.id), ...(typeof source.nickname === 'string' ? { nickname: source.nickname } : {}) })),
      );
    });

    app.post('/api/sessions/:session/complete', async (request, reply) => {
      const session = sessions.get((request.params as { session: string }).session);
      if (!session) return failed(reply, 'SESSION_EXPIRED', []);
      const values = (isObject(request.body) && isObject(request.body.values) ? request.body.values : {}) as Record<string, string>;
      const partner = ledgerlyPartners.get(session.partnerName)!;
      const { problems: errors } = typedValueProblems(session.accountInfo, session.fields, values, { now: new Date(now()), collectMissingAccountInfo: true });
      if (Object.keys(errors).length > 0)
        return reply.send({
          screen: 'collect',
          session: (request.params as { session: string }).session,
          fields: session.fields.map((field) => field.path),
          values,
          errors,
          hostOrigins: partner.hostOrigins,
        });
      return reply.send(appState(session.partnerName, withTypedValues(session.accountInfo, session.fields, values), session.sources));
    });
  };
  await app.register(routes);
  await app.register(routes, { prefix: '/faults/:faults' });
  return app;
}

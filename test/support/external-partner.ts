import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A partner server that is not part of the harness: a deliberately independent, minimal OAuth 2.0
 * implementation on node:http, sharing no code with sandbox/. It proves the harness certifies any
 * server, not just its own reference partner.
 */
export async function startExternalPartner(clientSecret: string) {
  const codes = new Map<string, { used: boolean; token?: string }>();
  const tokens = new Set<string>();
  const random = () => randomBytes(16).toString('hex');

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache', ...headers });
    res.end(JSON.stringify(body));
  };
  const readBody = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    if ((req.headers['content-type'] ?? '').includes('json')) return JSON.parse(text) as Record<string, string>;
    return Object.fromEntries(new URLSearchParams(text));
  };

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'POST' && req.url === '/staging/mint') {
        const code = random();
        codes.set(code, { used: false });
        return send(res, 200, { code });
      }
      if (req.method === 'POST' && req.url === '/oauth2/token') {
        const body = await readBody(req);
        if (body.client_id !== 'acme-platform' || body.client_secret !== clientSecret) {
          return send(res, 401, { error: 'invalid_client' }, { 'www-authenticate': 'Basic realm="acme"' });
        }
        if (!body.grant_type) return send(res, 400, { error: 'invalid_request' });
        if (body.grant_type !== 'authorization_code') return send(res, 400, { error: 'unsupported_grant_type' });
        const record = codes.get(body.code ?? '');
        if (!record) return send(res, 400, { error: 'invalid_grant' });
        if (record.used) {
          if (record.token) tokens.delete(record.token);
          return send(res, 400, { error: 'invalid_grant' });
        }
        record.used = true;
        record.token = random();
        tokens.add(record.token);
        return send(res, 200, { access_token: record.token, token_type: 'bearer', expires_in: 900 });
      }
      if (req.method === 'GET' && req.url === '/v2/me') {
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!tokens.has(token)) return send(res, 401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer' });
        return send(res, 200, { user: { id: 'x-1', email: 'x@acme.example' }, company: { id: 'acme-1' } });
      }
      send(res, 404, { error: 'not_found' });
    })().catch(() => send(res, 400, { error: 'invalid_request' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

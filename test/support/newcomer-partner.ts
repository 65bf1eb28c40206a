import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A partner as a partner engineer writes one from the spec alone, knowing nothing of the harness: node:http,
 * form bodies, the client's credentials in the body, one complete test user. It shares no code with
 * sandbox/ or the harness, and is what the README's "Certify your endpoints" is followed against.
 */
export async function startNewcomerPartner({ clientId, clientSecret }: { clientId: string; clientSecret: string }) {
  const codes = new Map<string, { used: boolean; token?: string }>();
  const tokens = new Set<string>();
  const random = () => randomBytes(32).toString('base64url');
  const account = {
    user: { id: 'u-42', email: 'grace.hopper@acme.example', firstName: 'Grace', lastName: 'Hopper', phone: '212-555-0199', dateOfBirth: '1976-12-09' },
    company: {
      id: 'c-7',
      name: 'Acme Widgets Inc',
      address: { line1: '350 Fifth Avenue', city: 'New York', state: 'NY', postalCode: '10118' },
      legalName: 'Acme Widgets Incorporated',
      legalAddress: { line1: '350 Fifth Avenue', city: 'New York', state: 'NY', postalCode: '10118' },
      businessType: 'corporation',
      taxInfo: { type: 'EIN', identifier: '13-1234567' },
      industry: { naicsCode: 423990, name: 'Other Miscellaneous Durable Goods Merchant Wholesalers' },
    },
  };
  const fundingSources = [
    {
      id: 'fs-1',
      type: 'ach',
      nickname: 'Operating account',
      bankAccountNumber: '000123456789',
      bankRoutingNumber: '021000021',
      accountNumberLast4Digits: '6789',
    },
  ];

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache', ...headers });
    res.end(JSON.stringify(body));
  };
  const formOf = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return new URLSearchParams(text);
  };
  const bearer = (req: IncomingMessage) => /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];

  const token = async (req: IncomingMessage, res: ServerResponse) => {
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return send(res, 415, { error: 'invalid_request', error_description: 'send the token request form-encoded' });
    const form = await formOf(req);
    if ([...form.keys()].some((key, index, keys) => keys.indexOf(key) !== index))
      return send(res, 400, { error: 'invalid_request', error_description: 'a parameter was sent twice' });
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret)
      return send(res, 401, { error: 'invalid_client' }, { 'www-authenticate': 'Basic realm="acme"' });
    if (!form.has('grant_type')) return send(res, 400, { error: 'invalid_request', error_description: 'grant_type is missing' });
    if (form.get('grant_type') !== 'authorization_code') return send(res, 400, { error: 'unsupported_grant_type' });
    const record = codes.get(form.get('code') ?? '');
    if (!record) return send(res, 400, { error: 'invalid_grant' });
    if (record.used) {
      if (record.token) tokens.delete(record.token);
      return send(res, 400, { error: 'invalid_grant' });
    }
    record.used = true;
    record.token = random();
    tokens.add(record.token);
    return send(res, 200, { access_token: record.token, token_type: 'Bearer', expires_in: 3600 });
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://partner').pathname;
      if (path === '/test-hooks/codes' && req.method === 'POST') {
        const code = random();
        codes.set(code, { used: false });
        return send(res, 200, { code });
      }
      if (path === '/oauth/token') return req.method === 'POST' ? token(req, res) : send(res, 405, { error: 'invalid_request' }, { allow: 'POST' });
      if ((path === '/api/account' || path === '/api/funding-sources') && req.method === 'GET') {
        const presented = bearer(req);
        if (!presented || !tokens.has(presented)) return send(res, 401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer realm="acme"' });
        return send(res, 200, path === '/api/account' ? account : { fundingSources });
      }
      send(res, 404, { error: 'not_found', error_description: `Cannot ${req.method} ${path}` });
    })().catch(() => send(res, 400, { error: 'invalid_request' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

import querystring from 'node:querystring';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OAuth2Server from '@node-oauth/oauth2-server';
import { bodyOf } from '../../sandbox/reference-partner/resources';

/**
 * A partner built on @node-oauth/oauth2-server 5, the Express/Koa-agnostic OAuth 2.0 server library:
 * its token endpoint is the library's `token()` handler, unchanged, behind a minimal in-memory model.
 * With `bindRedirectUri`, codes keep the redirect URI of their authorization request, as the library's
 * own authorize handler stores it, so the token request must repeat it (RFC 6749 §4.1.3). With
 * `challengeBasic`, every "invalid_client" is a 401 with "WWW-Authenticate: Basic", whatever scheme the
 * credentials came in, as Authlib answers for a client that may use client_secret_basic: a wrong secret
 * sent in the body then reads like an endpoint that takes Basic only. With `basicOnly`, credentials in the body
 * are refused before the library sees them, with the library's own error for a client it cannot authenticate,
 * as a deployment that allows client_secret_basic alone does: the platform's request is answered as a wrong secret is.
 */
export const oauth2ServerClient = { id: 'platform-client', secret: 'oauth2-server-secret-8d41f0' };

export async function startOauth2ServerPartner({
  bindRedirectUri = false,
  challengeBasic = false,
  basicOnly = false,
}: { bindRedirectUri?: boolean; challengeBasic?: boolean; basicOnly?: boolean } = {}) {
  const client = { id: oauth2ServerClient.id, grants: ['authorization_code'], redirectUris: ['https://platform.example/acme/auth'] };
  const user = { id: 'complete' };
  const codes = new Map<string, { expiresAt: Date; redirectUri?: string }>();
  const tokens = new Map<string, Date>();
  const random = () => randomBytes(20).toString('hex');

  const model = {
    getClient: async (id: string, secret: string | undefined) =>
      id === client.id && (secret === undefined || secret === oauth2ServerClient.secret) ? client : null,
    getAuthorizationCode: async (code: string) => {
      const record = codes.get(code);
      return record && { authorizationCode: code, ...record, client, user, scope: [] };
    },
    revokeAuthorizationCode: async ({ authorizationCode }: { authorizationCode: string }) => codes.delete(authorizationCode),
    saveToken: async (token: { accessToken: string; accessTokenExpiresAt?: Date }) => {
      tokens.set(token.accessToken, token.accessTokenExpiresAt ?? new Date(Date.now() + 3_600_000));
      return { ...token, client, user };
    },
    getAccessToken: async (accessToken: string) => {
      const expiresAt = tokens.get(accessToken);
      return expiresAt && { accessToken, accessTokenExpiresAt: expiresAt, client, user };
    },
  };
  const oauth = new OAuth2Server({ model: model });

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number | string[]> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  /** What express-oauth-server and koa-oauth-server do with the library's errors: its status, name and message. */
  const sendError = (res: ServerResponse, error: unknown, response: OAuth2Server.Response) => {
    const { code = 500, name = 'server_error', message = '' } = error as { code?: number; name?: string; message?: string };
    if (challengeBasic && name === 'invalid_client')
      return send(res, 401, { error: name, error_description: message }, { ...response.headers, 'www-authenticate': 'Basic realm="Service"' });
    return send(res, code, { error: name, error_description: message }, response.headers);
  };
  const readForm = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    // The library reads parsed parameters; as body-parser's urlencoded({extended: false}) does, only form
    // bodies are parsed, with node:querystring, so a field sent twice arrives as an array.
    return (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') ? { ...querystring.parse(text) } : {};
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    void (async () => {
      if (req.method === 'POST' && path === '/test-hooks/codes') {
        const code = random();
        codes.set(code, { expiresAt: new Date(Date.now() + 600_000), ...(bindRedirectUri ? { redirectUri: client.redirectUris[0] } : {}) });
        return send(res, 200, { code });
      }
      if (req.method === 'POST' && path === '/oauth/token') {
        const body = await readForm(req);
        const request = new OAuth2Server.Request({ method: req.method, headers: req.headers as Record<string, string>, query: {}, body });
        const response = new OAuth2Server.Response();
        try {
          if (basicOnly && body.client_secret !== undefined) throw new OAuth2Server.InvalidClientError('Invalid client: client is invalid');
          await oauth.token(request, response);
          return send(res, response.status ?? 200, response.body, response.headers);
        } catch (error) {
          return sendError(res, error, response);
        }
      }
      const resource = path === '/api/account' ? 'account-info' : path === '/api/funding-sources' ? 'funding-sources' : undefined;
      if (req.method === 'GET' && resource) {
        const request = new OAuth2Server.Request({ method: req.method, headers: req.headers as Record<string, string>, query: {}, body: {} });
        const response = new OAuth2Server.Response();
        try {
          await oauth.authenticate(request, response);
        } catch (error) {
          return sendError(res, error, response);
        }
        return send(res, 200, bodyOf(resource, 'complete', new Date(), new Set()), { 'cache-control': 'no-store' });
      }
      return send(res, 404, { error: 'not_found' });
    })().catch(() => send(res, 400, { error: 'invalid_request' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

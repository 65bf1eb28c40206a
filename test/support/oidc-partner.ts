import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import { bodyOf } from '../../sandbox/reference-partner/resources';

/**
 * A partner built on a real, certified OpenID provider library (oidc-provider 8), as a partner would
 * build one: its token endpoint, login and consent pages are the library's own, unchanged. Around it,
 * account information and funding sources answer for the access tokens the library issued (looked up
 * in the library's own store), and a staging test hook mints codes the way the library's authorization
 * endpoint would, for profiles with "codes.mintUrl".
 */
export interface OidcPartnerOptions {
  /** The platform's auth URL: the client's redirect URI, where the login flow sends the code. */
  authUrl: string;
  /**
   * Bind codes to redirect_uri the way most deployments do: with two redirect URIs registered, the
   * library no longer fills in an omitted redirect_uri (RFC 6749 §4.1.3), and the platform sends none.
   */
  bindRedirectUri?: boolean;
  /**
   * How the client is registered: client_secret_post is what the platform sends (spec §4.2, §5.3). oidc-provider 8
   * takes the secret in the body and with Basic alike whichever of the two is registered (lib/shared/token_auth.js),
   * so client_secret_basic here makes no Basic-only endpoint: test/support/oauth2-server-partner.ts `basicOnly` does.
   */
  authMethod?: 'client_secret_post' | 'client_secret_basic';
}

export const oidcClient = { id: 'platform-client', secret: 'oidc-partner-secret-5c2e9a' };
const accountId = 'complete';

export async function startOidcPartner({ authUrl, bindRedirectUri = false, authMethod = 'client_secret_post' }: OidcPartnerOptions) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: oidcClient.id,
        client_secret: oidcClient.secret,
        redirect_uris: bindRedirectUri ? [authUrl, `${authUrl}/other`] : [authUrl],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: authMethod,
      },
    ],
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    cookies: { keys: ['oidc-partner-cookie-key-not-secret'] },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 600, Session: 3600 },
    features: { devInteractions: { enabled: true } },
    // The library requires PKCE by default (RFC 9700). The platform's client is confidential and sends no
    // code_verifier (spec §4.2), so a partner exempts it, as here.
    pkce: { required: () => false },
  };
  // The library warns, rightly, that its in-memory store, development keys and login pages are for a quick
  // start: exactly what a test partner is. Those three lines are kept out of the test output.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => (String(args[0]).includes('a quick start development-only') ? undefined : warn(...args));
  let provider: Provider;
  try {
    provider = new Provider(origin, configuration);
  } finally {
    console.warn = warn;
  }
  const handleOidc = provider.callback();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
  };

  /** The account behind a Bearer token, from the library's own access-token store. */
  const accountOf = async (req: IncomingMessage): Promise<string | undefined> => {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const token = match ? await provider.AccessToken.find(match[1]!) : undefined;
    return token && !token.isExpired ? token.accountId : undefined;
  };

  /** What the library's authorization endpoint does after login and consent: a grant, then a code bound to it. */
  const mintCode = async () => {
    const client = await provider.Client.find(oidcClient.id);
    const grant = new provider.Grant({ accountId, clientId: oidcClient.id });
    grant.addOIDCScope('openid');
    const grantId = await grant.save();
    return new provider.AuthorizationCode({ accountId, grantId, client: client!, redirectUri: authUrl, scope: 'openid', gty: 'authorization_code' }).save();
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    const resource = path === '/api/account' ? 'account-info' : path === '/api/funding-sources' ? 'funding-sources' : undefined;
    void (async () => {
      if (req.method === 'POST' && path === '/test-hooks/codes') return send(res, 200, { code: await mintCode() });
      if (req.method === 'GET' && resource) {
        const account = await accountOf(req);
        if (!account) return send(res, 401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
        return send(res, 200, bodyOf(resource, 'complete', new Date(), new Set()));
      }
      return handleOidc(req, res);
    })().catch(() => send(res, 400, { error: 'invalid_request' }));
  });

  return {
    origin,
    /** The authorization request the partner's app would start a login with. */
    authorizationUrl: `${origin}/auth?${new URLSearchParams({ client_id: oidcClient.id, response_type: 'code', scope: 'openid', redirect_uri: authUrl })}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import { cause, configured } from './causes';
import type { StackEntry } from './stack-entry';

export const authlib: StackEntry = {
  library: 'Authlib',
  observedOn: ['1.2.0 (Flask)'],
  docs: 'https://docs.authlib.org/en/latest/',
  signatures: [
    [
      {
        probe: 'token-exchange/unknown-code',
        said: 'an unknown code is answered {"error": "invalid_grant", "error_description": "Invalid \\"code\\" in request."}',
        body: '{"error": "invalid_grant", "error_description": "Invalid \\"code\\" in request."}',
      },
      {
        probe: 'token-exchange/missing-grant-type',
        said: 'a request without grant_type is answered {"error": "unsupported_grant_type"}',
        body: '{"error": "unsupported_grant_type"}',
      },
    ],
    [
      {
        probe: configured,
        said: 'the platform\'s request, or its retry, is refused {"error": "invalid_grant", "error_description": "Invalid \\"redirect_uri\\" in request."}',
        body: '{"error": "invalid_grant", "error_description": "Invalid \\"redirect_uri\\" in request."}',
      },
    ],
  ],
  fixes: {
    'token-exchange/code-reuse-revokes-token': {
      fix: "keep each used code with the access token issued for it (override your AuthorizationCodeGrant's save_token: self.request.credential is the code's record), and in query_authorization_code, for a code already used, set access_token_revoked_at on that token before returning None",
      docs: 'https://docs.authlib.org/en/latest/flask/2/grants.html',
    },
    'token-exchange/encoding': [
      {
        when: cause.basicOnly,
        fix: "register the client with the method the platform uses, client.set_client_metadata({..., 'token_endpoint_auth_method': 'client_secret_post'}), and list it in the grant's TOKEN_ENDPOINT_AUTH_METHODS",
        docs: 'https://docs.authlib.org/en/latest/flask/2/grants.html',
      },
      {
        when: cause.redirectUri,
        fix: "Authlib asks for redirect_uri back when the code has one: in save_authorization_code store request.redirect_uri as given, and issue the platform's codes from an authorization request without redirect_uri (the code then has none)",
        docs: 'https://docs.authlib.org/en/latest/flask/2/grants.html',
      },
    ],
  },
};

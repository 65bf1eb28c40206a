import { cause, configured } from './causes';
import type { StackEntry } from './stack-entry';

export const jmondi: StackEntry = {
  library: '@jmondi/oauth2-server',
  observedOn: ['4.3.7'],
  docs: 'https://tsoauth2server.com/',
  signatures: [
    [
      {
        probe: 'token-exchange/unknown-code',
        said: 'an unknown code is answered with the keys status, message, error, error_description',
        keys: ['status', 'message', 'error', 'error_description'],
      },
      {
        probe: 'token-exchange/missing-grant-type',
        said: 'a request without grant_type is answered "Unsupported grant_type", with the keys status, message, error, error_description',
        keys: ['status', 'message', 'error', 'error_description'],
        description: 'Unsupported grant_type',
      },
    ],
    [
      {
        probe: configured,
        said: "the platform's request is refused with the keys status, message, error, error_description",
        keys: ['status', 'message', 'error', 'error_description'],
      },
    ],
  ],
  fixes: {
    'token-exchange/encoding': {
      when: cause.redirectUri,
      fix: "every code carries its authorize request's redirect_uri and the token request must repeat it: before respondToAccessTokenRequest(req), give a token request of the platform's client that has none the client's registered one (if (!req.body.redirect_uri) req.body.redirect_uri = client.redirectUris[0])",
      docs: 'https://tsoauth2server.com/docs/grants/authorization_code',
    },
    'token-exchange/code-reuse-rejected': {
      fix: "implement the auth code repository's revoke(code) and isRevoked(code) against storage, so a code used once is refused",
      docs: 'https://tsoauth2server.com/docs/repositories/#auth-code-repository',
    },
    'token-exchange/code-reuse-revokes-token': {
      fix: "implement the token repository's revokeDescendantsOf(authCodeId), so a replayed code revokes the tokens issued for it",
      docs: 'https://tsoauth2server.com/docs/repositories/#token-repository',
    },
  },
};

import { cause, configured } from './causes';
import type { StackEntry } from './stack-entry';

export const oidcProvider: StackEntry = {
  library: 'oidc-provider',
  observedOn: ['8.8.1', '9.13.3'],
  docs: 'https://github.com/panva/node-oidc-provider/blob/main/docs/README.md',
  signatures: [
    [
      { probe: 'token-exchange/unknown-code', said: 'an unknown code is answered "grant request is invalid"', description: 'grant request is invalid' },
      {
        probe: 'token-exchange/missing-grant-type',
        said: `a request without grant_type is answered "missing required parameter 'grant_type'"`,
        description: "missing required parameter 'grant_type'",
      },
    ],
    [
      {
        probe: configured,
        said: `the platform's request is refused "missing required parameter 'redirect_uri'"`,
        description: "missing required parameter 'redirect_uri'",
      },
    ],
  ],
  fixes: {
    'token-exchange/encoding': [
      {
        when: cause.json,
        fix: 'oidc-provider reads only application/x-www-form-urlencoded token requests, and has no setting for JSON: have the platform send form (profile "tokenExchangeEncoding": "form")',
        docs: 'https://github.com/panva/node-oidc-provider/blob/main/docs/README.md#routes',
      },
      {
        when: cause.redirectUri,
        fix: "register one redirect URI on the platform's client (redirect_uris: [the one]): oidc-provider then lets the token request omit it (allowOmittingSingleRegisteredRedirectUri, on by default); with two or more it requires redirect_uri",
        docs: 'https://github.com/panva/node-oidc-provider/blob/main/docs/README.md#allowomittingsingleregisteredredirecturi',
      },
    ],
    'token-exchange/refresh-token': {
      fix: "list the grant on the client: grant_types: ['authorization_code', 'refresh_token'] (or override the issueRefreshToken helper)",
      docs: 'https://github.com/panva/node-oidc-provider/blob/main/docs/README.md#issuerefreshtoken',
    },
  },
};

import type { StackEntry } from './stack-entry';

export const oidcProvider: StackEntry = {
  library: 'oidc-provider',
  observedOn: ['8.8.1', '9.13.3'],
  docs: 'https://github.com/panva/node-oidc-provider/blob/main/docs/README.md',
  marks: [
    { probe: 'token-exchange/unknown-code', said: 'an unknown code is answered "grant request is invalid"', description: 'grant request is invalid' },
    {
      probe: 'token-exchange/missing-grant-type',
      said: `a request without grant_type is answered "missing required parameter 'grant_type'"`,
      description: "missing required parameter 'grant_type'",
    },
  ],
  fixes: {
    'token-exchange/encoding': {
      fix: 'oidc-provider reads only application/x-www-form-urlencoded token requests, and has no setting for JSON: have the platform send form (profile "tokenExchangeEncoding": "form")',
      docs: 'https://github.com/panva/node-oidc-provider/blob/main/docs/README.md#routes',
    },
    'token-exchange/refresh-token': {
      fix: "list the grant on the client: grant_types: ['authorization_code', 'refresh_token'] (or override the issueRefreshToken helper)",
      docs: 'https://github.com/panva/node-oidc-provider/blob/main/docs/README.md#issuerefreshtoken',
    },
  },
};

import type { StackEntry } from './stack-entry';

const unknownCode = {
  probe: 'token-exchange/unknown-code',
  said: 'an unknown code is answered {"error": "invalid_grant"}, no more',
  body: '{"error": "invalid_grant"}',
};
const noGrantType = {
  probe: 'token-exchange/missing-grant-type',
  said: 'a request without grant_type is answered {"error": "unsupported_grant_type"}',
  body: '{"error": "unsupported_grant_type"}',
};
const unauthorizedClient = { probe: 'token-exchange/other-grants', body: '{"error": "unauthorized_client"}' };

/** oauthlib on its own (or in a framework that keeps its answers), told from django-oauth-toolkit, which is built on it. */
export const oauthlib: StackEntry = {
  library: 'oauthlib',
  observedOn: ['3.2.2'],
  docs: 'https://oauthlib.readthedocs.io/en/latest/oauth2/server.html',
  marks: [
    unknownCode,
    noGrantType,
    { ...unauthorizedClient, said: 'a password grant is answered unsupported_grant_type, not unauthorized_client', absent: true },
  ],
  fixes: {},
};

export const djangoOauthToolkit: StackEntry = {
  library: 'django-oauth-toolkit',
  observedOn: ['1.7.0'],
  docs: 'https://django-oauth-toolkit.readthedocs.io/',
  marks: [
    unknownCode,
    noGrantType,
    { ...unauthorizedClient, said: 'the platform\'s request with a password grant is answered {"error": "unauthorized_client"}' },
  ],
  fixes: {
    'token-exchange/redirect': {
      fix: "route the path without its slash to the token view, path('oauth/token', oauth2_views.TokenView.as_view()), or configure the platform with the URL that ends in /oauth/token/ (APPEND_SLASH answers 301)",
      docs: 'https://django-oauth-toolkit.readthedocs.io/en/latest/views/views.html',
    },
  },
};

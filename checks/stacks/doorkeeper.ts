import { cause, configured } from './causes';
import type { StackEntry } from './stack-entry';

export const doorkeeper: StackEntry = {
  library: 'Doorkeeper',
  observedOn: ['5.5.0 (Rails 6.1, Debian 12; a real instance in test/fixtures/oauth-stacks/doorkeeper)'],
  docs: 'https://doorkeeper.gitbook.io/guides/',
  signatures: [
    [
      {
        probe: 'token-exchange/unknown-code',
        said: 'an unknown code is answered with the challenge Bearer realm="Doorkeeper"',
        header: { name: 'www-authenticate', startsWith: 'Bearer realm="Doorkeeper"' },
      },
      {
        probe: 'token-exchange/missing-grant-type',
        said: 'a request without grant_type is answered "Missing required parameter: grant_type."',
        description: 'Missing required parameter: grant_type.',
      },
    ],
    [
      {
        probe: configured,
        said: 'the platform\'s request, or its retry, is refused "Missing required parameter: redirect_uri." with the challenge Bearer realm="Doorkeeper"',
        description: 'Missing required parameter: redirect_uri.',
        header: { name: 'www-authenticate', startsWith: 'Bearer realm="Doorkeeper"' },
      },
    ],
  ],
  fixes: {
    'token-exchange/code-reuse-revokes-token': {
      fix: "Doorkeeper revokes a used grant, not the token issued for it, which it does not link: in your token controller (use_doorkeeper { controllers tokens: 'tokens' }), keep the access token each code got (after super, from response.body, in a table of your own), and when Doorkeeper::AccessGrant.by_token(params[:code]) comes back revoked?, revoke that token (Doorkeeper::AccessToken.by_token(…).revoke) before calling super",
      docs: 'https://github.com/doorkeeper-gem/doorkeeper/wiki/Customizing-routes',
    },
    'token-exchange/encoding': [
      {
        when: cause.redirectUri,
        fix: "Doorkeeper 5 asks for redirect_uri in every token request: route the token endpoint to a controller of yours, use_doorkeeper { controllers tokens: 'tokens' }, whose create, for a request without redirect_uri, sets request.parameters['redirect_uri'] to the grant's, Doorkeeper::AccessGrant.by_token(params[:code])&.redirect_uri (any value for a code it does not know, which is then invalid_grant), then calls super",
        docs: 'https://github.com/doorkeeper-gem/doorkeeper/wiki/Customizing-routes',
      },
    ],
    'token-exchange/expires-in-present': {
      fix: 'give tokens a lifetime in config/initializers/doorkeeper.rb: access_token_expires_in 2.hours (nil leaves expires_in out)',
      docs: 'https://github.com/doorkeeper-gem/doorkeeper/wiki/Customizing-Token-Expiration',
    },
  },
};

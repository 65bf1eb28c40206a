import type { StackEntry } from './stack-entry';

export const doorkeeper: StackEntry = {
  library: 'Doorkeeper',
  observedOn: ['5.5.0 (Rails 6.1)'],
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
  ],
  fixes: {
    'token-exchange/expires-in-present': {
      fix: 'give tokens a lifetime in config/initializers/doorkeeper.rb: access_token_expires_in 2.hours (nil leaves expires_in out)',
      docs: 'https://github.com/doorkeeper-gem/doorkeeper/wiki/Customizing-Token-Expiration',
    },
  },
};

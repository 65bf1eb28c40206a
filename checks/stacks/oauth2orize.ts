import type { StackEntry } from './stack-entry';

export const oauth2orize: StackEntry = {
  library: 'oauth2orize',
  observedOn: ['1.12.0'],
  docs: 'https://github.com/jaredhanson/oauth2orize#readme',
  marks: [
    {
      probe: 'token-exchange/unknown-code',
      said: 'an unknown code is answered 403 "Invalid authorization code"',
      status: 403,
      description: 'Invalid authorization code',
    },
    {
      probe: 'token-exchange/missing-grant-type',
      said: 'a request without grant_type is answered 501 "Unsupported grant type: undefined"',
      status: 501,
      description: 'Unsupported grant type: undefined',
    },
  ],
  fixes: {
    'token-exchange/encoding': {
      fix: "authenticate the client in the body as well as by Basic: passport.use(new ClientPasswordStrategy(verify)) and passport.authenticate(['basic', 'oauth2-client-password'], { session: false }) on the token route",
      docs: 'https://github.com/jaredhanson/oauth2orize#implement-token-endpoint',
    },
    'token-exchange/unknown-code-invalid-grant': {
      fix: "oauth2orize answers invalid_grant with 403: give server.errorHandler() a TokenError status of 400 (new TokenError(message, 'invalid_grant', null, 400)) in the exchange",
      docs: 'https://github.com/jaredhanson/oauth2orize/blob/master/lib/errors/tokenerror.js',
    },
  },
};

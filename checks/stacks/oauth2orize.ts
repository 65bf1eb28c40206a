import { cause, configured } from './causes';
import type { StackEntry } from './stack-entry';

export const oauth2orize: StackEntry = {
  library: 'oauth2orize',
  observedOn: ['1.12.0'],
  docs: 'https://github.com/jaredhanson/oauth2orize#readme',
  signatures: [
    [
      {
        probe: 'token-exchange/unknown-code',
        // No status: the fix below makes it 400, and the words stay the library's.
        said: 'an unknown code is answered "Invalid authorization code"',
        description: 'Invalid authorization code',
      },
      {
        probe: 'token-exchange/missing-grant-type',
        said: 'a request without grant_type is answered 501 "Unsupported grant type: undefined"',
        status: 501,
        description: 'Unsupported grant type: undefined',
      },
    ],
    [
      {
        probe: configured,
        said: 'the platform\'s request, or its retry, is answered 403 "Invalid authorization code"',
        status: 403,
        description: 'Invalid authorization code',
      },
    ],
  ],
  fixes: {
    'token-exchange/encoding': [
      {
        when: cause.basicOnly,
        fix: "authenticate the client in the body as well as by Basic: passport.use(new ClientPasswordStrategy(verify)) and passport.authenticate(['basic', 'oauth2-client-password'], { session: false }) on the token route",
        docs: 'https://github.com/jaredhanson/oauth2orize#implement-token-endpoint',
      },
      {
        when: cause.codeRefused,
        fix: 'oauth2orize leaves the code check to your exchange.code((client, code, redirectURI, done) => …) callback: compare redirectURI only when the token request sends one, which the platform never does (if (redirectURI !== undefined && redirectURI !== saved.redirectUri) return done(null, false))',
        docs: 'https://github.com/jaredhanson/oauth2orize#register-exchanges',
      },
    ],
    'token-exchange/unknown-code-invalid-grant': {
      fix: "oauth2orize answers done(null, false) with invalid_grant and status 403: in your exchange.code callback, refuse a code with done(new oauth2orize.TokenError('Invalid authorization code', 'invalid_grant', null, 400))",
      docs: 'https://github.com/jaredhanson/oauth2orize/blob/master/lib/errors/tokenerror.js',
    },
    'token-exchange/code-reuse-revokes-token': {
      fix: 'keep each used code with the access token your exchange.code callback issued for it, and when a code comes back that was already used, delete that token before refusing the code',
      docs: 'https://github.com/jaredhanson/oauth2orize#register-exchanges',
    },
    'token-exchange/expires-in-present': {
      fix: 'oauth2orize sends expires_in only when you give it: done(null, accessToken, refreshToken, { expires_in: 3600 }) in your exchange.code callback (refreshToken may be null)',
      docs: 'https://github.com/jaredhanson/oauth2orize#register-exchanges',
    },
  },
};

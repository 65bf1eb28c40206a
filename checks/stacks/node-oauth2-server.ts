import { cause, configured } from './causes';
import type { StackEntry } from './stack-entry';

// Its predecessor oauth2-server 3.x answers in the same words: one entry for both.
export const nodeOauth2Server: StackEntry = {
  library: '@node-oauth/oauth2-server (or its predecessor oauth2-server 3.x)',
  observedOn: ['oauth2-server 3.1.1', '@node-oauth/oauth2-server 5.3.0'],
  docs: 'https://node-oauthoauth2-server.readthedocs.io/',
  signatures: [
    [
      {
        probe: 'token-exchange/unknown-code',
        said: 'an unknown code is answered "Invalid grant: authorization code is invalid"',
        description: 'Invalid grant: authorization code is invalid',
      },
      {
        probe: 'token-exchange/missing-grant-type',
        said: 'a request without grant_type is answered "Missing parameter: `grant_type`"',
        description: 'Missing parameter: `grant_type`',
      },
    ],
    [
      {
        probe: configured,
        said: 'the platform\'s request is refused "Invalid request: `redirect_uri` is not a valid URI"',
        contains: 'Invalid request: `redirect_uri` is not a valid URI',
      },
    ],
    [
      {
        probe: configured,
        said: 'the platform\'s request is refused "Invalid client: cannot retrieve client credentials"',
        description: 'Invalid client: cannot retrieve client credentials',
      },
    ],
  ],
  fixes: {
    'token-exchange/encoding': [
      {
        when: cause.basicOnly,
        fix: 'the library reads a body the framework has parsed: parse both, app.use(express.json()) and app.use(express.urlencoded({ extended: false })), before the token route',
        docs: 'https://github.com/node-oauth/express-oauth-server#quick-start',
      },
      {
        when: cause.redirectUri,
        fix: "the library asks for redirect_uri when the code has one, and its authorize() gives every code the client's: in the model's saveAuthorizationCode(code, client, user), leave redirectUri out of the code the platform's client will redeem",
        docs: 'https://node-oauthoauth2-server.readthedocs.io/en/master/model/spec.html#saveauthorizationcode-code-client-user',
      },
      {
        when: '\\"statusCode\\"',
        fix: 'answer errors as the library names them, not res.json(err): res.status(err.code).json({ error: err.name, error_description: err.message }), as express-oauth-server does',
        docs: 'https://github.com/node-oauth/express-oauth-server/blob/master/index.js',
      },
    ],
    'token-exchange/no-echoed-credentials': {
      fix: 'send what oauth.token() put in its Response (res.set(response.headers); res.status(response.status).send(response.body)), not the token object, which holds the client and its secret',
      docs: 'https://github.com/node-oauth/express-oauth-server/blob/master/index.js',
    },
    'token-exchange/token-type-present': {
      fix: 'send the Response oauth.token() filled (its body is the RFC 6749 token response, with token_type and expires_in), not res.json(token)',
      docs: 'https://node-oauthoauth2-server.readthedocs.io/en/master/api/oauth2-server.html#token-request-response-options',
    },
    'token-exchange/expires-in-present': {
      fix: 'send the Response oauth.token() filled, not res.json(token): its body has expires_in from accessTokenLifetime',
      docs: 'https://node-oauthoauth2-server.readthedocs.io/en/master/api/oauth2-server.html#token-request-response-options',
    },
    'token-exchange/code-reuse-revokes-token': {
      fix: "in the model's revokeAuthorizationCode(code), also revoke the tokens issued for that code when it was already used",
      docs: 'https://node-oauthoauth2-server.readthedocs.io/en/master/model/spec.html#revokeauthorizationcode-code',
    },
  },
};

/**
 * The reference partner's fault catalogue. Each fault breaks exactly one behaviour; it is switched on by
 * a path prefix, `/faults/<name>[,<name>…]/…`, so any profile can point at a broken partner by URL alone.
 * Entries marked `conformant` are legal variations that the harness must NOT flag.
 */
export const faultCatalogue = {
  'json-only': { description: 'refuses form-encoded token requests with 415' },
  'form-only': { description: 'refuses JSON token requests with 415' },
  'no-access-token': { description: 'leaves "access_token" out of the token response' },
  'access-token-not-string': { description: 'sends "access_token" as a JSON number' },
  'empty-access-token': { description: 'sends "access_token" as an empty string' },
  'html-content-type': { description: 'serves the JSON token response as text/html' },
  'status-201': { description: 'answers a successful token exchange with 201' },
  'accepts-any-code': { description: 'issues a token for any code, even one it never issued' },
  'unknown-code-invalid-request': { description: 'refuses an unknown code with invalid_request instead of invalid_grant' },
  'allows-code-reuse': { description: 'exchanges the same code again and again' },
  'keeps-token-after-reuse': { description: 'refuses a reused code but leaves its first token working' },
  'ignores-client-secret': { description: 'accepts any client_secret' },
  'no-www-authenticate': { description: 'sends 401 without a WWW-Authenticate header' },
  'ignores-grant-type': { description: 'exchanges the code whatever grant_type says, even when it is missing' },
  'expires-in-string': { description: 'sends "expires_in" as the string "3600"' },
  'expires-in-zero': { description: 'sends "expires_in": 0' },
  'no-expires-in': { description: 'leaves "expires_in" out' },
  'token-type-mac': { description: 'sends "token_type": "mac"' },
  'no-cache-control': { description: 'leaves out "Cache-Control: no-store"' },
  'no-pragma': { description: 'leaves out "Pragma: no-cache"' },
  'token-redirect': { description: 'answers token requests with a 307 redirect to the working endpoint' },
  'tokens-not-accepted': { description: 'account information refuses every access token' },
  'lowercase-bearer': { description: 'sends "token_type": "bearer"', conformant: true },
  'refresh-token-camel-case': { description: 'spells the refresh token "refreshToken", as the spec sample does', conformant: true },
  'no-refresh-token': { description: 'issues no refresh token', conformant: true },
} as const satisfies Record<string, { description: string; conformant?: true }>;

export type Fault = keyof typeof faultCatalogue;

export const isFault = (name: string): name is Fault => Object.hasOwn(faultCatalogue, name);
export const faultNames = Object.keys(faultCatalogue) as Fault[];

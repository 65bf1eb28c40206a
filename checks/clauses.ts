/**
 * The clause catalogue: every spec or RFC clause a rule may cite. Rules cite clauses by these ids, so a
 * typo is a type error; test/unit/clauses.spec.ts also proves every clause here is cited by some rule.
 */
export const clauses = {
  'spec §4.2': 'Partner-hosted endpoints called by the service during SSO (token exchange, account information, funding sources)',
  'RFC6749 §2.3.1': 'Client password authentication (HTTP Basic or client_secret_post)',
  'RFC6749 §4.1.2': 'Authorization code: short-lived, single use; reuse is denied and its tokens SHOULD be revoked',
  'RFC6749 §4.1.3': 'Access token request: grant_type=authorization_code and code are REQUIRED',
  'RFC6749 §5.1': 'Successful token response: 200, application/json, access_token, token_type, expires_in, no-store',
  'RFC6749 §5.2': 'Token error response: 400 (or 401 for invalid_client) with a JSON "error" code',
  'RFC9110 §15.4': 'Redirection 3xx: the platform never follows redirects from partner endpoints',
  'harness §transport': 'A partner endpoint answers with a complete HTTP response within the profile\'s requestTimeoutMs',
} as const;

export type ClauseId = keyof typeof clauses;

/** The causes a token-exchange failure names (checks/token-encoding.ts), by a phrase of its message: what a fix of the catalogue is `when`. */
export const cause = {
  redirectUri: 'the partner requires "redirect_uri"',
  basicOnly: 'requires HTTP Basic client authentication',
  codeRefused: 'the partner refused a code it had just issued',
  json: 'the partner does not accept application/json bodies',
  pkce: 'the partner requires PKCE',
} as const;

/** The probe whose answers are the platform's own token request and the harness's retries of it. */
export const configured = 'token-exchange/configured';

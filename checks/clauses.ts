/**
 * The clause catalogue: every spec or RFC clause a rule may cite. Rules cite clauses by these ids, so a
 * typo is a type error; test/unit/clauses.spec.ts also proves every clause here is cited by some rule.
 */
export const clauses = {
  'spec §2.3': 'Account information: the user and company fields, their "Required" markers and validations',
  'spec §2.3 Address': 'Address object (company.address, company.legalAddress): line1 without PO boxes, city, state, postal code',
  'spec §2.4': 'Funding source: the fundingSources array and each source\'s id, type, nickname, bank numbers and last 4 digits',
  'spec §4.2 sync': 'The platform adds each funding source it finds and removes a known source whose id is gone',
  'spec §4.2': 'Partner-hosted endpoints called by the service during SSO (token exchange, account information, funding sources)',
  'RFC6749 §2.3.1': 'Client password authentication (HTTP Basic or client_secret_post)',
  'RFC6749 §4.1.2': 'Authorization code: short-lived, single use; reuse is denied and its tokens SHOULD be revoked',
  'RFC6749 §4.1.3': 'Access token request: grant_type=authorization_code and code are REQUIRED',
  'RFC6749 §5.1': 'Successful token response: 200, application/json, access_token, token_type, expires_in, no-store',
  'RFC6749 §5.2': 'Token error response: 400 (or 401 for invalid_client) with a JSON "error" code',
  'RFC9110 §15.4': 'Redirection 3xx: the platform never follows redirects from partner endpoints',
  'RFC6750 §3': 'Bearer-protected resources: a request without a valid token gets 401 with WWW-Authenticate: Bearer',
  'ISO 3166-2:US': 'Codes of the 50 states, DC and the outlying areas (AS, GU, MP, PR, UM, VI)',
  'SSA SSN area numbers': 'No SSN is issued with area number 000, 666 or 900–999',
  'IRS ITIN format': 'An ITIN is 9 digits starting with 9, with 4th and 5th digits in 50–65, 70–88, 90–92 or 94–99',
  'IRS EIN prefixes': 'The campus and internet prefixes the IRS assigns as the first two digits of an EIN',
  'ABA routing number': 'A routing number is 9 digits whose 3-7-1 weighted sum is a multiple of 10',
  'NAICS sectors': 'The first two digits of a NAICS 2022 code name one of its 20 sectors',
  'harness §null': 'DESIGN §5: null counts as absent; omit a field rather than send null',
  'spec §1': 'After sign-on the service shows its web application, embedded in the partner\'s application',
  'spec §2.2': 'Page envelope of list responses: items, hasMore, next.after (the id of the last item)',
  'spec §4.1': 'Data API: GET /v1/organizations, bills, payments, vendors with organizationId, ids, limit, after',
  'spec §5.1': 'The data API uses Bearer token authentication',
  'spec §4.3': 'Sandbox mock link: POST create-mock-link with partnerName, token (UUID), externalUserId = user.id, externalOrgId = company.id, accountInfo; answers {link} carrying a JWT',
  'spec §5.4': 'The mock-link endpoint is authenticated by the api-key header',
  'spec §7.1': 'Required data missing: the service shows an error screen and posts an authentication error to the host',
  'spec §7.2': 'CollectMissingAccountInfo: a screen collects the missing required data (user.id and user.email always give the error)',
  'RFC7519 §4.1': 'JWT registered claims: iss, aud, exp, nbf, iat, jti',
  'RFC8725 §3.1': 'JWT best practice: the verifier pins the algorithm and rejects "none" and tokens it cannot verify',
  'harness §mock-link': 'DESIGN §5: the mock-link JWT is HS256, lives at most 10 minutes, is single-use; the landing page sends Referrer-Policy: no-referrer',
  'harness §messages': 'DESIGN §5: AUTHENTICATION_ERROR and NAVIGATED_TO_TARGET go to the partner\'s configured host origin, never \'*\'',
  'harness §escaping': 'Partner data is shown as text in the embedded app, never interpreted as markup',
  'CSP3 frame-ancestors': 'Content Security Policy: frame-ancestors names the origins allowed to frame a page',
  'RFC6265bis §4.1.2': 'Cookies: Secure, and SameSite=None for a cookie sent inside another site\'s iframe',
  'harness §transport': 'A partner endpoint answers with a complete HTTP response within the profile\'s requestTimeoutMs',
} as const;

export type ClauseId = keyof typeof clauses;

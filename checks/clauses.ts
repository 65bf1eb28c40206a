/**
 * The clause catalogue: every spec or RFC clause a rule may cite. Rules cite clauses by these ids, so a
 * typo is a type error; test/unit/clauses.spec.ts also proves every clause here is cited by some rule.
 */
export const clauses = {
  'spec §2.3': 'Account information: the user and company fields, their "Required" markers and validations',
  'spec §2.3 Address': 'Address object (company.address, company.legalAddress): line1 without PO boxes, city, state, postal code',
  'spec §2.4': "Funding source: the fundingSources array and each source's id, type, nickname, bank numbers and last 4 digits",
  'spec §4.2 sync': 'The platform adds each funding source it finds and removes a known source whose id is gone',
  'spec §4.2': 'Partner-hosted endpoints called by the service during SSO (token exchange, account information, funding sources)',
  'RFC6749 §1.6': 'TLS: the token endpoint MUST be called over TLS (§3.2), in a version current for its day: TLS 1.2 or 1.3 (RFC 9325 §3.1.1, RFC 9700 §2.6)',
  'RFC6749 §2.3.1': 'Client password authentication (HTTP Basic or client_secret_post)',
  'RFC6749 §3.2.1':
    'Token endpoint client authentication: a confidential client MUST authenticate; the password (§4.3.2) and client-credentials (§4.4.2) grants MUST authenticate the client',
  'RFC6749 §3.2': 'Token endpoint: the client MUST use POST; unrecognized request parameters MUST be ignored; parameters MUST NOT be included more than once',
  'RFC6749 §10.10': 'Credentials guessing: the chance of guessing a code or token MUST be at most 2^-128 and SHOULD be at most 2^-160',
  'RFC6749 §4.1.2': 'Authorization code: short-lived, single use; reuse is denied and its tokens SHOULD be revoked',
  'RFC6749 §4.1.3': 'Access token request: grant_type=authorization_code and code are REQUIRED',
  'RFC6749 §5.1': 'Successful token response: 200, application/json, access_token, token_type, expires_in, no-store',
  'RFC6749 §5.2':
    'Token error response: 400 with a JSON "error" code; invalid_client may be 401, and MUST be 401 with WWW-Authenticate when the client used the Authorization header',
  'RFC8414 §2':
    'Authorization server metadata: issuer (a client MUST NOT use a document whose issuer differs from the one it is read under, §3.3), token_endpoint, token_endpoint_auth_methods_supported (client_secret_basic when omitted), grant_types_supported',
  'RFC6585 §4': '429 Too Many Requests: the client sent too many requests; a Retry-After header may say how long to wait',
  'RFC9110 §15.4': 'Redirection 3xx: the platform never follows redirects from partner endpoints',
  'RFC8259 §4': 'Objects: the names within an object SHOULD be unique, or parsers disagree on which value counts',
  'RFC8259 §8.1': 'JSON exchanged between systems MUST be UTF-8, and a byte order mark MUST NOT be added',
  'RFC6750 §3': 'Bearer-protected resources: a request without a valid token gets 401 with WWW-Authenticate: Bearer',
  'ISO 3166-2:US': 'Codes of the 50 states, DC and the outlying areas (AS, GU, MP, PR, UM, VI)',
  'SSA SSN area numbers': 'No SSN is issued with area number 000, 666 or 900–999',
  'IRS ITIN format': 'An ITIN is 9 digits starting with 9, with 4th and 5th digits in 50–65, 70–88, 90–92 or 94–99',
  'IRS EIN prefixes': 'The campus and internet prefixes the IRS assigns as the first two digits of an EIN',
  'ABA routing number': 'A routing number is 9 digits whose 3-7-1 weighted sum is a multiple of 10',
  'NAICS sectors': 'The first two digits of a NAICS 2022 code name one of its 20 sectors',
  'harness §null': "The harness's decision where the spec is silent: null counts as absent; omit a field rather than send null",
  'spec §1': "After sign-on the service shows its web application, embedded in the partner's application",
  'spec §2.2': 'Page envelope of list responses: items, hasMore, next.after (the id of the last item)',
  'spec §8': 'Limits: the default page size (`limit`) is 20 to 50, depending on the endpoint',
  'spec §4.1': 'Data API: GET /v1/organizations, bills, payments, vendors with organizationId, ids, limit, after',
  'spec §5.1': 'The data API uses Bearer token authentication',
  'spec §5.2':
    "SSO uses the OAuth 2.0 authorization-code grant: the code is provided to the service's auth URL, whose address and parameters are configured per partner",
  'spec §4.3':
    'Sandbox mock link: POST create-mock-link with partnerName, token (UUID), externalUserId = user.id, externalOrgId = company.id, accountInfo; answers {link} carrying a JWT',
  'spec §5.4': 'The mock-link endpoint is authenticated by the api-key header',
  'spec §7.1': 'Required data missing: the service shows an error screen and posts an authentication error to the host',
  'spec §7.2': 'CollectMissingAccountInfo: a screen collects the missing required data (user.id and user.email always give the error)',
  'RFC7519 §4.1': 'JWT registered claims: iss, aud, exp, nbf, iat, jti',
  'RFC8725 §3.1': 'JWT best practice: the verifier pins the algorithm and rejects "none" and tokens it cannot verify',
  'harness §mock-link':
    "The harness's decision where the spec is silent: the mock-link JWT is HS256, lives at most 10 minutes, is single-use; the landing page sends Referrer-Policy: no-referrer",
  'harness §messages':
    "The harness's decision where the spec is silent: AUTHENTICATION_ERROR and NAVIGATED_TO_TARGET go to the partner's configured host origin, never '*'",
  'harness §escaping': 'Partner data is shown as text in the embedded app, never interpreted as markup',
  'CSP3 frame-ancestors': 'Content Security Policy: frame-ancestors names the origins allowed to frame a page',
  'CSP3 frame-src': 'Content Security Policy: frame-src (or child-src, or default-src) names the origins a page may load in its frames',
  'HTML iframe sandbox': "HTML: an iframe's sandbox attribute takes away scripts, forms, storage and its own origin unless allow-* tokens give them back",
  'HTML postMessage': 'HTML: a window receives messages from any origin; event.origin says whose, and a page must check it',
  'RFC6265bis §4.1.2': "Cookies: Secure, and SameSite=None for a cookie sent inside another site's iframe",
  'harness §json-keys': 'No key named "__proto__": a JavaScript parser that merges it into an object changes the prototype of every object',
  'harness §echo':
    'The token endpoint never sends back the client secret or the code: in a body or a header, a credential reaches every log and cache on the way',
  'harness §transport': "A partner endpoint answers with a complete HTTP response within the profile's requestTimeoutMs",
} as const;

export type ClauseId = keyof typeof clauses;

/**
 * The reference partner's fault catalogue. Each fault breaks exactly one behaviour; it is switched on by
 * a path prefix, `/faults/<name>[,<name>…]/…`, so any profile can point at a broken partner by URL alone.
 * Entries marked `conformant` are legal variations that the harness must NOT flag.
 */

export interface FaultSpec {
  description: string;
  conformant?: true;
  /** Caught only by an opt-in check ("slowChecks"), so by a self-test of its own rather than the fault matrix. */
  slow?: true;
  /** Changes to the complete user's account information: path → value, or `omitted`. */
  account?: Edits;
  /** Changes to its funding-sources body, `{fundingSources: […]}`. */
  funding?: Edits;
}

export const omitted = Symbol('omitted');
export type Edits = Readonly<Record<string, unknown>>;

const protocolFaults = {
  // The reference profile has the platform send JSON: refusing form is then legal, and only noted.
  'json-only': { description: 'refuses form-encoded token requests with 415', conformant: true },
  'form-only': { description: 'refuses JSON token requests with 415' },
  'requires-redirect-uri': {
    description: 'refuses a token request without "redirect_uri" (400 invalid_request), as servers that bind codes to a redirect URI do',
  },
  'requires-basic-auth': { description: 'refuses client credentials in the body (401 invalid_client): only HTTP Basic client authentication is allowed' },
  'requires-pkce': { description: 'refuses a token request without "code_verifier" (400 invalid_grant): PKCE is required' },
  'unknown-client': { description: 'does not know the platform\'s client_id (401 invalid_client "unknown client")' },
  'grants-without-credentials': { description: 'issues a token for "grant_type": "password" or "client_credentials" without any credentials' },
  'invalid-client-400': {
    description: 'answers a wrong client_secret sent in the body with 400 invalid_client (RFC 6749 §5.2 allows 400 or 401)',
    conformant: true,
  },
  'unauthorized-client-grant': { description: 'answers "grant_type": "password" with 400 unauthorized_client', conformant: true },
  'no-access-token': { description: 'leaves "access_token" out of the token response' },
  'access-token-not-string': { description: 'sends "access_token" as a JSON number' },
  'empty-access-token': { description: 'sends "access_token" as an empty string' },
  'html-content-type': { description: 'serves the JSON token response as text/html' },
  'status-201': { description: 'answers a successful token exchange with 201' },
  'accepts-any-code': { description: 'issues a token for any code, even one it never issued' },
  'accepts-unknown-code-once': {
    description: 'issues a token for the first made-up code it is sent, then refuses them: a flaw that a retried test would hide',
  },
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
  'token-accepts-get': { description: 'exchanges a code sent as a GET, with every parameter in the query string' },
  'token-secret-in-query': { description: 'reads client credentials from the query string as well as the body' },
  'token-duplicate-params': { description: 'takes a parameter sent twice without a word: the last of a JSON key, the first of a form field' },
  'token-rejects-unknown-params': { description: 'refuses a token request carrying a parameter it does not know (400 invalid_request)' },
  'token-race-double-redeem': { description: 'checks a code, awaits, then marks it used: codes sent at once all yield tokens' },
  'token-race-loses-one-in-five': {
    description: 'checks a code, awaits, then marks it used for one code in five (at random): a race caught only by luck in one round',
  },
  'token-sequential-tokens': { description: 'issues access tokens from a counter behind a fixed prefix' },
  // Throttled once, briefly: the harness waits it out and notes it (token-exchange/rate-limit); it still certifies.
  'token-rate-limited-once': { description: 'answers the first token request 429 with "Retry-After: 1"', conformant: true },
  'token-codes-never-expire': { description: 'exchanges a code however long ago it was issued', slow: true },
  'token-echoes-secret': { description: 'sends the client secret back in the token response, as "client_secret"' },
} as const satisfies Record<string, FaultSpec>;

type Resource = 'account-info' | 'funding-sources';
const behaviours = [
  'reset',
  'redirect',
  'status-202',
  'text-plain',
  'not-json',
  'ignores-missing-token',
  'accepts-any-token',
  'forbidden-403',
  'unstable-ids',
] as const;
export type Behaviour = (typeof behaviours)[number];

/** Faults of the response around the payload, for one Bearer-protected endpoint. */
function behaviourFaults<R extends Resource>(resource: R, body: string): Record<`${R}-${Behaviour}`, FaultSpec> {
  const described: Record<Behaviour, string> = {
    reset: 'resets the connection before answering',
    redirect: `answers with a 302 redirect to itself`,
    'status-202': 'answers 202 instead of 200',
    'text-plain': 'serves the JSON as text/plain',
    'not-json': resource === 'funding-sources' ? 'answers with the bare array instead of {"fundingSources": […]}' : 'answers with JSON cut off in the middle',
    'ignores-missing-token': `answers a request without a token with ${body}`,
    'accepts-any-token': `answers any Bearer token, even an unknown one, with ${body}`,
    'forbidden-403': 'refuses a missing or unknown token with 403, a common framework default, instead of 401',
    'unstable-ids': resource === 'funding-sources' ? 'gives the funding sources new ids on every call' : 'gives the user a new id on every call',
  };
  return Object.fromEntries(behaviours.map((b) => [`${resource}-${b}`, { description: `${resource}: ${described[b]}` }])) as Record<
    `${R}-${Behaviour}`,
    FaultSpec
  >;
}

const both = (property: string, value: unknown): Edits => ({ [`company.address.${property}`]: value, [`company.legalAddress.${property}`]: value });

/** Field faults: each breaks one rule of spec §2.3/§2.4 (address faults break both addresses alike). */
const dataFaults = {
  'no-user': { description: 'leaves out "user"', account: { user: omitted } },
  'user-not-object': { description: 'sends "user" as a string', account: { user: 'u-1001' } },
  'no-user-id': { description: 'leaves out "user.id"', account: { 'user.id': omitted } },
  'user-id-number': { description: 'sends "user.id" as a number', account: { 'user.id': 1001 } },
  'empty-user-id': { description: 'sends "user.id" as ""', account: { 'user.id': '' } },
  'no-email': { description: 'leaves out "user.email"', account: { 'user.email': omitted } },
  'email-number': { description: 'sends "user.email" as a number', account: { 'user.email': 42 } },
  'invalid-email': { description: 'sends "user.email" without a domain', account: { 'user.email': 'ada.lovelace@' } },
  'no-first-name': { description: 'leaves out "user.firstName"', account: { 'user.firstName': omitted } },
  'first-name-array': { description: 'sends "user.firstName" as an array', account: { 'user.firstName': ['Ada'] } },
  'one-letter-first-name': { description: 'sends "user.firstName": "A"', account: { 'user.firstName': 'A' } },
  'first-name-with-digits': { description: 'sends "user.firstName": "Ada2"', account: { 'user.firstName': 'Ada2' } },
  'no-last-name': { description: 'leaves out "user.lastName"', account: { 'user.lastName': omitted } },
  'last-name-number': { description: 'sends "user.lastName" as a number', account: { 'user.lastName': 7 } },
  'last-name-101-characters': { description: 'sends a "user.lastName" of 101 letters', account: { 'user.lastName': 'L'.repeat(101) } },
  'apostrophe-last-name': { description: 'sends "user.lastName": "O\'Brien"', account: { 'user.lastName': "O'Brien" } },
  'markup-last-name': {
    description: 'sends "user.lastName": "O\'Brien<script>alert(1)</script>", which a waiver of O\'Brien must not cover',
    account: { 'user.lastName': "O'Brien<script>alert(1)</script>" },
  },
  'no-phone': { description: 'leaves out "user.phone"', account: { 'user.phone': omitted } },
  'phone-number-type': { description: 'sends "user.phone" as a JSON number', account: { 'user.phone': 2125550142 } },
  'phone-with-spaces': { description: 'sends "user.phone": "212 555 0142"', account: { 'user.phone': '212 555 0142' } },
  'short-phone': { description: 'sends "user.phone": "555-0142" (7 digits)', account: { 'user.phone': '555-0142' } },
  'non-us-phone': { description: 'sends a London number, "+44-20-7946-0958"', account: { 'user.phone': '+44-20-7946-0958' } },
  'no-date-of-birth': { description: 'leaves out "user.dateOfBirth"', account: { 'user.dateOfBirth': omitted } },
  'date-of-birth-number': { description: 'sends "user.dateOfBirth" as a number', account: { 'user.dateOfBirth': 19851210 } },
  'date-of-birth-with-time': { description: 'sends "user.dateOfBirth" as a timestamp', account: { 'user.dateOfBirth': '1985-12-10T00:00:00Z' } },
  'impossible-date-of-birth': { description: 'sends "user.dateOfBirth": "1985-02-30"', account: { 'user.dateOfBirth': '1985-02-30' } },
  'minor-user': { description: 'sends a user born in 2015', account: { 'user.dateOfBirth': '2015-06-01' } },
  'no-company': { description: 'leaves out "company"', account: { company: omitted } },
  'company-array': { description: 'sends "company" as an array', account: { company: [] } },
  'no-company-id': { description: 'leaves out "company.id"', account: { 'company.id': omitted } },
  'company-id-number': { description: 'sends "company.id" as a number', account: { 'company.id': 2001 } },
  'empty-company-id': { description: 'sends "company.id" as ""', account: { 'company.id': '' } },
  'no-company-name': { description: 'leaves out "company.name"', account: { 'company.name': omitted } },
  'company-name-number': { description: 'sends "company.name" as a number', account: { 'company.name': 3 } },
  'two-letter-company-name': { description: 'sends "company.name": "AE"', account: { 'company.name': 'AE' } },
  'company-name-of-symbols': { description: 'sends "company.name": "A & ."', account: { 'company.name': 'A & .' } },
  'no-addresses': {
    description: 'leaves out "company.address" and "company.legalAddress"',
    account: { 'company.address': omitted, 'company.legalAddress': omitted },
  },
  'addresses-as-strings': {
    description: 'sends both addresses as one-line strings',
    account: { 'company.address': '12 Main Street, Springfield, IL', 'company.legalAddress': '12 Main Street, Springfield, IL' },
  },
  'no-line1': { description: 'leaves out "line1" of both addresses', account: both('line1', omitted) },
  'line1-number': { description: 'sends "line1" as a number', account: both('line1', 12) },
  'empty-line1': { description: 'sends "line1": ""', account: both('line1', '') },
  'po-box-line1': { description: 'sends "line1": "PO Box 1024"', account: both('line1', 'PO Box 1024') },
  'line1-without-number': { description: 'sends "line1": "Main Street"', account: both('line1', 'Main Street') },
  'line2-number': { description: 'sends "line2" as a number', account: both('line2', 400) },
  'no-city': { description: 'leaves out "city"', account: both('city', omitted) },
  'city-number': { description: 'sends "city" as a number', account: both('city', 62701) },
  'empty-city': { description: 'sends "city": ""', account: both('city', '') },
  'no-state': { description: 'leaves out "state"', account: both('state', omitted) },
  'state-number': { description: 'sends "state" as a number', account: both('state', 17) },
  'state-name': { description: 'sends "state": "Illinois"', account: both('state', 'Illinois') },
  'no-postal-code': { description: 'leaves out the postal code', account: both('postalCode', omitted) },
  'postal-code-number': { description: 'sends the postal code as a JSON number', account: both('postalCode', 62701) },
  'both-postal-code-spellings': { description: 'sends "postalCode": "62701" and "postalcode": "62704"', account: both('postalcode', '62704') },
  'short-postal-code': { description: 'sends the postal code "6270"', account: both('postalCode', '6270') },
  'canadian-postal-code': { description: 'sends the postal code "K1A 0B1"', account: both('postalCode', 'K1A 0B1') },
  'legal-name-number': { description: 'sends "company.legalName" as a number', account: { 'company.legalName': 1 } },
  'business-type-number': { description: 'sends "company.businessType" as a number', account: { 'company.businessType': 3 } },
  'unknown-business-type': { description: 'sends "company.businessType": "LLC"', account: { 'company.businessType': 'LLC' } },
  'tax-info-string': { description: 'sends "company.taxInfo" as a string', account: { 'company.taxInfo': 'EIN 12-3456789' } },
  'tax-type-number': { description: 'sends "company.taxInfo.type" as a number', account: { 'company.taxInfo.type': 1 } },
  'unknown-tax-type': { description: 'sends "company.taxInfo.type": "TIN"', account: { 'company.taxInfo.type': 'TIN' } },
  'ssn-for-llc': { description: 'sends an SSN for an llc', account: { 'company.taxInfo': { type: 'SSN', identifier: '123-45-6789' } } },
  'tax-id-number': { description: 'sends "company.taxInfo.identifier" as a number', account: { 'company.taxInfo.identifier': 123456789 } },
  'short-tax-id': { description: 'sends an 8-digit EIN', account: { 'company.taxInfo.identifier': '12-345678' } },
  'itin-starting-with-8': {
    description: 'sends an ITIN that starts with 8, for a sole-proprietorship',
    account: { 'company.businessType': 'sole-proprietorship', 'company.taxInfo': { type: 'ITIN', identifier: '870-70-1234' } },
  },
  'ssn-area-666': {
    description: 'sends an SSN with area number 666, for a sole-proprietorship',
    account: { 'company.businessType': 'sole-proprietorship', 'company.taxInfo': { type: 'SSN', identifier: '666-12-3456' } },
  },
  'itin-group-40': {
    description: 'sends an ITIN whose 4th and 5th digits are 40, for a sole-proprietorship',
    account: { 'company.businessType': 'sole-proprietorship', 'company.taxInfo': { type: 'ITIN', identifier: '900-40-1234' } },
  },
  'ein-prefix-07': { description: 'sends an EIN with the unassigned prefix 07', account: { 'company.taxInfo.identifier': '07-3456789' } },
  'industry-string': { description: 'sends "company.industry" as a string', account: { 'company.industry': 'software' } },
  'naics-code-string': { description: 'sends "company.industry.naicsCode" as the string "541511"', account: { 'company.industry.naicsCode': '541511' } },
  'three-digit-naics-code': { description: 'sends "company.industry.naicsCode": 541', account: { 'company.industry.naicsCode': 541 } },
  'naics-code-outside-sectors': {
    description: 'sends "company.industry.naicsCode": 991234 (sector 99 does not exist)',
    account: { 'company.industry.naicsCode': 991234 },
  },
  'industry-name-number': { description: 'sends "company.industry.name" as a number', account: { 'company.industry.name': 5415 } },
  'company-phone-number-type': { description: 'sends "company.phoneNumber" as a number', account: { 'company.phoneNumber': 2125550199 } },
  'company-phone-with-spaces': { description: 'sends "company.phoneNumber": "212 555 0199"', account: { 'company.phoneNumber': '212 555 0199' } },
  'short-company-phone': { description: 'sends "company.phoneNumber": "555-0199"', account: { 'company.phoneNumber': '555-0199' } },
  'non-us-company-phone': { description: 'sends "company.phoneNumber": "+44-20-7946-0958"', account: { 'company.phoneNumber': '+44-20-7946-0958' } },
  'null-line2': { description: 'sends "line2": null instead of leaving it out', account: both('line2', null) },
  'no-funding-list': { description: 'answers {} without "fundingSources"', funding: { fundingSources: omitted } },
  'funding-list-object': { description: 'sends "fundingSources" as an object', funding: { fundingSources: { 'fs-3001': {} } } },
  'funding-source-string': { description: 'lists a funding source as a string', funding: { 'fundingSources.1': 'fs-3002' } },
  'no-funding-source-id': { description: 'leaves out a funding source\'s "id"', funding: { 'fundingSources.0.id': omitted } },
  'funding-source-id-number': { description: 'sends a funding source\'s "id" as a number', funding: { 'fundingSources.0.id': 3001 } },
  'empty-funding-source-id': { description: 'sends a funding source\'s "id" as ""', funding: { 'fundingSources.0.id': '' } },
  'duplicate-funding-source-ids': { description: 'gives two funding sources the same "id"', funding: { 'fundingSources.1.id': 'fs-3001' } },
  'no-funding-source-type': { description: 'leaves out a funding source\'s "type"', funding: { 'fundingSources.0.type': omitted } },
  'funding-source-type-number': { description: 'sends a funding source\'s "type" as a number', funding: { 'fundingSources.0.type': 1 } },
  'uppercase-ach': { description: 'sends "type": "ACH"', funding: { 'fundingSources.0.type': 'ACH' } },
  'nickname-number': { description: 'sends a "nickname" as a number', funding: { 'fundingSources.0.nickname': 1 } },
  'both-nickname-spellings': { description: 'sends "nickname" and "nickName" with different values', funding: { 'fundingSources.0.nickName': 'Main' } },
  'one-letter-nickname': { description: 'sends "nickname": "X"', funding: { 'fundingSources.0.nickname': 'X' } },
  'no-account-number': { description: 'leaves out "bankAccountNumber"', funding: { 'fundingSources.0.bankAccountNumber': omitted } },
  'account-number-number': { description: 'sends "bankAccountNumber" as a JSON number', funding: { 'fundingSources.0.bankAccountNumber': 123456789 } },
  'empty-account-number': { description: 'sends "bankAccountNumber": ""', funding: { 'fundingSources.0.bankAccountNumber': '' } },
  'masked-account-number': {
    description: 'sends a masked copy of the account number, "****6789"',
    funding: { 'fundingSources.0.bankAccountNumber': '****6789' },
  },
  'no-routing-number': { description: 'leaves out "bankRoutingNumber"', funding: { 'fundingSources.0.bankRoutingNumber': omitted } },
  'routing-number-number': { description: 'sends "bankRoutingNumber" as a JSON number', funding: { 'fundingSources.0.bankRoutingNumber': 11000015 } },
  'routing-checksum': {
    description: 'sends a routing number whose ABA checksum fails, "011000016"',
    funding: { 'fundingSources.0.bankRoutingNumber': '011000016' },
  },
  'last4-number': { description: 'sends "accountNumberLast4Digits" as a number', funding: { 'fundingSources.0.accountNumberLast4Digits': 6789 } },
  'last4-five-digits': { description: 'sends "accountNumberLast4Digits": "56789"', funding: { 'fundingSources.0.accountNumberLast4Digits': '56789' } },
  'null-nickname': { description: 'sends "nickname": null instead of leaving it out', funding: { 'fundingSources.0.nickname': null } },
  'virtual-account-last4': {
    description: 'sends last 4 digits that differ from the account number, as for a virtual number',
    conformant: true,
    funding: { 'fundingSources.0.accountNumberLast4Digits': '4321' },
  },
  'optional-fields-left-out': {
    description: 'leaves out every optional field (legalName, businessType, taxInfo, industry, line2, nickname, last 4 digits)',
    conformant: true,
    account: {
      'company.legalName': omitted,
      'company.businessType': omitted,
      'company.taxInfo': omitted,
      'company.industry': omitted,
      ...both('line2', omitted),
    },
    funding: { 'fundingSources.0.nickname': omitted, 'fundingSources.0.accountNumberLast4Digits': omitted, 'fundingSources.1.nickName': omitted },
  },
} as const satisfies Record<string, FaultSpec>;

export const faultCatalogue = {
  ...protocolFaults,
  ...behaviourFaults('account-info', 'the complete user'),
  ...behaviourFaults('funding-sources', 'the funding sources'),
  ...dataFaults,
} satisfies Record<string, FaultSpec>;

export type Fault = keyof typeof faultCatalogue;

export const isFault = (name: string): name is Fault => Object.hasOwn(faultCatalogue, name);
export const faultNames = Object.keys(faultCatalogue) as Fault[];

import type { Rule } from '../../checks/finding';
import * as rules from '../../checks/token-exchange';
import type { Fault } from '../../sandbox/reference-partner/faults';

const [_transport, redirect] = rules.tokenTransportRules;

/**
 * For every fault of the reference partner: exactly the rules that must not pass (failed for MUST,
 * warning for SHOULD). An empty list marks a conformant variant that must raise nothing.
 * `Record<Fault, …>` makes a fault without an expectation a type error.
 */
export const expectedFailures: Record<Fault, readonly Rule<never, never>[]> = {
  'json-only': [rules.formEncodingAccepted],
  'form-only': [rules.jsonEncodingAccepted],
  'no-access-token': [rules.accessToken],
  'access-token-not-string': [rules.accessToken],
  'empty-access-token': [rules.accessToken],
  'html-content-type': [rules.contentTypeJson],
  'status-201': [rules.status200],
  'accepts-any-code': [rules.unknownCodeRejected],
  'unknown-code-invalid-request': [rules.unknownCodeInvalidGrant],
  'allows-code-reuse': [rules.codeReuseRejected],
  'keeps-token-after-reuse': [rules.codeReuseRevokesToken],
  'ignores-client-secret': [rules.wrongSecretRejected],
  'no-www-authenticate': [rules.unauthorizedNamesScheme],
  'ignores-grant-type': [rules.missingGrantTypeRejected, rules.unsupportedGrantTypeRejected],
  'expires-in-string': [rules.expiresInPositiveInteger],
  'expires-in-zero': [rules.expiresInPositiveInteger],
  'no-expires-in': [rules.expiresInPresent],
  'token-type-mac': [rules.tokenTypeBearer],
  'no-cache-control': [rules.cacheControlNoStore],
  'no-pragma': [rules.pragmaNoCache],
  'token-redirect': [redirect!],
  'tokens-not-accepted': [rules.issuedTokenAccepted],
  'lowercase-bearer': [],
  'refresh-token-camel-case': [],
  'no-refresh-token': [],
};

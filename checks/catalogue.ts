import { accountInfoFieldRules } from './account-info';
import { dataApiRules } from './data-api';
import { partnerAppRules } from './partner-app';
import { signOnRules } from './sign-on';
import { mockLinkRules } from './mock-link';
import type { AnyRule } from './finding';
import { fundingSourceRules } from './funding-sources';
import { type JsonSchema, type Marker } from './payload';
import { payloadSchema } from './payload-schema';
import { accountInfoConsistent, accountInfoResource, bodyRules, fundingSourceIdsStable, fundingSourcesResource } from './resources';
import { tokenTransportRules } from './token-exchange';
import {
  codeExpires,
  concurrentRedemption,
  credentialsInUriRefused,
  duplicateParamRefused,
  getRefused,
  noEchoedCredentials,
  unknownParamIgnored,
} from './token-hardening';
import { discoveryAgrees } from './token-discovery';
import { unguessableCodes, unguessableTokens } from './token-entropy';
import { configuredEncodingAccepted, negativeCasesEncoding, otherEncodingNoted } from './token-encoding';
import { issuedTokenAccepted, successResponseRules, tokenFieldRules } from './token-response';
import {
  codeReuseInvalidGrant,
  codeReuseRejected,
  codeReuseRevokesToken,
  missingGrantTypeRejected,
  noTokenWithoutCredentials,
  unauthorizedNamesScheme,
  unknownCodeInvalidGrant,
  unknownCodeRejected,
  unsupportedGrantTypeRejected,
  wrongSecretInvalidClient,
  wrongSecretRejected,
} from './token-refusals';

/** Every rule of a certification, by endpoint: what docs/RULES.md lists and the tests walk. */

const resourceRules = (resource: typeof accountInfoResource) => [
  ...resource.transport,
  resource.status,
  resource.contentType,
  ...bodyRules(resource),
  resource.nullValues,
  resource.missingToken,
  resource.invalidToken,
  resource.refusalStatus,
  resource.wwwAuthenticate,
];

const tokenExchangeRules: readonly AnyRule[] = [
  ...tokenTransportRules,
  configuredEncodingAccepted,
  otherEncodingNoted,
  negativeCasesEncoding,
  ...successResponseRules,
  ...tokenFieldRules,
  issuedTokenAccepted,
  unknownCodeRejected,
  unknownCodeInvalidGrant,
  codeReuseRejected,
  codeReuseInvalidGrant,
  codeReuseRevokesToken,
  wrongSecretRejected,
  wrongSecretInvalidClient,
  unauthorizedNamesScheme,
  missingGrantTypeRejected,
  unsupportedGrantTypeRejected,
  noTokenWithoutCredentials,
  noEchoedCredentials,
  getRefused,
  credentialsInUriRefused,
  duplicateParamRefused,
  unknownParamIgnored,
  concurrentRedemption,
  unguessableTokens,
  unguessableCodes,
  codeExpires,
  discoveryAgrees,
];

export const catalogue = {
  'token-exchange': tokenExchangeRules,
  'account-info': [...resourceRules(accountInfoResource), accountInfoConsistent, ...accountInfoFieldRules],
  'funding-sources': [...resourceRules(fundingSourcesResource), fundingSourceIdsStable, ...fundingSourceRules],
  'mock-link': mockLinkRules,
  'sign-on': [...partnerAppRules, ...signOnRules],
  'data-api': dataApiRules,
} as const satisfies Record<string, readonly AnyRule[]>;

/** An area of a certification: a suite file, a catalogue key and the prefix of its rules' ids. */
export type Area = keyof typeof catalogue;

/** The fields whose values messages and reports show only by their last 4 characters (checks/sensitive-fields.ts names their keys). */
export const sensitiveFields = [...new Set([...accountInfoFieldRules, ...fundingSourceRules].map((rule) => rule.subject))].filter((field) => field.sensitive);

export const allRules: readonly AnyRule[] = Object.values(catalogue).flat();

// ---- the published JSON Schemas (schemas/*.json, written by `npm run generate`) ----------------------

const always: readonly Marker[] = ['Yes'];
const withoutCollecting: readonly Marker[] = ['Yes', 'Yes*'];
const harnessOnly =
  'The harness checks more than JSON Schema can say: ages on the run date, PO boxes, US phone validity, consistency across calls and SHOULD-level plausibility. See docs/RULES.md.';

export const publishedSchemas: Record<string, JsonSchema> = {
  'account-info.schema.json': payloadSchema(accountInfoFieldRules, {
    $id: 'https://partner-certify.invalid/schemas/account-info.schema.json',
    title: 'Account information (spec §2.3), for a partner without collectMissingAccountInfo',
    description: `Every "Yes" and "Yes*" field is required: without collectMissingAccountInfo, a missing Yes* field shows the user the error screen. ${harnessOnly}`,
    required: withoutCollecting,
  }),
  'account-info.collect-missing.schema.json': payloadSchema(accountInfoFieldRules, {
    $id: 'https://partner-certify.invalid/schemas/account-info.collect-missing.schema.json',
    title: 'Account information (spec §2.3), for a partner with collectMissingAccountInfo',
    description: `Only the "Yes" fields are required: the user types a missing Yes* field at sign-on. ${harnessOnly}`,
    required: always,
  }),
  'funding-sources.schema.json': payloadSchema(fundingSourceRules, {
    $id: 'https://partner-certify.invalid/schemas/funding-sources.schema.json',
    title: 'Funding sources (spec §2.4)',
    description: `The body of the funding-sources endpoint. ${harnessOnly}`,
    required: always,
  }),
};

import type { PartnerConfig } from '../../profile/profile-schema';
import { referenceClient } from '../reference-partner/client';
import { ledgerlyFaultNames } from './faults';

/**
 * Ledgerly: a second platform, shaped independently of the emulator, so the harness is proven on a
 * platform it did not write. Its API and its app are on two origins; it signs mock links with RS256 and
 * publishes its key as a JWKS; its link redirects to the app, a single-page app that renders and posts to
 * the host after a fetch of its own, with markup and message names of its own; it allows two host origins
 * for a partner; and its data API makes choices of its own. It is configured in its own code, as a real
 * platform is in its admin: the harness never configures or seeds it.
 */
export const ledgerly = {
  apiPort: 4403,
  appPort: 4404,
  apiKey: 'ledgerly-sandbox-api-key',
  dataApiToken: 'ledgerly-data-api-token',
  issuer: 'https://ledgerly.example',
  /** A link lives half an hour. */
  linkLifetimeSeconds: 1800,
} as const;

export const ledgerlyOrigins = { api: `http://127.0.0.1:${ledgerly.apiPort}`, app: `http://127.0.0.1:${ledgerly.appPort}` } as const;

const referencePartner = {
  tokenExchangeUrl: 'http://127.0.0.1:4400/oauth/token',
  accountInfoUrl: 'http://127.0.0.1:4400/api/account',
  fundingSourcesUrl: 'http://127.0.0.1:4400/api/funding-sources',
  clientId: referenceClient.id,
  clientSecret: referenceClient.secret,
  scope: undefined,
  collectMissingAccountInfo: true,
  tokenExchangeEncoding: 'json',
  requestTimeoutMs: 10_000,
  hostOrigin: 'http://app.reference.example',
  hostOrigins: ['http://app.reference.example', 'http://127.0.0.1:4400'],
} as const satisfies PartnerConfig & { hostOrigins: readonly string[] };

/**
 * The partners Ledgerly knows, as its admin holds them: the reference partner, with two host origins (the second is
 * its app's, sandbox/reference-partner/app.ts), and the same partner under one more name for each of its faults (reference-<fault>),
 * so that a certification of each fault can run beside the others (a platform keeps one configuration per partner name).
 */
export const ledgerlyPartners: ReadonlyMap<string, PartnerConfig & { hostOrigins: readonly string[] }> = new Map(
  ['reference', ...ledgerlyFaultNames.map((fault) => `reference-${fault}`)].map((name) => [
    name,
    { ...referencePartner, hostOrigins: [...referencePartner.hostOrigins] },
  ]),
);

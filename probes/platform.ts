import { randomUUID } from 'node:crypto';
import type { Browser } from '@playwright/test';
import { bodyPreview, isObject } from '../checks/evidence';
import type { Blocker } from '../checks/finding';
import type { Payload } from '../checks/payload';
import { configuredEncodingAccepted } from '../checks/token-encoding';
import { partnerConfigOf, type PlatformProfile, type Profile } from '../profile/profile-schema';
import type { HttpClient, HttpRequest } from '../client/http';
import { authUrl, emulatorPartnerUrl, mockLinkUrl } from '../profile/platform-urls';
import { emulatorMessages, type MessageVocabulary } from '../checks/sign-on-visit';
import { platformKind } from '../profile/platform-kind';
import { emulatorMockLink } from '../checks/mock-link';
import type { Probe, ProbeContext } from './probe';
import type { LiveAccountInfo } from './live-account-info';
import { SetupError } from '../client/setup-error';

/** The platform a profile signs on through (its `platform` block), ready to drive, with its defaults decided. */
/** Where the harness serves its own host page, in the browser, at a profile's host origin. */
export const servedHostPath = '/certify-host/';

/** The bundled emulator's markup: what the spec leaves open ("not shown"). */
const emulatorScreens = {
  app: 'main[data-screen="app"]',
  error: 'main[data-screen="error"]',
  collect: 'main[data-screen="collect"]',
  submit: 'button[type=submit]',
  fundingSource: '[data-funding-source]',
};

export interface Platform extends Omit<PlatformProfile, 'messages' | 'mockLink' | 'appOrigins' | 'authUrl' | 'screens' | 'httpCredentials'> {
  /** What the browser answers the platform's HTTP authentication with, and the one origin it answers. */
  httpCredentials?: { username: string; password: string; origin: string };
  kind: 'emulator' | 'external';
  /** What the platform calls its messages to the host: the profile's, or the emulator's. */
  messages: MessageVocabulary;
  /** The mock link's JWT: the profile's, or the emulator's. */
  mockLink: { algorithms: readonly string[]; claim: string; maxLifetimeSeconds: number; unauthorizedStatus?: number; invalidStatus?: number; jwksUrl?: string };
  /** Where the embedded app is served from: the profile's, or the platform's own origin. */
  appOrigins: readonly string[];
  /** The auth URL for a fresh code. */
  codeUrl(code: string): string;
  /** Whether the harness serves its own host page, in the browser, at the profile's host origin. */
  servesHostPage: boolean;
  /** How to find the app's screens: the profile's locators, or the emulator's. */
  screens: Required<Omit<NonNullable<PlatformProfile['screens']>, 'fields' | 'fieldErrors' | 'fundingSourcesLink'>> &
    Pick<NonNullable<PlatformProfile['screens']>, 'fields' | 'fieldErrors' | 'fundingSourcesLink'>;
  configure: boolean;
  storeTestData: boolean;
  /** `{url}/v1/emulator/partners/{partnerName}`: this partner on the bundled emulator's own API. */
  emulatorPartnerUrl: string;
  origin: string;
  /** The origin of `hostPageUrl`: where the platform posts its messages. */
  hostOrigin: string;
}

export interface PlatformContext extends ProbeContext {
  platform: Platform;
  /** The partner's live account information, read once per worker with the worker's token. */
  accountInfo(): Promise<LiveAccountInfo>;
}

export type PlatformProbe = Probe<PlatformContext, 'platform'>;
export type BrowserProbe = Probe<BrowserProbeContext, 'browser'>;
/** Any probe: its `kind` says which context it runs in (fixtures/harness.ts gives each its own). */
export type AnyProbe = Probe | PlatformProbe | BrowserProbe;

export interface BrowserProbeContext extends PlatformContext {
  browser: Browser;
  /**
   * Where each browser probe keeps the trace of its own context. A probe's context lives as long as the
   * probe, not the test that started it: Playwright's own tracing, which stops a test's contexts when the
   * test ends, would make every test wait for every browser probe started with it.
   */
  traceDir?: string;
}

/** Where a code opens the platform: as the partner's app sent the user there (codes.browser), else by the profile's auth URL. */
export const addressFor = (ctx: BrowserProbeContext, code: string) => ctx.codes.addressOf?.(code) ?? ctx.platform.codeUrl(code);

/** Why a probe that stores what a person would not type in the platform does not run against this one. */
export const storesTestDataSkipReason = (profile: Profile, what: string): string | undefined =>
  profile.platform && !platformOf(profile.platform).storeTestData
    ? `it would store ${what} in a platform the harness did not write; set "platform.storeTestData": true to allow it (a sandbox of your own)`
    : undefined;

export const platformSkipReason = (profile: Profile): string | undefined =>
  profile.platform ? undefined : 'the profile has no "platform" block ({"url", "apiKey", "partnerName"}), so there is no platform to sign on through';

export function platformOf({ authUrl: codeUrlTemplate, httpCredentials, ...platform }: PlatformProfile): Platform {
  const kind = platformKind(platform);
  const codeUrl = (code: string) =>
    (codeUrlTemplate ?? `${authUrl(platform.url, '{partnerName}')}?code={code}`)
      .replaceAll('{partnerName}', encodeURIComponent(platform.partnerName))
      .replaceAll('{code}', encodeURIComponent(code));
  return {
    ...(httpCredentials ? { httpCredentials: { ...httpCredentials, origin: httpCredentials.origin ?? new URL(codeUrl('code')).origin } } : {}),
    ...platform,
    kind,
    // Nothing is written to a platform the harness did not write unless the profile says so.
    configure: platform.configure ?? kind === 'emulator',
    storeTestData: platform.storeTestData ?? kind === 'emulator',
    messages: platform.messages ?? emulatorMessages,
    mockLink: platform.mockLink ?? emulatorMockLink,
    appOrigins: platform.appOrigins ?? [new URL(platform.url).origin],
    screens: { ...emulatorScreens, ...platform.screens },
    codeUrl,
    emulatorPartnerUrl: emulatorPartnerUrl(platform.url, platform.partnerName),
    origin: new URL(platform.url).origin,
    hostOrigin: platform.hostOrigin ?? new URL(platform.hostPageUrl).origin,
    // At a host origin of the profile's, the host page is the harness's own, served in the browser.
    hostPageUrl: platform.hostOrigin ? `${platform.hostOrigin}${servedHostPath}` : platform.hostPageUrl,
    servesHostPage: platform.hostOrigin !== undefined,
  };
}

/**
 * Connects to the profile's platform. With `configure` (the bundled emulator) the platform is first
 * handed this partner's configuration, taken from the profile: the URLs, client credentials,
 * collectMissingAccountInfo, the host origin and the encoding.
 */
export async function connectPlatform(profile: Profile, http: HttpClient): Promise<Platform> {
  if (!profile.platform) throw new SetupError('platform', platformSkipReason(profile) ?? 'the profile has no "platform" block');
  const platform = platformOf(profile.platform);
  if (!platform.configure) return platform;
  const url = platform.emulatorPartnerUrl;
  const exchange = await http.send({
    method: 'PUT',
    url,
    headers: { 'api-key': platform.apiKey, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(partnerConfigOf({ ...profile, platform: profile.platform })),
  });
  const status = exchange.response?.status;
  if (status === 200) return platform;
  const answer = exchange.failure?.message ?? `${status} ${bodyPreview(exchange.response?.body ?? '', 200)}`;
  const hint =
    status === 404 || status === 405 ? '; a platform that is not the bundled emulator is configured in its own admin: set "platform.configure": false' : '';
  throw new SetupError('platform', `"platform.url": the partner's configuration could not be sent to ${url} (${answer})${hint}`);
}

/**
 * Why the platform's own code path cannot sign on, if it cannot: it exchanges codes only in the
 * configured encoding, so when that issued no token the code-path rules are blocked by that failure.
 */
export async function codePathBlocker(ctx: ProbeContext): Promise<Blocker | undefined> {
  const exchanged = await ctx.workerExchange();
  if ('blocker' in exchanged) return exchanged.blocker;
  if (exchanged.encoding === ctx.profile.tokenExchangeEncoding) return undefined;
  return { rule: configuredEncodingAccepted.id, reason: 'the platform exchanges codes in the configured encoding, which issued no token' };
}

/** Spec §4.3: the mock-link request body for account information, with `edits` applied to it. */
export function mockLinkBody(platform: Platform, accountInfo: Payload): Payload {
  const user = isObject(accountInfo.user) ? accountInfo.user : {};
  const company = isObject(accountInfo.company) ? accountInfo.company : {};
  return { partnerName: platform.partnerName, token: randomUUID(), externalUserId: user.id, externalOrgId: company.id, accountInfo: { user, company } };
}

/** The mock-link request (spec §4.3); an `apiKey` of null sends none. */
export function mockLinkRequest(platform: Platform, body: string, apiKey: string | null = platform.apiKey): HttpRequest {
  return {
    method: 'POST',
    url: mockLinkUrl(platform.url),
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(apiKey === null ? {} : { 'api-key': apiKey }) },
    body,
  };
}

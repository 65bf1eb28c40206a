import type { Profile } from '../partners/profile';
import { CodeSourceError, mintedCodes } from './codes';
import { httpClient } from './http';
import type { Browser } from '@playwright/test';
import { signOnProbes } from './embedded-app';
import { mockLinkProbes } from './mock-link';
import { accountInfoOnce, connectPlatform } from './platform';
import { codesNeeded, type Probe, type ProbeResult } from './probe';
import { accountInfoProbes, fundingSourcesProbes } from './resources';
import { tokenExchangeProbes } from './token-exchange';

/** Every probe of the partner's HTTP endpoints, in suite order. */
export const certificationProbes: readonly Probe[] = [...tokenExchangeProbes, ...accountInfoProbes, ...fundingSourcesProbes];

/**
 * The codes a full run spends: every probe's own, plus, with a "platform" block, one per worker for the
 * live account information the mock-link and browser probes build on.
 */
export function codesForRun(profile: Profile, workers = 1): number {
  const own = codesNeeded([...certificationProbes, ...mockLinkProbes, ...signOnProbes], profile);
  return own + (profile.platform ? workers : 0);
}

/**
 * Runs probes all at once, outside Playwright (self-tests, the benchmark), against a profile whose codes
 * come from "codes.mintUrl".
 */
export async function runProbes(profile: Profile, probes: readonly Probe[] = certificationProbes): Promise<ProbeResult[]> {
  const { mintUrl } = profile.codes;
  if (!mintUrl) throw new CodeSourceError('running probes outside Playwright needs a profile with "codes.mintUrl"');
  const http = httpClient({ timeoutMs: profile.requestTimeoutMs });
  const codes = mintedCodes(mintUrl, http);
  return Promise.all(probes.map((probe) => probe.run({ profile, http, codes })));
}

/** Runs the mock-link and browser probes all at once, outside Playwright Test, for a profile with "platform" and "codes.mintUrl". */
export async function runPlatformProbes(profile: Profile, browser: Browser): Promise<ProbeResult[]> {
  const { mintUrl } = profile.codes;
  if (!mintUrl) throw new CodeSourceError('running probes outside Playwright needs a profile with "codes.mintUrl"');
  const http = httpClient({ timeoutMs: profile.requestTimeoutMs });
  const ctx = { profile, http, codes: mintedCodes(mintUrl, http) };
  const platform = await connectPlatform(profile, http);
  const accountInfo = accountInfoOnce(http, ctx);
  const applies = (probe: Pick<Probe, 'skipReason'>) => !probe.skipReason?.(profile);
  return Promise.all([
    ...mockLinkProbes.filter(applies).map((probe) => probe.run({ ...ctx, platform, accountInfo })),
    ...signOnProbes.filter(applies).map((probe) => probe.run({ ...ctx, platform, accountInfo, browser })),
  ]);
}

import type { Profile } from '../partners/profile';
import { CodeSourceError, mintedCodes } from './codes';
import { httpClient } from './http';
import { signOnProbes } from './embedded-app';
import { mockLinkProbes } from './mock-link';
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

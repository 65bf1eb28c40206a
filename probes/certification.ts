import type { Profile } from '../partners/profile';
import { CodeSourceError, mintedCodes } from './codes';
import { httpClient } from './http';
import type { Probe, ProbeResult } from './probe';
import { accountInfoProbes, fundingSourcesProbes } from './resources';
import { tokenExchangeProbes } from './token-exchange';

/** Every probe of a full certification run, in suite order. */
export const certificationProbes: readonly Probe[] = [...tokenExchangeProbes, ...accountInfoProbes, ...fundingSourcesProbes];

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

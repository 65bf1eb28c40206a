import type { Profile } from '../shared/profile-schema';
import { CodeSourceError, mintedCodes } from './codes';
import { httpClient } from '../client/http';
import type { Browser } from '@playwright/test';
import { signOnProbes } from './embedded-app';
import { mockLinkProbes } from './mock-link';
import { accountInfoOnce, connectPlatform, type BrowserProbeContext } from './platform';
import { codesNeeded, type Probe, type ProbeContext, type ProbeResult } from './probe';
import { accountInfoProbes, fundingSourcesProbes } from './resources';
import { tokenExchangeProbes, workerExchangeOnce } from './token-exchange';

/** Every probe of the partner's HTTP endpoints, in suite order. */
export const certificationProbes: readonly Probe[] = [...tokenExchangeProbes, ...accountInfoProbes, ...fundingSourcesProbes];

/**
 * The codes a full run spends: every probe's own, plus one per worker for the worker's exchange, which
 * shows an encoding that issues tokens (the negative cases are sent in it) and reads the live account
 * information the mock-link and browser probes build on.
 */
export function codesForRun(profile: Profile, workers = 1): number {
  return codesNeeded([...certificationProbes, ...mockLinkProbes, ...signOnProbes], profile) + workers;
}

/** A probe context outside Playwright (self-tests, the benchmark): codes come from "codes.mintUrl". */
function standaloneContext(profile: Profile): ProbeContext {
  const { mintUrl } = profile.codes;
  if (!mintUrl) throw new CodeSourceError('running probes outside Playwright needs a profile with "codes.mintUrl"');
  const http = httpClient({ timeoutMs: profile.requestTimeoutMs });
  const codes = mintedCodes(mintUrl, http);
  return { profile, http, codes, workerExchange: workerExchangeOnce(http, { profile, codes }) };
}

/** Runs probes all at once, outside Playwright. */
export async function runProbes(profile: Profile, probes: readonly Probe[] = certificationProbes): Promise<ProbeResult[]> {
  const ctx = standaloneContext(profile);
  return Promise.all(probes.map((probe) => probe.run(ctx)));
}

/** Runs the mock-link and browser probes (or only `only` of the browser ones) all at once, outside Playwright, for a profile with "platform". */
export async function runPlatformProbes(profile: Profile, browser: Browser, only?: readonly Probe<BrowserProbeContext>[]): Promise<ProbeResult[]> {
  const ctx = standaloneContext(profile);
  const platform = await connectPlatform(profile, ctx.http);
  const accountInfo = accountInfoOnce(ctx.http, ctx);
  const applies = (probe: Pick<Probe, 'skipReason'>) => !probe.skipReason?.(profile);
  return Promise.all([
    ...(only ? [] : mockLinkProbes.filter(applies).map((probe) => probe.run({ ...ctx, platform, accountInfo }))),
    ...(only ?? signOnProbes).filter(applies).map((probe) => probe.run({ ...ctx, platform, accountInfo, browser })),
  ]);
}

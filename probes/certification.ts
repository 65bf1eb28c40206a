import type { Profile } from '../profile/profile-schema';
import { mintedCodes } from './minted-codes';
import { SetupError } from '../client/setup-error';
import { profileClient } from '../client/http';
import type { Browser } from '@playwright/test';
import { signOnProbes } from './sign-on';
import { dataApiProbes } from './data-api';
import { tamperedLinkProbes } from './mock-link-tampered';
import { mockLinkProbes } from './mock-link';
import { connectPlatform, type AnyProbe, type BrowserProbe } from './platform';
import { accountInfoOnce } from './live-account-info';
import { type Probe, type ProbeContext, type ProbeResult } from './probe';
import { codesNeeded, execute, notApplicable } from './executor';
import { accountInfoProbes, fundingSourcesProbes } from './resources';
import { tokenExchangeProbes } from './token-exchange';
import { workerExchangeOnce } from './exchange';

/** Every probe of the partner's HTTP endpoints, in suite order. */
export const certificationProbes: readonly Probe[] = [...tokenExchangeProbes, ...accountInfoProbes, ...fundingSourcesProbes];

/** The probes that open a browser. */
export const browserProbes: readonly BrowserProbe[] = [...signOnProbes, ...tamperedLinkProbes];

/** Every probe of a certification, in suite order: each catalogue rule is owned by exactly one of them. */
export const allProbes: readonly AnyProbe[] = [...certificationProbes, ...mockLinkProbes, ...tamperedLinkProbes, ...signOnProbes, ...dataApiProbes];

/**
 * The codes a full run spends: every probe's own, plus one for the exchange of the partner's one worker
 * (playwright.config.ts), which shows an encoding that issues tokens (the negative cases are sent in it)
 * and reads the live account information the mock-link and browser probes build on.
 */
export function codesForRun(profile: Profile): number {
  return codesNeeded(allProbes, profile) + 1;
}

/** A probe context outside Playwright (self-tests, the benchmark): codes come from "codes.mintUrl". */
function standaloneContext(profile: Profile, now: () => Date = () => new Date()): ProbeContext {
  const { mintUrl } = profile.codes;
  if (!mintUrl) throw new SetupError('code-source', 'running probes outside Playwright needs a profile with "codes.mintUrl"');
  const http = profileClient(profile);
  const codes = mintedCodes(mintUrl, http);
  return { profile, http, codes, now, workerExchange: workerExchangeOnce(http, { profile, codes }) };
}

const applies = (profile: Profile) => (probe: AnyProbe) => notApplicable(probe, profile) === undefined;

/** Runs the probes that apply to the profile all at once, outside Playwright. */
export async function runProbes(profile: Profile, probes: readonly Probe[] = certificationProbes, now?: () => Date): Promise<ProbeResult[]> {
  const ctx = standaloneContext(profile, now);
  try {
    return await Promise.all(probes.filter(applies(profile)).map(async (probe) => (await execute(probe, profile, async () => ctx)).result));
  } finally {
    // Many runs in one process (the self-tests) would otherwise keep every connection open until the server's keep-alive ends.
    await ctx.http.close?.();
  }
}

/** Runs the mock-link and browser probes (or only `only` of the browser ones) all at once, outside Playwright, for a profile with "platform". */
export async function runPlatformProbes(profile: Profile, browser: Browser, only?: readonly BrowserProbe[], now?: () => Date): Promise<ProbeResult[]> {
  const ctx = standaloneContext(profile, now);
  try {
    const platform = await connectPlatform(profile, ctx.http);
    const accountInfo = accountInfoOnce(ctx.http, ctx);
    const executed = await Promise.all([
      ...(only ? [] : mockLinkProbes.filter(applies(profile)).map((probe) => execute(probe, profile, async () => ({ ...ctx, platform, accountInfo })))),
      ...(only ?? browserProbes).filter(applies(profile)).map((probe) => execute(probe, profile, async () => ({ ...ctx, platform, accountInfo, browser }))),
    ]);
    return executed.map(({ result }) => result);
  } finally {
    await ctx.http.close?.();
  }
}

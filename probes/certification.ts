import type { Browser } from '@playwright/test';
import type { Profile } from '../profile/profile-schema';
import { mintedCodes } from './minted-codes';
import { SetupError } from '../client/setup-error';
import { profileClient } from '../client/http';
import { signOnProbes } from './sign-on';
import { dataApiProbes } from './data-api';
import { tamperedLinkProbes } from './mock-link-tampered';
import { mockLinkProbes } from './mock-link';
import { type AnyProbe, type BrowserProbe } from './platform';
import { type Probe, type ProbeResult } from './probe';
import { codesNeeded, notApplicable } from './executor';
import { probeRunner, type ProbeOutcome } from './runner';
import { accountInfoProbes, fundingSourcesProbes } from './resources';
import { tokenExchangeProbes } from './token-exchange';

/** Every probe of the partner's HTTP endpoints, in suite order. */
export const certificationProbes: readonly Probe[] = [...tokenExchangeProbes, ...accountInfoProbes, ...fundingSourcesProbes];

/** The probes that open a browser. */
export const browserProbes: readonly BrowserProbe[] = [...signOnProbes, ...tamperedLinkProbes];

/** The probes that judge the platform (and the partner's part in sign-on): the mock link, the browser, the data API. */
export const platformProbes: readonly AnyProbe[] = [...mockLinkProbes, ...browserProbes, ...dataApiProbes];

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

const resultOf = (outcome: ProbeOutcome): ProbeResult => {
  if ('error' in outcome) throw new Error(outcome.error);
  return outcome.result;
};

/**
 * Runs the probes that apply to the profile all at once, outside Playwright (the self-tests, the benchmark),
 * through the one runner (probes/runner.ts): codes come from "codes.mintUrl"; the first probe that could not
 * run throws, once all have ended.
 */
async function runStandalone(profile: Profile, probes: readonly AnyProbe[], now?: () => Date, browser?: Browser): Promise<ProbeResult[]> {
  const { mintUrl } = profile.codes;
  if (!mintUrl) throw new SetupError('code-source', 'running probes outside Playwright needs a profile with "codes.mintUrl"');
  const http = profileClient(profile);
  const runner = probeRunner({
    profile,
    http,
    codes: mintedCodes(mintUrl, http),
    now: now ?? (() => new Date()),
    learn: () => undefined,
    ...(browser ? { launch: async () => browser } : {}),
  });
  try {
    const outcomes = await Promise.all(probes.filter((probe) => notApplicable(probe, profile) === undefined).map((probe) => runner.run(probe)));
    return outcomes.map(resultOf);
  } finally {
    // Many runs in one process (the self-tests) would otherwise keep every connection open until the server's keep-alive ends.
    await http.close?.();
  }
}

/** Runs the probes that apply to the profile all at once, outside Playwright. */
export const runProbes = (profile: Profile, probes: readonly Probe[] = certificationProbes, now?: () => Date): Promise<ProbeResult[]> =>
  runStandalone(profile, probes, now);

/** Runs the mock-link and browser probes (or only `only` of them) all at once, outside Playwright, in `browser` (not closed). */
export const runPlatformProbes = (profile: Profile, browser: Browser, only?: readonly AnyProbe[], now?: () => Date): Promise<ProbeResult[]> =>
  runStandalone(profile, only ?? [...mockLinkProbes, ...browserProbes], now, browser);

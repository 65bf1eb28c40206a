import type { Browser } from '@playwright/test';
import type { HttpClient } from '../client/http';
import { isSetupError } from '../client/setup-error';
import type { Profile } from '../profile/profile-schema';
import type { CodeSource } from './code-source';
import { workerExchangeOnce } from './exchange';
import { execute, type Executed } from './executor';
import { accountInfoOnce, type LiveAccountInfo } from './live-account-info';
import { connectPlatform, type AnyProbe, type BrowserProbeContext, type Platform, type PlatformContext } from './platform';
import type { ProbeContext, ProbeResult } from './probe';

/** What a runner needs: the partner, how to reach it, and where what the probes meet goes. */
export interface ProbeRunnerOptions {
  profile: Profile;
  /** The variable each `env:` field of the profile was read from, by field path: named in a fix, never a value. */
  envNames?: Readonly<Record<string, string>>;
  http: HttpClient;
  codes: CodeSource;
  /** The clock the probes judge ages and lifetimes against. */
  now: () => Date;
  /** A secret met on the way (a cookie, a code a page framed), handed on at once. */
  learn: (values: readonly string[]) => void;
  /** Launches the browser the browser probes share, when the first of them runs; `close()` closes it. Without it, a browser probe is an error. */
  launch?: () => Promise<Browser>;
  /** Where each browser probe keeps the trace of its own browser context. */
  traceDir?: string;
}

/**
 * How a probe ended: its result (with the browser that ran it, for a browser probe; and, when the probe does not
 * apply to the profile, why, its every rule skipped), or why it could not run (with the code source's screen).
 */
export type ProbeOutcome = { result: ProbeResult; browser?: string; notApplicable?: string } | { error: string; screenshot?: Buffer };

export interface ProbeRunner {
  /** Runs one probe through the executor (probes/executor.ts); never rejects. */
  run(probe: AnyProbe): Promise<ProbeOutcome>;
  /** The partner's live account information, read once (with the worker's exchange) for every probe that needs it. */
  accountInfo(): Promise<LiveAccountInfo>;
  /** Closes the browser it launched, if it launched one. */
  close(): Promise<void>;
}

/**
 * The one way to run a probe, in a Playwright worker or outside one: each probe gets the context its kind says,
 * made when first needed (the platform connected, the browser launched, once each); the worker's exchange
 * and the live account information are made once, when first asked for.
 */
export function probeRunner({ profile, envNames, http, codes, now, learn, launch, traceDir }: ProbeRunnerOptions): ProbeRunner {
  const base: ProbeContext = {
    profile,
    ...(envNames ? { envNames } : {}),
    http,
    codes,
    now,
    learn,
    workerExchange: workerExchangeOnce(http, { profile, codes }),
  };
  const accountInfo = accountInfoOnce(http, base);
  let platform: Promise<Platform> | undefined;
  let browser: Promise<Browser> | undefined;
  const platformContext = async (): Promise<PlatformContext> => ({ ...base, accountInfo, platform: await (platform ??= connectPlatform(profile, http)) });
  const browserContext = async (launched: Browser): Promise<BrowserProbeContext> => ({
    ...(await platformContext()),
    browser: launched,
    ...(traceDir ? { traceDir } : {}),
  });

  const run = async (probe: AnyProbe): Promise<ProbeOutcome> => {
    if (probe.kind === 'http') return execute(probe, profile, async () => base);
    if (probe.kind === 'platform') return execute(probe, profile, platformContext);
    let name: string | undefined;
    const executed: Executed = await execute(probe, profile, async () => {
      const launched = await (browser ??= launch ? launch() : Promise.reject(new Error('no browser to run a browser probe in')));
      // The certification report names the browser that certified.
      name = `${launched.browserType().name()} ${launched.version()}`;
      return browserContext(launched);
    });
    return { ...executed, ...(name ? { browser: name } : {}) };
  };

  return {
    run: (probe) => run(probe).catch(failedOutcome),
    accountInfo,
    close: async () => void (await (await browser?.catch(() => undefined))?.close()),
  };
}

/** A probe that could not run: why, and the code source's screen when a login in the partner's app failed. */
function failedOutcome(error: unknown): ProbeOutcome {
  const screenshot = isSetupError(error, 'code-source') ? error.screenshot : undefined;
  return { error: error instanceof Error ? error.message : String(error), ...(screenshot ? { screenshot } : {}) };
}

import type { Exchange } from '../checks/evidence';
import type { Finding } from '../checks/finding';
import type { Profile } from '../profile/profile-schema';
import type { AnyRule, Blocker, Owner } from '../checks/finding';
import type { Area } from '../checks/catalogue';
import type { Encoding } from '../checks/token-exchange';
import type { CodeSource } from './code-source';
import { endpointOf, recorder, type HttpClient, type Recorder } from '../client/http';
import { evaluate, type Rule } from '../checks/finding';
import { transportRule } from '../checks/transport';
import { tokenTransportRules } from '../checks/token-exchange';
import { accountInfoResource, fundingSourcesResource } from '../checks/resources';
import { mockLinkTransportRules } from '../checks/mock-link';
import { mockLinkUrl } from '../profile/platform-urls';
import { gradeEmulatorChoices } from './emulator-choices';

/** One exchange of a fresh code per worker: an encoding shown to issue a token, and the token; or why none came. */
export type WorkerExchange = { exchanges: Exchange[] } & ({ encoding: Encoding; token: string } | { blocker: Blocker });

export interface ProbeContext {
  profile: Profile;
  http: HttpClient;
  codes: CodeSource;
  /** The variable each `env:` field of the profile was read from, by field path ("clientSecret"): named in a fix, never a value. */
  envNames?: Readonly<Record<string, string>>;
  /** The run's clock: rules judge ages and lifetimes against it, and tests freeze it. */
  now(): Date;
  /** The worker's one exchange of a code, made once when first asked for (probes/token-exchange.ts, workerExchangeOnce). */
  workerExchange(): Promise<WorkerExchange>;
  /**
   * Hands the run, at once, a credential met outside the harness's own exchanges (a cookie a browser was
   * given, a code a partner's page framed): what is stored from then on masks it, a trace cut at the end of
   * the test that is running too.
   */
  learn?(values: readonly string[]): void;
}

export interface ProbeResult {
  findings: Finding[];
  /** Every HTTP exchange the probe made, for evidence. */
  exchanges: Exchange[];
  /** What a browser showed, in order: `name` says which screen (`mock-link-app`). */
  screenshots?: Screenshot[];
  /** The probe's own Playwright trace (a zip), when its context recorded one: its test keeps it when something failed. */
  trace?: string;
}

export interface Screenshot {
  name: string;
  png: Buffer;
}

/**
 * What a probe needs to run, and so the context it gets: `http`, the partner's endpoints alone; `platform`, the
 * platform as well; `browser`, the platform and Chromium.
 */
export type ProbeKind = 'http' | 'platform' | 'browser';

/** One interaction with a partner: a few calls, then every rule that applies to what came back. */
export interface Probe<Context extends ProbeContext = ProbeContext, Kind extends ProbeKind = 'http'> extends ProbeDetails {
  kind: Kind;
  run(ctx: Context): Promise<ProbeResult>;
}

/** What every probe declares, whatever it needs to run. */
export interface ProbeDetails {
  /** `<area>/<name>`: the area is also the suite file's name and the prefix of the rules' ids. */
  id: string;
  area: Area;
  title: string;
  /** The rules this probe owns: every catalogue rule is owned by exactly one probe (test/unit/catalogue.spec.ts). */
  rules: readonly AnyRule[];
  /** Rules another probe owns that this one judges too, on calls of its own (their transport, a screen they reach). */
  alsoJudges?: readonly AnyRule[];
  /** Fresh authorization codes one run of the probe spends (at most), for this profile's code source. */
  codes: number | ((profile: Profile) => number);
  /** Why the probe does not apply to this profile, if it does not. */
  skipReason?(profile: Profile): string | undefined;
  /** Time the probe spends waiting on purpose, added to its test's timeout. */
  waitsMs?(profile: Profile): number;
}

/** Whose rules a probe judges: one party's only (test/unit/catalogue.spec.ts), so its test is that party's. */
export const ownerOf = (probe: Pick<ProbeDetails, 'rules' | 'alsoJudges'>): Owner => [...probe.rules, ...(probe.alsoJudges ?? [])][0]?.owner ?? 'partner';

/** How many codes a run of these probes spends: what a profile with static codes must provide. */
export const codesNeeded = (probes: readonly Pick<ProbeDetails, 'codes' | 'skipReason'>[], profile: Profile): number =>
  probes.filter((probe) => !probe.skipReason?.(profile)).reduce((sum, { codes }) => sum + (typeof codes === 'number' ? codes : codes(profile)), 0);

/**
 * Runs `body` with a recording client, so every probe returns its evidence the same way. A probe that
 * makes many calls may send them through `ctx.http` and add only the telling ones to `http.exchanges`.
 */
export async function recorded(ctx: ProbeContext, body: (http: Recorder) => Promise<Finding[]>): Promise<ProbeResult> {
  const http = recorder(ctx.http);
  const findings = await body(http);
  const waits = ctx.http.takeWaits?.() ?? [];
  return {
    findings: gradeEmulatorChoices([...findings, ...waits.flatMap((wait) => waitNoted(ctx.profile, wait))], ctx.profile),
    exchanges: [...http.exchanges, ...waits],
  };
}

/** A throttle waited out, noted by its endpoint's rate-limit rule (an endpoint the profile does not name has none). */
function waitNoted(profile: Profile, wait: Exchange): Finding[] {
  const endpoints: [string | undefined, readonly Rule<Exchange>[]][] = [
    [profile.tokenExchangeUrl, tokenTransportRules],
    [profile.accountInfoUrl, accountInfoResource.transport],
    [profile.fundingSourcesUrl, fundingSourcesResource.transport],
    [profile.platform && mockLinkUrl(profile.platform.url), mockLinkTransportRules],
  ];
  const rules = endpoints.find(([url]) => url !== undefined && endpointOf(url) === endpointOf(wait.request.url))?.[1];
  return rules ? evaluate(transportRule(rules, 'rate-limit'), wait, undefined) : [];
}

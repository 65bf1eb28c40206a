import type { Exchange } from '../checks/evidence';
import type { Finding } from '../checks/finding';
import type { Profile } from '../profile/profile-schema';
import type { AnyRule, Blocker, Owner } from '../checks/finding';
import type { Area } from '../checks/catalogue';
import type { Encoding } from '../checks/token-exchange';
import type { CodeSource } from './code-source';
import type { HttpClient, Recorder } from '../client/http';

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
  /** The worker's one exchange of a code, made once when first asked for (probes/exchange.ts, workerExchangeOnce). */
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
 * Why a probe gave up before judging every rule it answers for, as a value: the executor (probes/executor.ts)
 * gives each rule left the verdict it says. Not applicable, with why; blocked by the failed rule that kept it
 * from being judged; or not checked, because the check's own positive control failed.
 */
export type Stop = { notApplicable: string } | { blockedBy: Blocker } | { notChecked: string };

/** What a probe's body came to: its findings, why it stopped (when it did), and what a browser showed. */
export interface Judged {
  findings: readonly Finding[];
  stop?: Stop;
  screenshots?: Screenshot[];
  trace?: string;
}

/** A body's findings, or its findings and why it stopped. */
export type Judgement = readonly Finding[] | Judged;

export type Stopped = Judged & { stop: Stop };

/** `findings`, then the probe stops, for `stop`. */
export const stopped = (stop: Stop, findings: readonly Finding[] = []): Stopped => ({ findings, stop });

export const judgedOf = (judgement: Judgement): Judged => (Array.isArray(judgement) ? { findings: judgement } : (judgement as Judged));

/** `before`, then what `judgement` found, its stop kept. */
export function after(before: readonly Finding[], judgement: Judgement): Judged {
  const judged = judgedOf(judgement);
  return { ...judged, findings: [...before, ...judged.findings] };
}

/** Something a probe needs before its body runs, got by the executor: its value, or why the probe cannot go on. */
export interface Need<Value, Context extends ProbeContext = ProbeContext> {
  meet(ctx: Context, http: Recorder): Promise<{ value: Value } | { stop: Stop }>;
}

/** What the profile must state for a probe (or only for `rules`) to apply: unmet, they are not applicable, for the reason `unmet` gives. */
export interface ProfileNeed {
  unmet(profile: Profile): string | undefined;
  rules?: readonly AnyRule[];
}

export type Needs<Context extends ProbeContext = ProbeContext> = Readonly<Record<string, Need<unknown, Context>>>;
/** What the executor hands a body for `needs`: each need's value, by its name. */
export type MetOf<N> = { readonly [K in keyof N]: N[K] extends Need<infer Value, never> ? Value : never };

/**
 * What a probe needs to run, and so the context it gets: `http`, the partner's endpoints alone; `platform`, the
 * platform as well; `browser`, the platform and Chromium.
 */
export type ProbeKind = 'http' | 'platform' | 'browser';

/** One interaction with a partner: a few calls, then every rule that applies to what came back. */
export interface Probe<Context extends ProbeContext = ProbeContext, Kind extends ProbeKind = 'http'> extends ProbeDetails {
  kind: Kind;
  /** What must be got before the body runs, in this order: the first unmet one stops the probe (probes/executor.ts). */
  needs?: Needs<Context>;
  /** The body: `met` holds what `needs` got, and `http` records the calls that are the probe's evidence. */
  run(ctx: Context, met: Readonly<Record<string, unknown>>, http: Recorder): Promise<Judgement>;
}

/** An HTTP probe whose body reads what its `needs` got, typed by them. */
export const withNeeds = <N extends Needs>(
  probe: Omit<Probe, 'needs' | 'run'> & { needs: N; run(ctx: ProbeContext, met: MetOf<N>, http: Recorder): Promise<Judgement> },
): Probe => probe;

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
  /**
   * Of `alsoJudges`, those the probe gives a verdict on this profile whatever happens, as it does its own rules:
   * when a need is unmet or the body stops, they are skipped or blocked too. The others (a call's transport) are
   * judged on each call the probe makes, and have no verdict of it when it made none.
   */
  answersFor?(profile: Profile): readonly AnyRule[];
  /** Fresh authorization codes one run of the probe spends (at most), for this profile's code source. */
  codes: number | ((profile: Profile) => number);
  /** What the profile must state for the probe, or some of its rules, to apply (probes/needs.ts). */
  profileNeeds?: readonly ProfileNeed[];
  /** Time the probe spends waiting on purpose, added to its test's timeout. */
  waitsMs?(profile: Profile): number;
}

/** Whose rules a probe judges: one party's only (test/unit/catalogue.spec.ts), so its test is that party's. */
export const ownerOf = (probe: Pick<ProbeDetails, 'rules' | 'alsoJudges'>): Owner => [...probe.rules, ...(probe.alsoJudges ?? [])][0]?.owner ?? 'partner';

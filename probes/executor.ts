import type { Exchange } from '../checks/evidence';
import { blocked, evaluate, notChecked, notYetJudged, skip, type AnyRule, type Finding, type Rule } from '../checks/finding';
import { accountInfoResource, fundingSourcesResource } from '../checks/resources';
import { tokenTransportRules } from '../checks/token-exchange';
import { mockLinkTransportRules } from '../checks/mock-link';
import { transportRule } from '../checks/transport';
import { endpointOf, recorder, type Recorder } from '../client/http';
import { mockLinkUrl } from '../profile/platform-urls';
import type { Profile } from '../profile/profile-schema';
import { gradeEmulatorChoices } from './emulator-choices';
import {
  judgedOf,
  stopped,
  type Judged,
  type Judgement,
  type Probe,
  type ProbeContext,
  type ProbeDetails,
  type ProbeKind,
  type ProbeResult,
  type Stop,
} from './probe';

/**
 * The one executor of a probe (DESIGN §6, "preconditions are declared"). Before the body runs it decides, from
 * what the probe declares, every rule the body will not judge: the whole probe is not applicable when the
 * profile lacks what it needs (its every rule skipped, no call made); rules that need more of the profile
 * are skipped; then each need is got in turn, and the first unmet one stops the probe. A body that gives up
 * midway returns a `Stop`. Either way, every rule the probe answers for and did not judge gets the stop's
 * verdict: none can be forgotten, and no probe spells it.
 */

/** Why the probe does not apply to this profile, if it does not: the first unmet need of the profile's that is the whole probe's. */
export function notApplicable(probe: Pick<ProbeDetails, 'profileNeeds'>, profile: Profile): string | undefined {
  for (const need of probe.profileNeeds ?? []) {
    const reason = need.rules ? undefined : need.unmet(profile);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** The rules a probe gives a verdict on this profile: its own, and those of others it answers for. */
export const answeredBy = (probe: Pick<ProbeDetails, 'rules' | 'answersFor'>, profile: Profile): readonly AnyRule[] => [
  ...probe.rules,
  ...(probe.answersFor?.(profile) ?? []),
];

/** The verdict a stop gives each of `rules`. */
function verdictOf(rules: readonly AnyRule[], stop: Stop): Finding[] {
  if ('notApplicable' in stop) return skip(rules, stop.notApplicable);
  if ('blockedBy' in stop) return blocked(rules, stop.blockedBy);
  return notChecked(rules, stop.notChecked);
}

/**
 * What `judgement` found and, when it stopped, the stop's verdict on every rule of `rules` it left unjudged. The
 * executor's completion; a part of a probe that speaks for its own rules alone (one case of several) uses it too.
 */
export function completed(rules: readonly AnyRule[], judgement: Judgement): Finding[] {
  const { findings, stop } = judgedOf(judgement);
  return stop ? [...findings, ...verdictOf(notYetJudged(rules, findings), stop)] : [...findings];
}

/** The rules of the probe that need more of the profile than it states, skipped, each for its reason. */
const notApplying = (probe: Pick<ProbeDetails, 'profileNeeds'>, profile: Profile): Finding[] =>
  (probe.profileNeeds ?? []).flatMap((need) => {
    const reason = need.rules && need.unmet(profile);
    return reason ? skip(need.rules!, reason) : [];
  });

/** Gets each need in turn, then runs the body with what they got; the first need unmet stops the probe before it. */
async function judge<C extends ProbeContext>(probe: Probe<C, ProbeKind>, ctx: C, http: Recorder): Promise<Judged> {
  const met: Record<string, unknown> = {};
  for (const [name, need] of Object.entries(probe.needs ?? {})) {
    const got = await need.meet(ctx, http);
    if ('stop' in got) return stopped(got.stop);
    met[name] = got.value;
  }
  return judgedOf(await probe.run(ctx, met, http));
}

/** How a probe ran: its result, and why it does not apply to the profile (its every rule skipped, saying so) when it does not. */
export interface Executed {
  result: ProbeResult;
  notApplicable?: string;
}

/** Runs a probe as its declarations allow. `contextOf` makes its context, only when the probe applies. */
export async function execute<C extends ProbeContext>(probe: Probe<C, ProbeKind>, profile: Profile, contextOf: () => Promise<C>): Promise<Executed> {
  const reason = notApplicable(probe, profile);
  if (reason !== undefined) return { notApplicable: reason, result: { findings: skip(probe.rules, reason), exchanges: [] } };
  const ctx = await contextOf();
  const http = recorder(ctx.http);
  const skipped = notApplying(probe, profile);
  const { screenshots, trace, ...judged } = await judge(probe, ctx, http);
  const findings = completed(answeredBy(probe, profile), { ...judged, findings: [...skipped, ...judged.findings] });
  return { result: { ...evidenced(ctx, http, findings), ...(screenshots ? { screenshots } : {}), ...(trace ? { trace } : {}) } };
}

/**
 * The probe's findings with its evidence: what it recorded, and the throttles its client waited out, each noted by
 * its endpoint's rate-limit rule. A probe that makes many calls may send them through `ctx.http` and add only the
 * telling ones to `http.exchanges`.
 */
function evidenced(ctx: ProbeContext, http: Recorder, findings: readonly Finding[]): ProbeResult {
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

/** How many codes a run of these probes spends: what a profile with static codes must provide. */
export const codesNeeded = (probes: readonly Pick<ProbeDetails, 'codes' | 'profileNeeds'>[], profile: Profile): number =>
  probes
    .filter((probe) => notApplicable(probe, profile) === undefined)
    .reduce((sum, { codes }) => sum + (typeof codes === 'number' ? codes : codes(profile)), 0);

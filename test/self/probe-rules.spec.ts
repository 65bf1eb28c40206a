import { expect, test } from '@playwright/test';
import type { Finding } from '../../checks/finding';
import { browserProbes, certificationProbes, runPlatformProbes, runProbes } from '../../probes/certification';
import { dataApiProbes } from '../../probes/data-api';
import { answeredBy, notApplicable } from '../../probes/executor';
import { mockLinkProbes } from '../../probes/mock-link';
import type { AnyProbe } from '../../probes/platform';
import { judgedOf, type Probe, type ProbeResult } from '../../probes/probe';
import type { PlatformFault } from '../../sandbox/platform/faults';
import type { Fault } from '../../sandbox/reference-partner/faults';
import type { Profile } from '../../profile/profile-schema';
import { referenceProfile } from '../support/profiles';
import { platformSandbox } from '../../sandbox/platform/server';
import { sandboxPerFile } from '../support/sandbox';

/**
 * What a probe declares is what it judges: each finding is of a rule it owns or says it also judges,
 * and every rule it owns gets a verdict (passed, failed, skipped or blocked), on a clean partner and on
 * partners and platforms whose early failures cut the probes short. Those prove the executor's completion:
 * a probe stopped by an unmet need before its body ran, or by its body midway, still speaks of every rule
 * it answers for, though it judged none or only some of them itself.
 */

const frozen = new Date('2026-11-23T12:00:00Z');
const now = () => frozen;

const sandbox = sandboxPerFile();

function undeclared(probes: readonly AnyProbe[], results: readonly ProbeResult[]): string[] {
  return results.flatMap((result, index) => {
    const probe = probes[index]!;
    const declared = new Set([...probe.rules, ...(probe.alsoJudges ?? [])].map((rule) => rule.id));
    const judged = new Set(result.findings.map((finding: Finding) => finding.rule));
    return [
      ...[...judged].filter((id) => !declared.has(id)).map((id) => `${probe.id} judged ${id}, which it does not declare`),
      ...probe.rules.filter((rule) => !judged.has(rule.id)).map((rule) => `${probe.id} left ${rule.id} without a verdict`),
    ];
  });
}

/** The probes, each body watched: which stopped midway (its body returned a stop), and which an unmet need stopped before it ran. */
function watched<P extends AnyProbe>(probes: readonly P[]) {
  const ran = new Set<string>();
  const stoppedMidway = new Set<string>();
  const watching = probes.map((probe): P => {
    const body = probe as unknown as Probe;
    const run: Probe['run'] = async (ctx, met, http) => {
      ran.add(probe.id);
      const judged = judgedOf(await body.run(ctx, met, http));
      if (judged.stop) stoppedMidway.add(probe.id);
      return judged;
    };
    return { ...probe, run };
  });
  const stoppedBefore = () => probes.filter((probe) => !ran.has(probe.id)).map((probe) => probe.id);
  return { probes: watching, stoppedMidway, stoppedBefore };
}

/** The rules a stopped probe answers for and left without a verdict: none, the executor completes them. */
function unanswered(probes: readonly AnyProbe[], results: readonly ProbeResult[], profile: Profile, stopped: ReadonlySet<string>): string[] {
  return results.flatMap((result, index) => {
    const probe = probes[index]!;
    if (!stopped.has(probe.id)) return [];
    const judged = new Set(result.findings.map((finding) => finding.rule));
    return answeredBy(probe, profile)
      .filter((rule) => !judged.has(rule.id))
      .map((rule) => `${probe.id} stopped and left ${rule.id} without a verdict`);
  });
}

const profileWith = (faults: readonly Fault[], collectMissingAccountInfo = false, platformFaults: readonly PlatformFault[] = []): Profile => ({
  ...referenceProfile(sandbox.partner.origin, faults, { collectMissingAccountInfo }),
  platform: sandbox.platform.block(platformFaults),
  dataApi: { baseUrl: sandbox.platform.origin, token: platformSandbox.dataApiToken },
});

/** Which probes a run cuts short: midway (the body stopped), and before the body (a need unmet). */
interface Stops {
  midway?: string[];
  before?: string[];
}

/** What each partner fault cuts short; the others cut nothing, as the conformant partner does (the positive control). */
const httpRuns: [Fault[], Stops][] = [
  [[], {}],
  [
    ['token-redirect'],
    {
      midway: ['token-exchange/configured', 'token-exchange/unguessable'],
      before: [
        'token-exchange/unknown-code',
        'token-exchange/code-reuse',
        'token-exchange/wrong-secret',
        'token-exchange/missing-grant-type',
        'token-exchange/other-grants',
        'token-exchange/get',
        'token-exchange/credentials-in-uri',
        'token-exchange/duplicate-param',
        'token-exchange/unknown-param',
        'token-exchange/concurrent-redemption',
        'account-info/payload',
        'funding-sources/payload',
      ],
    },
  ],
  [['tokens-not-accepted'], { midway: ['account-info/payload'] }],
  [['html-content-type'], {}],
  [['no-user'], {}],
  [['no-funding-list'], {}],
];

/** The probes each run cut short, in the probes' order. */
function stopsOf(probes: readonly AnyProbe[], midway: ReadonlySet<string>, before: readonly string[]): Stops {
  const stoppedMidway = probes.filter((probe) => midway.has(probe.id)).map((probe) => probe.id);
  return { ...(stoppedMidway.length > 0 ? { midway: stoppedMidway } : {}), ...(before.length > 0 ? { before: [...before] } : {}) };
}

for (const [faults, expected] of httpRuns) {
  test(`the HTTP probes judge exactly the rules they declare (${faults.join(', ') || 'conformant'})`, async () => {
    const profile = profileWith(faults);
    // runProbes runs the probes that apply (the opt-in code-lifetime check does not).
    const { probes, stoppedMidway, stoppedBefore } = watched([...certificationProbes, ...dataApiProbes].filter((probe) => !notApplicable(probe, profile)));
    const results = await runProbes(profile, probes, now);
    expect(undeclared(probes, results)).toEqual([]);
    // The probes cut short still speak of every rule they answer for: the completion is the executor's.
    expect(stopsOf(probes, stoppedMidway, stoppedBefore())).toEqual(expected);
    expect(unanswered(probes, results, profile, new Set([...stoppedMidway, ...stoppedBefore()]))).toEqual([]);
  });
}

const platformRuns: [boolean, PlatformFault[], Stops][] = [
  [false, [], {}],
  [true, [], {}],
  // The app renders for no one: sign-on by code is blocked, and the checks whose control is the app stop there.
  [true, ['blank-app'], { midway: ['sign-on/code', 'sign-on/collect', 'sign-on/funding-sync', 'sign-on/escaping', 'sign-on/foreign-host'] }],
  // The collection screen is skipped: the collection probe stops once it has judged the screen.
  [true, ['skips-missing-info-screen'], { midway: ['sign-on/collect'] }],
];

for (const [collect, platformFaults, expected] of platformRuns) {
  test(`the platform and browser probes judge exactly the rules they declare (collectMissingAccountInfo: ${collect}${platformFaults.map((fault) => `, ${fault}`).join('')})`, async ({
    browser,
  }) => {
    const profile = profileWith([], collect, platformFaults);
    const { probes, stoppedMidway, stoppedBefore } = watched([...mockLinkProbes, ...browserProbes].filter((probe) => !notApplicable(probe, profile)));
    const results = await runPlatformProbes(profile, browser, probes, now);
    expect(undeclared(probes, results)).toEqual([]);
    expect(stopsOf(probes, stoppedMidway, stoppedBefore())).toEqual(expected);
    expect(unanswered(probes, results, profile, new Set([...stoppedMidway, ...stoppedBefore()]))).toEqual([]);
  });
}

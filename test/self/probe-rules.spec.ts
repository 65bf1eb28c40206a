import { expect, test } from '@playwright/test';
import { browserProbes, certificationProbes, runPlatformProbes, runProbes } from '../../probes/certification';
import { dataApiProbes } from '../../probes/data-api';
import { notApplicable } from '../../probes/executor';
import { mockLinkProbes } from '../../probes/mock-link';
import type { Fault } from '../../sandbox/reference-partner/faults';
import type { Profile } from '../../profile/profile-schema';
import { referenceProfile } from '../support/profiles';
import { platformSandbox } from '../../sandbox/platform/server';
import { sandboxPerFile } from '../support/sandbox';
import { stopsOf, unanswered, undeclared, watched, type Stops } from '../support/probe-watch';

/**
 * What a probe declares is what it judges (test/support/probe-watch.ts), on a clean partner and on partners
 * whose early failures cut the probes short. Those prove the executor's completion: a probe stopped by an
 * unmet need before its body ran, or by its body midway, still speaks of every rule it answers for, though
 * it judged none or only some of them itself.
 */

const frozen = new Date('2026-11-23T12:00:00Z');
const now = () => frozen;

const sandbox = sandboxPerFile();

const profileWith = (faults: readonly Fault[], collectMissingAccountInfo = false): Profile => ({
  ...referenceProfile(sandbox.partner.origin, faults, { collectMissingAccountInfo }),
  platform: sandbox.platform.block([]),
  dataApi: { baseUrl: sandbox.platform.origin, token: platformSandbox.dataApiToken },
});

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

// With collectMissingAccountInfo, every emulator fault's run (test/self/platform-faults.spec.ts) checks the same.
test('the platform and browser probes judge exactly the rules they declare (collectMissingAccountInfo: false)', async ({ browser }) => {
  const profile = profileWith([], false);
  const { probes, stoppedMidway, stoppedBefore } = watched([...mockLinkProbes, ...browserProbes].filter((probe) => !notApplicable(probe, profile)));
  const results = await runPlatformProbes(profile, browser, probes, now);
  expect(undeclared(probes, results)).toEqual([]);
  expect(stopsOf(probes, stoppedMidway, stoppedBefore())).toEqual({});
  expect(unanswered(probes, results, profile, new Set([...stoppedMidway, ...stoppedBefore()]))).toEqual([]);
});

import { expect, test } from '@playwright/test';
import type { Finding } from '../../checks/finding';
import { browserProbes, certificationProbes, runPlatformProbes, runProbes } from '../../probes/certification';
import { dataApiProbes } from '../../probes/data-api';
import { mockLinkProbes } from '../../probes/mock-link';
import { notApplicable } from '../../probes/executor';
import type { AnyProbe } from '../../probes/platform';
import type { ProbeResult } from '../../probes/probe';
import type { Fault } from '../../sandbox/reference-partner/faults';
import type { Profile } from '../../profile/profile-schema';
import { referenceProfile } from '../support/profiles';
import { platformSandbox } from '../../sandbox/platform/server';
import { sandboxPerFile } from '../support/sandbox';

/**
 * What a probe declares is what it judges: each finding is of a rule it owns or says it also judges,
 * and every rule it owns gets a verdict (passed, failed, skipped or blocked), on a clean partner and on
 * partners whose early failures cut the probes short.
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

const profileWith = (faults: readonly Fault[], collectMissingAccountInfo = false): Profile => ({
  ...referenceProfile(sandbox.partner.origin, faults, { collectMissingAccountInfo }),
  platform: sandbox.platform.block(),
  dataApi: { baseUrl: sandbox.platform.origin, token: platformSandbox.dataApiToken },
});

for (const faults of [[], ['token-redirect'], ['tokens-not-accepted'], ['html-content-type'], ['no-user'], ['no-funding-list']] as Fault[][]) {
  test(`the HTTP probes judge exactly the rules they declare (${faults.join(', ') || 'conformant'})`, async () => {
    const profile = profileWith(faults);
    // runProbes runs the probes that apply (the opt-in code-lifetime check does not).
    const probes = [...certificationProbes, ...dataApiProbes].filter((probe) => !notApplicable(probe, profile));
    expect(undeclared(probes, await runProbes(profile, probes, now))).toEqual([]);
  });
}

for (const collect of [false, true]) {
  test(`the platform and browser probes judge exactly the rules they declare (collectMissingAccountInfo: ${collect})`, async ({ browser }) => {
    const profile = profileWith([], collect);
    const probes = [...mockLinkProbes, ...browserProbes].filter((probe) => !notApplicable(probe, profile));
    expect(undeclared(probes, await runPlatformProbes(profile, browser, undefined, now))).toEqual([]);
  });
}

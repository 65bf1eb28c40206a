import { expect, type Browser } from '@playwright/test';
import { allRules } from '../../checks/catalogue';
import type { AnyRule } from '../../checks/finding';
import { platformProbes, runPlatformProbes } from '../../probes/certification';
import { notApplicable } from '../../probes/executor';
import type { Profile } from '../../profile/profile-schema';
import { undeclared, watched } from './probe-watch';

/**
 * A platform the harness did not write (Ledgerly, Harbor), with one of its faults switched on by the path
 * prefix of its own URLs, judged in-process by the one probe runner: the process boundary is not what these
 * tests are about (test/self/external-platform.spec.ts certifies the fault-free platforms in a whole run).
 */

const underFault = (url: string, fault: string) => url.replace(/^(https?:\/\/[^/]+)/, `$1/faults/${fault}`);

/** `profile` with its platform's URLs and data API under `fault`, as the partner `partnerName` the platform holds. */
export function underPlatformFault(profile: Profile, fault: string, partnerName: string): Profile {
  const { platform, dataApi } = profile;
  if (!platform || !dataApi) throw new Error('a profile with a platform and a data API');
  return {
    ...profile,
    platform: { ...platform, partnerName, url: underFault(platform.url, fault), ...(platform.authUrl ? { authUrl: underFault(platform.authUrl, fault) } : {}) },
    dataApi: { ...dataApi, baseUrl: underFault(dataApi.baseUrl, fault) },
  };
}

const ownerOf = new Map(allRules.map((rule) => [rule.id, rule.owner]));

/**
 * Judges every platform probe (mock link, browser, data API) against `profile`, and expects exactly the
 * `expected` rules to fail, each the platform's; every probe to judge what it declares; and every rule of the
 * partner's among them to pass, so the partner's verdict is not touched by what only the platform can change.
 */
export async function expectCaughtByExactly(browser: Browser, profile: Profile, expected: readonly AnyRule[], label: string): Promise<void> {
  expect(expected.filter((rule) => rule.owner !== 'platform').map((rule) => rule.id)).toEqual([]);
  const { probes } = watched(platformProbes.filter((probe) => notApplicable(probe, profile) === undefined));
  const results = await runPlatformProbes(profile, browser, probes);
  expect(undeclared(probes, results)).toEqual([]);
  const findings = results.flatMap((result) => result.findings);
  const failed = [...new Set(findings.filter((f) => f.outcome === 'failed').map((f) => f.rule))].sort();
  console.log(`${label}: failed ${failed.join(', ') || 'nothing'}`);
  expect(failed).toEqual(expected.map((rule) => rule.id).sort());
  const partners = findings.filter((f) => ownerOf.get(f.rule) === 'partner');
  expect(partners.length).toBeGreaterThan(0);
  expect(partners.filter((f) => f.outcome !== 'passed').map((f) => `${f.rule}: ${f.outcome}: ${f.message}`)).toEqual([]);
}

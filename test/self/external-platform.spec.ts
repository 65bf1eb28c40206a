import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { partnerAppRules } from '../../checks/partner-app';
import type { Certification } from '../../reports/certification';
import { runPlaywright } from '../support/run-playwright';
import { notPassing, type Finding } from '../../checks/finding';
import { runPlatformProbes } from '../../probes/certification';
import { referenceProfile } from '../support/profiles';
import { sandboxPerFile } from '../support/sandbox';
import { expectCaughtByExactly, underPlatformFault } from '../support/external-faults';
import { loadProfile } from '../../partners/profile';
import { signOnProbes } from '../../probes/sign-on';
import { ledgerlyFaults, type LedgerlyFault } from '../../sandbox/ledgerly/faults';
import { landingFrameAncestors, tamperedLinkRules } from '../../checks/mock-link-landing';
import { foreignHostCannotFrame, fundingSynced, messagesToHostOnly } from '../../checks/sign-on';
import { invalidTokenRefused, missingTokenRefused } from '../../checks/data-api-refusals';
import type { AnyRule } from '../../checks/finding';
import type { Profile } from '../../profile/profile-schema';

/**
 * A platform reached the way a real one is: the host page at the host origin the platform is configured
 * with, served by the browser itself, and the platform's own choices named in the profile.
 */

const sandbox = sandboxPerFile();
// Nothing listens there: the browser answers for it. On loopback, so the emulator's cookies stay first-party.
const hostOrigin = 'http://127.0.0.1:4499';

test("the host page at the profile's host origin, served in the browser: the app shows there, and a foreign host still cannot frame it", async ({
  browser,
}) => {
  const profile = {
    ...referenceProfile(sandbox.partner.origin, [], { collectMissingAccountInfo: true }),
    platform: { ...sandbox.platform.block(), hostOrigin },
  };
  const findings: Finding[] = (await runPlatformProbes(profile, browser)).flatMap((result) => result.findings);
  expect(notPassing(findings).map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
  const outcome = (rule: string) => findings.filter((f) => f.rule === rule).map((f) => f.outcome);
  expect(outcome('sign-on/mock-link-app/shown')).toEqual(['passed']);
  expect(outcome('sign-on/frame/foreign-host-blocked')).toEqual(['passed']);
  expect(outcome('mock-link/landing/frame-ancestors')).toEqual(['passed']);
});

test('the reference partner and its app, certified in one whole run through the emulator, through Ledgerly and through Harbor (platforms shaped otherwise), get the same verdict and findings, and both platforms conform', async () => {
  test.setTimeout(300_000);
  // Two at a time, beside the self-tests' other worker: four browsers at once on two cores kept a partner app's
  // login step past its 10 s bound once in a run of this file (INCOMPLETE, its control not met).
  const run = await runPlaywright(
    ['--project=reference', '--project=reference-app', '--project=reference-ledgerly', '--project=reference-harbor', '--workers=2'],
    {},
  );
  const read = (name: string) => JSON.parse(readFileSync(path.join(run.out, 'certification', name, 'certification.json'), 'utf8')) as Certification;
  const [emulator, app, ledgerly, harbor] = [read('reference'), read('reference-app'), read('reference-ledgerly'), read('reference-harbor')];
  const partnerOutcomes = (cert: Certification, ofApp: boolean) =>
    cert.rules.filter((rule) => rule.owner === 'partner' && rule.id.startsWith('sign-on/partner-app/') === ofApp).map((rule) => `${rule.id}: ${rule.outcome}`);
  console.log(
    `${emulator.summary}\n${app.summary}\n${ledgerly.summary}\n  Ledgerly: ${ledgerly.platform?.summary}\n${harbor.summary}\n  Harbor: ${harbor.platform?.summary}`,
  );
  // Harbor (sandbox/harbor), written from the spec alone, with a profile written from the README
  // (partners/reference-harbor.json): the partner's verdict is what it is through the emulator, Harbor conforms,
  // and its own choices stated in the profile (dataApi.idsWithOrganization among them) leave no warning.
  expect(harbor.verdict).toBe('CERTIFIED');
  for (const ofApp of [false, true]) expect(partnerOutcomes(harbor, ofApp)).toEqual(partnerOutcomes(emulator, ofApp));
  expect(harbor.platform?.verdict, harbor.platform?.summary).toBe('CONFORMS');
  expect(harbor.platform?.counts.warning, harbor.platform?.summary).toBe(0);
  expect(harbor.rules.filter((rule) => rule.owner === 'platform' && rule.outcome === 'failed').map((rule) => rule.id)).toEqual([]);
  // Spec §4.2's removal rule, on a platform the harness did not write: judged, and passed.
  expect(harbor.rules.find((rule) => rule.id === fundingSynced.id)?.outcome).toBe('passed');
  const unpassed = (cert: Certification) =>
    cert.findings
      .filter((f) => f.outcome === 'failed' || f.outcome === 'warning' || f.outcome === 'not-checked')
      .map((f) => `${f.rule}: ${f.outcome}: ${f.message}`)
      .join('\n');
  expect(ledgerly.verdict, unpassed(ledgerly)).toBe('CERTIFIED');
  // The endpoints as through the emulator (reference.json); the app, which embeds Ledgerly there, as the app
  // that embeds the emulator (reference-app.json): every rule of the partner's page, each passed.
  expect(partnerOutcomes(ledgerly, false)).toEqual(partnerOutcomes(emulator, false));
  expect(partnerOutcomes(ledgerly, true)).toEqual(partnerOutcomes(app, true));
  expect(partnerOutcomes(ledgerly, true)).toHaveLength(partnerAppRules.length);
  expect(partnerOutcomes(ledgerly, true).every((line) => line.endsWith(': passed'))).toBe(true);
  expect(ledgerly.findings.filter((f) => f.rule.startsWith('sign-on/app/') || f.rule.startsWith('sign-on/message/navigated')).map((f) => f.outcome)).toEqual([
    'passed',
    'passed',
  ]);
  // Ledgerly conforms, judged by its own choices where the spec is silent; nothing of its own was seeded or
  // configured by the harness.
  expect(ledgerly.platform?.verdict, ledgerly.platform?.summary).toBe('CONFORMS');
  // Its own choices are stated in the profile (dataApi.idsEncodings, overLimit, unknownCursor; screens.fieldErrors), so they are judged as requirements.
  expect(
    ledgerly.rules
      .filter((rule) => rule.owner === 'platform' && rule.outcome === 'info')
      .map((rule) => rule.id)
      .sort(),
  ).toEqual([]);
  expect(
    ledgerly.rules
      .filter((rule) => ['data-api/filter/ids', 'data-api/params/after', 'data-api/params/limit', 'sign-on/collect/inline-error'].includes(rule.id))
      .map((rule) => rule.outcome),
  ).toEqual(['passed', 'passed', 'passed', 'passed']);
  expect(run.code).toBe(0);
});

/** The rules each Ledgerly fault must trip (test/support/external-faults.ts): the platform's, and no others. */
const ledgerlyExpected: Record<Exclude<LedgerlyFault, 'opaque-input-names'>, AnyRule[]> = {
  'frames-anywhere': [landingFrameAncestors, foreignHostCannotFrame],
  'posts-to-any-origin': [messagesToHostOnly],
  'replayable-links': [tamperedLinkRules.replay],
  'data-api-ignores-auth': [missingTokenRefused, invalidTokenRefused],
};

for (const [fault, rules] of Object.entries(ledgerlyExpected)) {
  test(`Ledgerly's fault "${fault}" is caught by exactly ${rules.map((rule) => rule.id).join(', ')}, each the platform's; the reference partner's rules all pass`, async ({
    browser,
  }) => {
    // reference-ledgerly.json, its platform's routes under /faults/<name>/, as a partner name of its own that
    // Ledgerly's admin holds (a platform keeps one configuration per partner name); without the partner's app,
    // which embeds the fault-free Ledgerly.
    const { partnerApp: _, ...base } = loadProfile('partners/reference-ledgerly.json', {}).profile!.profile;
    await expectCaughtByExactly(browser, underPlatformFault(base, fault, `reference-${fault}`), rules, `${fault} (${ledgerlyFaults[fault as LedgerlyFault]})`);
  });
}

test('a collection form the harness cannot read without a map is not checked, naming "platform.screens.fields"; with the map it is judged, and passes', async ({
  browser,
}) => {
  const { profile: loaded } = loadProfile('partners/reference-ledgerly.json', {});
  const { partnerApp: _, ...base } = loaded!.profile;
  const under = (url: string) => url.replace(/^(https?:\/\/[^/]+)/, '$1/faults/opaque-input-names');
  const platform = { ...base.platform!, url: under(base.platform!.url), authUrl: under(base.platform!.authUrl!) };
  const collect = signOnProbes.filter((probe) => probe.id === 'sign-on/collect');
  const collectRules = ['sign-on/collect/fields', 'sign-on/collect/inline-error', 'sign-on/collect/completes'];
  const judged = async (screens: NonNullable<typeof platform.screens>) =>
    (await runPlatformProbes({ ...base, platform: { ...platform, screens } }, browser, collect))
      .flatMap((result) => result.findings)
      .filter((f) => collectRules.includes(f.rule));
  const { fields: _fields, ...unmapped } = platform.screens!;
  const without = await judged(unmapped);
  expect(without.map((f) => f.outcome)).toEqual(['not-checked', 'not-checked', 'not-checked']);
  expect(without[0]!.message).toContain('"platform.screens.fields"');
  const mapped = await judged(platform.screens!);
  expect(mapped.map((f) => `${f.rule}: ${f.outcome}`)).toEqual(collectRules.map((rule) => `${rule}: passed`));
});

test('funding sync on a platform the harness did not write: judged through the partner\'s hook, and not checked without it, naming "fundingSync.mintUrl", never not applicable', async ({
  browser,
}) => {
  const { profile: loaded } = loadProfile('partners/reference-ledgerly.json', {});
  const { partnerApp: _, fundingSync, ...base } = loaded!.profile;
  const sync = signOnProbes.filter((probe) => probe.id === 'sign-on/funding-sync');
  const judged = async (profile: Profile) =>
    (await runPlatformProbes(profile, browser, sync)).flatMap((result) => result.findings).filter((f) => f.rule === 'sign-on/funding/sync');
  expect((await judged({ ...base, fundingSync })).map((f) => f.outcome)).toEqual(['passed']);
  const without = await judged(base);
  expect(without.map((f) => f.outcome)).toEqual(['not-checked']);
  expect(without[0]!.message).toContain('"fundingSync.mintUrl"');
  // Where the app shows no source where the profile says (the control): not checked, naming the locator.
  const elsewhere = await judged({
    ...base,
    fundingSync,
    platform: { ...base.platform!, screens: { ...base.platform!.screens, fundingSource: 'li.no-such-source' } },
  });
  expect(elsewhere.map((f) => f.outcome)).toEqual(['not-checked']);
  expect(elsewhere[0]!.message).toContain('"platform.screens.fundingSource"');
});

import { expect, test } from '@playwright/test';
import { notPassing, type Finding } from '../../checks/finding';
import { runPlatformProbes } from '../../probes/certification';
import { referenceProfile } from '../support/profiles';
import { sandboxPerFile } from '../support/sandbox';

/**
 * A platform reached the way a real one is: the host page at the host origin the platform is configured
 * with, served by the browser itself, and the platform's own choices named in the profile.
 */

const sandbox = sandboxPerFile();
// Nothing listens there: the browser answers for it. On loopback, so the emulator's cookies stay first-party.
const hostOrigin = 'http://127.0.0.1:4499';

test("the host page at the profile's host origin, served in the browser: the app shows there, and a foreign host still cannot frame it", async ({ browser }) => {
  const profile = { ...referenceProfile(sandbox.partner.origin, [], { collectMissingAccountInfo: true }), platform: { ...sandbox.platform.block(), hostOrigin } };
  const findings: Finding[] = (await runPlatformProbes(profile, browser)).flatMap((result) => result.findings);
  expect(notPassing(findings).map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
  const outcome = (rule: string) => findings.filter((f) => f.rule === rule).map((f) => f.outcome);
  expect(outcome('sign-on/mock-link-app/shown')).toEqual(['passed']);
  expect(outcome('sign-on/frame/foreign-host-blocked')).toEqual(['passed']);
  expect(outcome('mock-link/landing/frame-ancestors')).toEqual(['passed']);
});

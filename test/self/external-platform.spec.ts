import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Certification } from '../../reports/certification';
import { runPlaywright } from '../support/run-playwright';
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

test('the reference partner, certified through the emulator and through Ledgerly (a platform shaped otherwise), gets the same verdict and findings', async () => {
  test.setTimeout(300_000);
  const run = await runPlaywright(['--project=reference', '--project=reference-ledgerly'], {});
  const read = (name: string) => JSON.parse(readFileSync(path.join(run.out, 'certification', name, 'certification.json'), 'utf8')) as Certification;
  const [emulator, ledgerly] = [read('reference'), read('reference-ledgerly')];
  const partnerOutcomes = (cert: Certification) => cert.rules.filter((rule) => rule.owner === 'partner').map((rule) => `${rule.id}: ${rule.outcome}`);
  console.log(`${emulator.summary}\n${ledgerly.summary}\n  Ledgerly: ${ledgerly.platform?.summary}`);
  expect(ledgerly.verdict).toBe('CERTIFIED');
  expect(partnerOutcomes(ledgerly)).toEqual(partnerOutcomes(emulator));
  expect(ledgerly.findings.filter((f) => f.rule.startsWith('sign-on/app/') || f.rule.startsWith('sign-on/message/navigated')).map((f) => f.outcome)).toEqual(['passed', 'passed']);
  // Ledgerly conforms: what it chose otherwise where the spec is silent (its data API's answers, the look of
  // its inline errors) is noted, not failed; nothing of its own was seeded or configured by the harness.
  expect(ledgerly.platform?.verdict, ledgerly.platform?.summary).toBe('CONFORMS');
  expect(ledgerly.rules.filter((rule) => rule.owner === 'platform' && rule.outcome === 'info').map((rule) => rule.id).sort()).toEqual(['data-api/filter/ids', 'data-api/params/after', 'data-api/params/limit', 'sign-on/collect/inline-error']);
  expect(run.code).toBe(0);
});

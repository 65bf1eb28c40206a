import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { tamperedLinkRules } from '../../checks/mock-link-landing';
import { appShown, foreignHostCannotFrame, linkAppShown, messagesToHostOnly, navigatedMessage } from '../../checks/sign-on';
import type { Finding } from '../../checks/finding';
import { runPlatformProbes } from '../../probes/certification';
import { signOnProbes } from '../../probes/sign-on';
import { tamperedLinkProbes } from '../../probes/mock-link-tampered';
import type { Certification } from '../../reports/certification';
import { platformSandbox } from '../../sandbox/platform/server';
import type { PlatformFault } from '../../sandbox/platform/faults';
import type { Fault } from '../../sandbox/reference-partner/faults';
import { partnersDir, referenceProfile } from '../support/profiles';
import { runPlaywright } from '../support/run-playwright';
import { sandboxPerFile } from '../support/sandbox';

/**
 * Partner or platform (issue 32): a platform that fails its own rules never fails the partner, a partner's
 * defect is one failure of the partner's and leaves the platform clean, and the browser checks whose
 * positive control failed are not checked, never passed.
 */

const sandbox = sandboxPerFile();

/** The whole reference profile, its partner and platform this file's own, with faults on either side. */
const profileWith = ({ partner = [], platform = [] }: { partner?: Fault[]; platform?: PlatformFault[] }) => ({
  ...referenceProfile(sandbox.partner.origin, partner),
  platform: sandbox.platform.block(platform),
  dataApi: { baseUrl: sandbox.platform.origin, token: platformSandbox.dataApiToken },
});
const certificationOf = (out: string, partner: string) =>
  JSON.parse(readFileSync(path.join(out, 'certification', partner, 'certification.json'), 'utf8')) as Certification;
const failedOf = (cert: Certification, owner: 'partner' | 'platform') =>
  cert.rules.filter((rule) => rule.owner === owner && rule.outcome === 'failed').map((rule) => rule.id);
const rule = (findings: readonly Finding[], id: string) =>
  findings.filter((f) => f.rule === id).map((f) => ({ outcome: f.outcome, blockedBy: f.blockedBy, message: f.message }));

test('a platform fault leaves a conformant partner CERTIFIED, the platform section failing exactly that rule, worded for the platform team', async () => {
  test.setTimeout(180_000);
  const run = await runPlaywright(
    ['--project=acme'],
    { PARTNERS_DIR: partnersDir({ acme: profileWith({ platform: ['no-referrer-policy'] }) }) },
    { reporters: ['certification'] },
  );
  const cert = certificationOf(run.out, 'acme');
  expect(cert.verdict, cert.summary).toBe('CERTIFIED');
  expect(cert.summary).toMatch(/^CERTIFIED; the platform failed 1 of its checks, not yours to fix: /);
  expect(failedOf(cert, 'partner')).toEqual([]);
  expect(cert.platform).toMatchObject({ verdict: 'DOES NOT CONFORM', emulator: true });
  expect(failedOf(cert, 'platform')).toEqual(['mock-link/landing/referrer-policy']);
  const html = readFileSync(path.join(run.out, 'certification', 'acme', 'certification.html'), 'utf8');
  const platformSection = html.slice(html.indexOf('<section id="platform">'), html.indexOf('</section>', html.indexOf('<section id="platform">')));
  expect(platformSection).toContain('What the platform must do: each response whose address carries the link&#39;s token sends');
  expect(platformSection).not.toContain('Fix:');
  // The partner's own rules section holds no platform rule.
  expect(html.slice(html.indexOf('<section id="rules">'), html.indexOf('<section id="platform">'))).not.toContain('mock-link/landing/referrer-policy');
  // The emulator is the harness's own: its failing self-check fails the run, saying so.
  expect(run.stdout).toContain('platform: DOES NOT CONFORM: ');
  expect(run.code).toBe(1);
});

test("a partner fault leaves the platform section clean: one defect, one failure, the browser's code path blocked by it", async () => {
  test.setTimeout(180_000);
  const run = await runPlaywright(
    ['--project=acme'],
    { PARTNERS_DIR: partnersDir({ acme: profileWith({ partner: ['phone-with-spaces'] }) }) },
    { reporters: ['certification', 'junit'] },
  );
  const cert = certificationOf(run.out, 'acme');
  expect(cert.verdict).toBe('NOT CERTIFIED');
  expect(failedOf(cert, 'partner')).toEqual(['account-info/user.phone/characters']);
  // CI dashboards count JUnit failures: a failed rule is a <failure> that names it, never an <error>.
  const junit = readFileSync(path.join(run.out, 'junit.xml'), 'utf8');
  expect(junit).toMatch(/<failure message="1 MUST rule failed:/);
  expect(junit).not.toContain('<error');
  for (const id of [appShown.id, navigatedMessage.id])
    expect(cert.rules.find((r) => r.id === id)).toMatchObject({ outcome: 'not-checked', blockedBy: 'account-info/user.phone/characters' });
  expect(cert.platform?.verdict, cert.platform?.summary).toBe('CONFORMS');
  expect(failedOf(cert, 'platform')).toEqual([]);
});

test("an app that never renders makes the foreign-host rules not checked, never passed, and blocks the partner's code path by the platform's rule", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const probes = signOnProbes.filter((probe) => probe.id === 'sign-on/foreign-host' || probe.id === 'sign-on/code');
  const findings = (await runPlatformProbes(profileWith({ platform: ['blank-app'] }), browser, probes)).flatMap((result) => result.findings);
  for (const id of [foreignHostCannotFrame.id, messagesToHostOnly.id])
    expect(rule(findings, id)).toEqual([
      { outcome: 'not-checked', blockedBy: linkAppShown.id, message: expect.stringContaining('the app did not render even in the configured host') },
    ]);
  for (const id of [appShown.id, navigatedMessage.id])
    expect(rule(findings, id)).toEqual([
      { outcome: 'not-checked', blockedBy: linkAppShown.id, message: expect.stringContaining('the platform shows its app to no one') },
    ]);
});

test('a wrong platform.mockLinkKey leaves the four forgeries not checked: the platform never read their claims', async ({ browser }) => {
  test.setTimeout(120_000);
  const profile = profileWith({});
  const wrongKey = { ...profile, platform: { ...profile.platform, mockLinkKey: 'not-the-platform-key-but-long-enough-0123456789' } };
  const findings = (await runPlatformProbes(wrongKey, browser, tamperedLinkProbes)).flatMap((result) => result.findings);
  for (const forged of [tamperedLinkRules.expired, tamperedLinkRules.notYetValid, tamperedLinkRules.wrongAudience, tamperedLinkRules.wrongIssuer]) {
    expect(rule(findings, forged.id)).toEqual([
      {
        outcome: 'not-checked',
        blockedBy: undefined,
        message: expect.stringContaining('the key in "platform.mockLinkKey" does not sign links this platform accepts'),
      },
    ]);
  }
  // The checks that need no key are judged, and pass: the control is the forgeries' own.
  for (const judged of [tamperedLinkRules.algNone, tamperedLinkRules.wrongKey, tamperedLinkRules.replay])
    expect(rule(findings, judged.id).map((f) => f.outcome)).toEqual(['passed']);
  // With the right key the four are judged, and pass.
  const right = (await runPlatformProbes(profile, browser, tamperedLinkProbes)).flatMap((result) => result.findings);
  expect(right.filter((f) => f.outcome !== 'passed').map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
});

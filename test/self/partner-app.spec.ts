import { expect, test } from '@playwright/test';
import { loadProfile } from '../../partners/profile';
import type { Finding } from '../../checks/finding';
import { partnerAppRules } from '../../checks/partner-app';
import { actsOnPlatformMessagesOnly } from '../../checks/partner-app-messages';
import { runPlatformProbes } from '../../probes/certification';
import { partnerAppProbe } from '../../probes/partner-app';
import { notApplicable } from '../../probes/executor';
import { appFaultNames, appFaults, type AppFault } from '../../sandbox/reference-partner/app';
import type { PlatformFault } from '../../sandbox/platform/faults';
import type { UserKey } from '../../sandbox/reference-partner/users';
import type { Profile } from '../../profile/profile-schema';
import { startPlatform, startReferencePartner } from '../support/sandbox';

/**
 * The partner's own app (partners/reference-app.json): the reference partner's payments page embeds the
 * platform, and each of its faults is caught by exactly its rule, with the others still judged.
 */

const sandbox = {} as { partner: Awaited<ReturnType<typeof startReferencePartner>>; platform: Awaited<ReturnType<typeof startPlatform>> };
test.beforeAll(async () => {
  // On a port of four digits, so that a look-alike of its origin with a suffix exists (app-origin-prefix).
  sandbox.platform = await startPlatform({}, { prefixable: true });
  // The app embeds this emulator's auth URL, under the partner name the profile configures.
  sandbox.partner = await startReferencePartner({ appAuthUrl: `${sandbox.platform.origin}/reference-app/auth` });
});
test.afterAll(async () => {
  await Promise.all([sandbox.partner.close(), sandbox.platform.close()]);
});

/**
 * partners/reference-app.json, on this file's sandbox (or `partner`), with the app's `faults` switched on, its
 * test user signed in as `user`, and the emulator's `platformFaults`.
 */
function appProfile(
  faults: readonly AppFault[] = [],
  { user, partner = sandbox.partner, platformFaults = [] }: { user?: UserKey; partner?: { origin: string }; platformFaults?: readonly PlatformFault[] } = {},
): Profile {
  const { profile } = loadProfile('partners/reference-app.json', {});
  if (!profile) throw new Error('partners/reference-app.json does not load');
  const base = profile.profile;
  const at = (url: string) => `${partner.origin}${new URL(url).pathname}${new URL(url).search}`;
  const app = (url: string) => `${partner.origin}${faults.length > 0 ? `/faults/${faults.join(',')}` : ''}${new URL(url).pathname}`;
  const { partnerApp } = base;
  const login = partnerApp!.login!.map((step) =>
    'goto' in step ? { goto: app(step.goto) } : 'fill' in step && step.fill === '#username' && user ? { ...step, value: user } : step,
  );
  return {
    ...base,
    tokenExchangeUrl: at(base.tokenExchangeUrl),
    accountInfoUrl: at(base.accountInfoUrl),
    fundingSourcesUrl: at(base.fundingSourcesUrl!),
    codes: { mintUrl: at(base.codes.mintUrl!) },
    platform: {
      ...base.platform!,
      url: `${sandbox.platform.origin}${platformFaults.length > 0 ? `/faults/${platformFaults.join(',')}` : ''}`,
      hostOrigin: partner.origin,
      configure: true,
    },
    partnerApp: { ...partnerApp!, page: app(partnerApp!.page), login },
  };
}

const outcomes = (findings: readonly Finding[]) =>
  Object.fromEntries(partnerAppRules.map((rule) => [rule.id, findings.filter((f) => f.rule === rule.id).map((f) => f.outcome)]));
const runApp = async (browser: Parameters<typeof runPlatformProbes>[1], faults: readonly AppFault[] = [], options: Parameters<typeof appProfile>[1] = {}) =>
  (await runPlatformProbes(appProfile(faults, options), browser, [partnerAppProbe])).flatMap((result) => result.findings);
const allPassed = Object.fromEntries(partnerAppRules.map((rule) => [rule.id, ['passed']]));

test("a conformant app: a fresh code at each load, the app shown in its frame, and another origin's message ignored while the platform's is heard", async ({
  browser,
}) => {
  const findings = await runApp(browser);
  expect(findings.filter((f) => f.outcome !== 'passed').map((f) => `${f.rule}: ${f.outcome}: ${f.message}`)).toEqual([]);
  expect(outcomes(findings)).toEqual(allPassed);
  // Proven by the platform's own message after the forged ones, not by a window that passed without a reaction.
  expect(findings.find((f) => f.rule === actsOnPlatformMessagesOnly.id)?.message).toContain('the forged ones before it were ignored');
});

test('a test user without Yes* fields, with collectMissingAccountInfo: the collection screen inside the page is filled, and the app is reached', async ({
  browser,
}) => {
  const findings = await runApp(browser, [], { user: 'minimal' });
  expect(findings.filter((f) => f.outcome !== 'passed').map((f) => `${f.rule}: ${f.outcome}: ${f.message}`)).toEqual([]);
  expect(outcomes(findings)).toEqual(allPassed);
});

test('a platform that posts its messages 0.4 s to 2 s after its screen shows gets the verdict of one that posts at once', async ({ browser }) => {
  // The app embeds the emulator under its conformant variation, as the profile's platform URL says.
  const late = await startReferencePartner({ appAuthUrl: `${sandbox.platform.origin}/faults/posts-late-varied/reference-app/auth` });
  try {
    const runs = Number(process.env.CERTIFY_LATE_RUNS ?? 1);
    for (let run = 0; run < runs; run++) {
      const [prompt, slow] = [await runApp(browser), await runApp(browser, [], { partner: late, platformFaults: ['posts-late-varied'] })];
      expect(outcomes(slow), `run ${run + 1}: posted late`).toEqual(outcomes(prompt));
      expect(outcomes(slow)).toEqual(allPassed);
    }
  } finally {
    await late.close();
  }
});

const expected: Record<AppFault, { failed: string; blocked?: string[] }> = {
  // The app is judged at the second load, after the first sign-on ran to its end: its code is then spent.
  'app-reuses-code': { failed: 'sign-on/partner-app/fresh-code', blocked: ['sign-on/partner-app/shown', 'sign-on/partner-app/message-origin'] },
  'app-code-for-incomplete-user': { failed: 'sign-on/partner-app/shown', blocked: ['sign-on/partner-app/message-origin'] },
  'app-csp-blocks-platform': {
    failed: 'sign-on/partner-app/csp',
    blocked: [
      'sign-on/partner-app/platform-in-frame',
      'sign-on/partner-app/shown',
      'sign-on/partner-app/auth-error-shown',
      'sign-on/partner-app/message-origin',
    ],
  },
  // The home screen still renders; what breaks is the collection form, storage, and messages from origin "null".
  'app-meta-csp-blocks-platform': {
    failed: 'sign-on/partner-app/csp',
    blocked: [
      'sign-on/partner-app/platform-in-frame',
      'sign-on/partner-app/shown',
      'sign-on/partner-app/auth-error-shown',
      'sign-on/partner-app/message-origin',
    ],
  },
  // The app renders, but its messages come from origin "null", not the platform's: the page is never told it is ready.
  'app-sandbox-breaks': { failed: 'sign-on/partner-app/iframe-sandbox', blocked: ['sign-on/partner-app/shown', 'sign-on/partner-app/auth-error-shown'] },
  'app-ignores-auth-error': { failed: 'sign-on/partner-app/auth-error-shown', blocked: ['sign-on/partner-app/message-origin'] },
  'app-trusts-any-origin': { failed: 'sign-on/partner-app/message-origin' },
  'app-lookalike-frame': { failed: 'sign-on/partner-app/platform-in-frame', blocked: ['sign-on/partner-app/shown', 'sign-on/partner-app/auth-error-shown'] },
  'app-origin-prefix': { failed: 'sign-on/partner-app/message-origin' },
  'app-trusts-opener-and-frames': { failed: 'sign-on/partner-app/message-origin' },
  'app-csp-sandbox-without-forms': { failed: 'sign-on/partner-app/iframe-sandbox' },
  'app-sandbox-from-second-load': {
    failed: 'sign-on/partner-app/iframe-sandbox',
    blocked: ['sign-on/partner-app/shown', 'sign-on/partner-app/auth-error-shown'],
  },
  'app-reuses-code-from-third-load': { failed: 'sign-on/partner-app/fresh-code', blocked: ['sign-on/partner-app/shown', 'sign-on/partner-app/message-origin'] },
  'app-frames-other-partner': {
    failed: 'sign-on/partner-app/auth-url',
    blocked: [
      'sign-on/partner-app/fresh-code',
      'sign-on/partner-app/platform-in-frame',
      'sign-on/partner-app/shown',
      'sign-on/partner-app/auth-error-shown',
      'sign-on/partner-app/message-origin',
    ],
  },
};

for (const fault of appFaultNames) {
  test(`the app fault "${fault}" (${appFaults[fault]}) fails ${expected[fault].failed} and nothing else`, async ({ browser }) => {
    // Seven loads, each waiting up to the screen timeout for what a faulty page never shows: a bound, on a busy machine too.
    test.setTimeout(240_000);
    const findings = await runApp(browser, [fault]);
    const failing = findings.filter((f) => f.outcome === 'failed');
    expect(failing.map((f) => f.rule)).toEqual([expected[fault].failed]);
    expect(findings.filter((f) => f.blockedBy === expected[fault].failed).map((f) => f.rule)).toEqual(expected[fault].blocked ?? []);
    expect(findings.filter((f) => (f.outcome === 'not-checked' && !f.blockedBy) || f.outcome === 'skipped').map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
    console.log(`${fault}: ${failing[0]?.message}`);
  });
}

test('without "partnerApp" the probe is skipped, saying what to add', () => {
  const { partnerApp: _, ...profile } = appProfile();
  expect(notApplicable(partnerAppProbe, profile)).toMatch(/"partnerApp"/);
});

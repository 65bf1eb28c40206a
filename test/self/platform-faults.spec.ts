import { expect, test } from '@playwright/test';
import {
  authenticationErrorMessage,
  errorShown,
  foreignHostCannotFrame,
  linkAppShown,
  linkNavigatedMessage,
  messagesToHostOnly,
  partnerDataEscaped,
} from '../../checks/sign-on';
import { collectionScreenShown, inlineErrorShown } from '../../checks/sign-on-collect';
import { landingCookies, landingFrameAncestors, landingReferrerPolicy, tamperedLinkRules } from '../../checks/mock-link-landing';
import { notPassing, type Finding, type AnyRule } from '../../checks/finding';
import { browserProbes, runPlatformProbes } from '../../probes/certification';
import { notApplicable } from '../../probes/executor';
import { mockLinkProbes } from '../../probes/mock-link';
import { signOnProbes } from '../../probes/sign-on';
import { platformFaultNames, type PlatformFault } from '../../sandbox/platform/faults';
import { referenceProfile } from '../support/profiles';
import { sandboxPerFile } from '../support/sandbox';
import { stopsOf, unanswered, undeclared, watched, type Stops } from '../support/probe-watch';

/** The rules each emulator fault must trip, and no others: the harness proves it catches a broken platform. */
const expectedFailures: Record<PlatformFault, AnyRule[]> = {
  'posts-to-any-origin': [messagesToHostOnly],
  'skips-missing-info-screen': [collectionScreenShown],
  'accepts-expired-jwt': [tamperedLinkRules.expired],
  'allows-jwt-replay': [tamperedLinkRules.replay],
  'no-frame-ancestors': [landingFrameAncestors, foreignHostCannotFrame],
  'no-referrer-policy': [landingReferrerPolicy],
  // By effect: the browser drops the cookie, so the collection screen, which needs the session, is lost at its first submission.
  'none-cookies-without-secure': [landingCookies, inlineErrorShown],
  'unescaped-html': [partnerDataEscaped],
  // Every screen rule fails; the rules whose positive control needs a rendered app are not checked, never passed.
  'blank-app': [
    linkAppShown,
    linkNavigatedMessage,
    collectionScreenShown,
    errorShown,
    authenticationErrorMessage,
    tamperedLinkRules.algNone,
    tamperedLinkRules.wrongKey,
  ],
  // Messages are awaited, not read at load: a message posted late is heard, and nothing fails.
  'posts-late': [],
  'posts-late-varied': [],
};

const sandbox = sandboxPerFile();

/** What each run cuts short beside judging (test/self/probe-rules.spec.ts for the partner's faults); a fault not listed cuts nothing short. */
const stops: Partial<Record<PlatformFault, Stops>> = {
  // The app renders for no one: sign-on by code is blocked, and the checks whose control is the app stop there.
  'blank-app': { midway: ['sign-on/code', 'sign-on/collect', 'sign-on/funding-sync', 'sign-on/escaping', 'sign-on/foreign-host'] },
  // The collection screen is skipped: the collection probe stops once it has judged the screen.
  'skips-missing-info-screen': { midway: ['sign-on/collect'] },
  // The session cookie is dropped, so the collection screen's first submission is lost: nothing more to judge there.
  'none-cookies-without-secure': { midway: ['sign-on/collect'] },
};

/**
 * The findings of the emulator's probes (or `only` those) under `faults`, after checking what a probe declares
 * is what it judges (test/support/probe-watch.ts), and which probes were cut short.
 */
async function signOn(
  browser: Parameters<typeof runPlatformProbes>[1],
  faults: readonly PlatformFault[],
  only?: Parameters<typeof runPlatformProbes>[2],
): Promise<Finding[]> {
  const profile = { ...referenceProfile(sandbox.partner.origin, [], { collectMissingAccountInfo: true }), platform: sandbox.platform.block(faults) };
  const { probes, stoppedMidway, stoppedBefore } = watched((only ?? [...mockLinkProbes, ...browserProbes]).filter((probe) => !notApplicable(probe, profile)));
  const results = await runPlatformProbes(profile, browser, probes);
  expect(undeclared(probes, results)).toEqual([]);
  if (!only) expect(stopsOf(probes, stoppedMidway, stoppedBefore())).toEqual(faults.length === 1 ? (stops[faults[0]!] ?? {}) : {});
  expect(unanswered(probes, results, profile, new Set([...stoppedMidway, ...stoppedBefore()]))).toEqual([]);
  return results.flatMap((result) => result.findings);
}

/** A conformant variation changes how messages arrive: the probes that wait for one judge it. */
const conformant: Partial<Record<PlatformFault, Parameters<typeof runPlatformProbes>[2]>> = {
  'posts-late': signOnProbes.filter((probe) => ['sign-on/mock-link', 'sign-on/error', 'sign-on/foreign-host'].includes(probe.id)),
  'posts-late-varied': signOnProbes.filter((probe) => ['sign-on/mock-link', 'sign-on/error', 'sign-on/foreign-host'].includes(probe.id)),
};

const raised = (findings: Finding[]) => [...new Set(notPassing(findings).map((f) => f.rule))].sort();

test('the conformant emulator passes every mock-link and browser rule, and none is skipped', async ({ browser }) => {
  const findings = await signOn(browser, []);
  expect(notPassing(findings).map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
  expect(findings.filter((f) => f.outcome === 'skipped').map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
});

// A test a fault, so the self-test workers share them out.
for (const fault of platformFaultNames) {
  // Every rule a platform fault trips is the platform's: none of them is the partner's to fix.
  expect(expectedFailures[fault].filter((rule) => rule.owner !== 'platform').map((rule) => rule.id)).toEqual([]);
  const expected = expectedFailures[fault].map((rule) => rule.id).sort();
  test(
    expected.length > 0
      ? `the emulator fault "${fault}" is caught by exactly ${expected.join(', ')}`
      : `the emulator variation "${fault}" is conformant: no rule flags it`,
    async ({ browser }) => {
      expect(raised(await signOn(browser, [fault], conformant[fault]))).toEqual(expected);
    },
  );
}

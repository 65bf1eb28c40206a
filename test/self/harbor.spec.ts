import { expect, test } from '@playwright/test';
import type { AnyRule } from '../../checks/finding';
import { invalidTokenRefused, missingTokenRefused } from '../../checks/data-api-refusals';
import { linkClaims } from '../../checks/mock-link';
import { landingFrameAncestors, tamperedLinkRules } from '../../checks/mock-link-landing';
import { collectionScreenShown } from '../../checks/sign-on-collect';
import { foreignHostCannotFrame, fundingSynced, messagesToHostOnly, partnerDataEscaped } from '../../checks/sign-on';
import { loadProfile } from '../../partners/profile';
import { FAULTS } from '../../sandbox/harbor/faults';
import { expectCaughtByExactly, underPlatformFault } from '../support/external-faults';

/**
 * Harbor (sandbox/harbor), a third platform written from the spec alone by someone who never read the harness,
 * with a profile written from the README (partners/reference-harbor.json): each of its faults shows in the
 * platform's section only. The reference partner certified through fault-free Harbor, in a whole run beside
 * the emulator and Ledgerly, is test/self/external-platform.spec.ts's.
 */

/** The rules each Harbor fault must trip, and no others; every one of them the platform's. */
const expected: Record<keyof typeof FAULTS, AnyRule[]> = {
  'targets-any-origin': [messagesToHostOnly],
  'frameable-anywhere': [landingFrameAncestors, foreignHostCannotFrame],
  'reusable-links': [tamperedLinkRules.replay],
  'data-api-open': [missingTokenRefused, invalidTokenRefused],
  'renders-markup': [partnerDataEscaped],
  'skips-collection': [collectionScreenShown],
  'long-lived-links': [linkClaims],
  // Judged through the reference partner's hook (fundingSync.mintUrl), on Harbor's own wallet screen.
  'keeps-removed-sources': [fundingSynced],
};

// A test a fault, so the self-test workers share them out.
for (const [fault, rules] of Object.entries(expected)) {
  test(`Harbor's fault "${fault}" is caught by exactly ${rules.map((rule) => rule.id).join(', ')}, each the platform's; the reference partner's rules all pass`, async ({
    browser,
  }) => {
    const { profile: base } = loadProfile('partners/reference-harbor.json', {}).profile!;
    const partnerName = `harbor-${fault}`;
    // The partner name configured in Harbor's own admin API, as an integration team would in a platform's admin:
    // a platform keeps one configuration per partner name, and the fault is chosen by the path prefix of its URLs.
    const configured = await fetch(`${base.platform!.url}/v1/sandbox/partners`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': base.platform!.apiKey },
      body: JSON.stringify({
        partnerName,
        hostOrigins: [base.platform!.hostOrigin],
        tokenExchangeUrl: base.tokenExchangeUrl,
        accountInfoUrl: base.accountInfoUrl,
        fundingSourcesUrl: base.fundingSourcesUrl,
        clientId: base.clientId,
        clientSecret: base.clientSecret,
        tokenExchangeEncoding: 'json',
        collectMissingAccountInfo: true,
        apiKey: base.platform!.apiKey,
      }),
    });
    expect(configured.status, await configured.text()).toBeLessThan(300);
    await expectCaughtByExactly(browser, underPlatformFault(base, fault, partnerName), rules, `${fault} (${FAULTS[fault as keyof typeof FAULTS]})`);
  });
}

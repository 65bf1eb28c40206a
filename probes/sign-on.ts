import { appShown, authenticationErrorMessage, errorShown, linkAppShown, linkNavigatedMessage, navigatedMessage, partnerDataEscaped } from '../checks/sign-on';
import { collectionCompletes, collectionScreenShown, inlineErrorShown, missingYesStarFields } from '../checks/sign-on-collect';
import { screenNames } from '../checks/sign-on-visit';
import { evaluate, evaluateAll, failed, type Blocker } from '../checks/finding';
import { signOnDecision } from '../checks/sign-on-decision';
import type { HttpClient } from '../client/http';
import { addressFor, storesTestDataSkipReason, type BrowserProbe, type BrowserProbeContext } from './platform';
import { stopped } from './probe';
import { codePath, mockLink, profileHas, storesTestData } from './needs';
import { partnerAppProbe } from './partner-app';
import { fundingSyncSignOn } from './funding-sync';
import type { LiveAccountInfo } from './live-account-info';
import { browserProbe, frameOf, hostPageFor, observe, type Session } from './browser-session';
import { examplesFor, exampleFor, fieldErrorsOnScreen, fieldsOnScreen, fillCollection, signOn } from './collection-screen';
import { expectedTexts, linkFor, without, withCompanyName } from './account-info-links';
import { foreignHostSignOn } from './foreign-host';
import { navigate } from './unrecorded';

/** (a) The mock-link path: a link built from the partner's live account information opens the app. */
const mockLinkSignOn = browserProbe(
  {
    id: 'sign-on/mock-link',
    area: 'sign-on',
    title: "a mock link built from the partner's account information opens the app in the host page",
    rules: [linkAppShown, linkNavigatedMessage],
    codes: 0,
    needs: { link: mockLink() },
  },
  async (ctx, session, _http, { link }) => {
    const visit = await signOn(session, ctx.platform, link.link, 'mock-link');
    return [...evaluate(linkAppShown, { ...visit, expected: expectedTexts(link.sent) }, undefined), ...evaluate(linkNavigatedMessage, visit, undefined)];
  },
);

/**
 * Why sign-on by code did not reach the app, when the cause is not the code path itself: one cause, one
 * failure. Account information that fails a rule of the partner's is that rule's failure (the platform is
 * right to refuse it); a platform that shows its app to no one, not even with a mock link of valid account
 * information, is the platform's. Undefined when the code path alone is to blame.
 */
async function whyNotShown(ctx: BrowserProbeContext, session: Session, http: HttpClient, live: LiveAccountInfo): Promise<Blocker | undefined> {
  if ('blocker' in live) return live.blocker;
  const decision = signOnDecision(live.payload, { now: ctx.now(), collectMissingAccountInfo: ctx.profile.collectMissingAccountInfo });
  const refusedFor = decision.screen === 'error' ? decision.problems[0] : undefined;
  if (refusedFor) return { rule: refusedFor.rule, reason: `the platform refuses account information that fails ${refusedFor.rule}, as it should` };
  const control = await linkFor(ctx, http);
  const shown = 'link' in control ? await signOn(session, ctx.platform, control.link, 'code-control') : undefined;
  if (shown?.screen === 'app') return undefined;
  return { rule: linkAppShown.id, reason: 'the platform shows its app to no one: a mock link with valid account information does not reach it either' };
}

/** (b) The code path: the platform exchanges a fresh code with the partner and reads its endpoints. */
const codeSignOn = browserProbe(
  {
    id: 'sign-on/code',
    area: 'sign-on',
    title: "a fresh code opens the app through the partner's token exchange and account information",
    rules: [appShown, navigatedMessage],
    codes: 1,
    needs: { codePath },
  },
  async (ctx, session, http) => {
    const live = await ctx.accountInfo();
    const code = await ctx.codes.next();
    const visit = await signOn(session, ctx.platform, addressFor(ctx, code), 'code');
    const cause = visit.screen === 'app' ? undefined : await whyNotShown(ctx, session, http, live);
    if (cause) return stopped({ blockedBy: cause });
    return [
      ...evaluate(appShown, { ...visit, expected: 'payload' in live ? expectedTexts(live.payload) : [] }, undefined),
      ...evaluate(navigatedMessage, visit, undefined),
    ];
  },
);

/** The Yes* fields the collection probe leaves out: a user field, a date and a whole address. */
const leftOut = ['user.phone', 'user.dateOfBirth', 'company.legalAddress'];

/** (c) Missing information: the collection screen asks for exactly what is missing and judges what is typed. */
const collectRules = [collectionScreenShown, inlineErrorShown, collectionCompletes];
const collectSignOn = browserProbe(
  {
    id: 'sign-on/collect',
    area: 'sign-on',
    title: 'missing Yes* fields are asked for on the collection screen, typed values are judged, then the app opens',
    rules: collectRules,
    // Without collection the same omission must show the error screen.
    alsoJudges: [linkNavigatedMessage, errorShown, authenticationErrorMessage],
    answersFor: (profile) => (profile.collectMissingAccountInfo ? [linkNavigatedMessage] : [errorShown, authenticationErrorMessage]),
    profileNeeds: [profileHas('collectMissingAccountInfo', 'the platform shows no collection screen', collectRules)],
    codes: 0,
    needs: { link: mockLink((info) => without(info, leftOut)) },
  },
  async (ctx, session, _http, { link }) => {
    const { page } = session;
    await navigate(page, hostPageFor(ctx.platform.hostPageUrl, link.link));
    if (!ctx.profile.collectMissingAccountInfo) {
      // Without CollectMissingAccountInfo the same omission is the error screen (spec §7.1).
      const visit = await observe(page, ctx.platform);
      await session.shoot('collect-off-error');
      return evaluateAll([errorShown, authenticationErrorMessage], visit, undefined);
    }
    // What the spec's table says must be asked for, not what the emulator's own decision would show.
    const expectedFields = missingYesStarFields(link.sent);
    const first = await observe(page, ctx.platform);
    await session.shoot('collect');
    const fields = first.screen === 'collect' ? await fieldsOnScreen(page, ctx.platform) : [];
    // A form whose inputs carry no spec path the harness can read is a locator to write, not a platform fault.
    if (first.screen === 'collect' && fields.length === 0 && ctx.platform.screens.fields === undefined) {
      return stopped({
        notChecked:
          'the collection screen showed no input the harness can map to a spec path (by "data-field", or a "name" such as "user.phone"); map them in "platform.screens.fields", e.g. {"user.phone": "#phone"}',
      });
    }
    const listed = evaluate(collectionScreenShown, { ...first, fields, expectedFields }, undefined);
    const invalidField = 'user.phone';
    if (first.screen !== 'collect' || !fields.includes(invalidField)) {
      return stopped({ notApplicable: `the collection screen was not shown, or did not ask for "${invalidField}"` }, listed);
    }
    // What the user types is stored: only where the profile allows it.
    const typing = storesTestDataSkipReason(ctx.profile, 'example personal data typed into the collection screen');
    if (typing) return stopped({ notApplicable: typing }, listed);

    await fillCollection(page, ctx.platform, { ...examplesFor(fields), [invalidField]: '555-01' });
    const rejected = await observe(page, ctx.platform);
    const errors = await fieldErrorsOnScreen(page, ctx.platform);
    await session.shoot('collect-inline-error');
    const inline = evaluate(inlineErrorShown, { ...rejected, fields, expectedFields, invalidField, errors }, undefined);
    // A platform that left its collection screen on a wrong value leaves nothing to complete: its rule said why.
    const gone = failed(inline)[0];
    if (rejected.screen !== 'collect' && gone) {
      const reason = `after a wrong value the frame showed ${screenNames[rejected.screen]}, not the collection screen`;
      return stopped({ blockedBy: { rule: gone.rule, reason } }, [...listed, ...inline]);
    }

    await fillCollection(page, ctx.platform, { [invalidField]: exampleFor(invalidField) });
    const done = await observe(page, ctx.platform);
    await session.shoot('collect-app');
    return [...listed, ...inline, ...evaluate(collectionCompletes, done, undefined), ...evaluate(linkNavigatedMessage, done, undefined)];
  },
);

/** (d) The error path: account information without `user.email` (Yes: required even with collection). */
const errorSignOn = browserProbe(
  {
    id: 'sign-on/error',
    area: 'sign-on',
    title: 'account information without a required field shows the error screen and tells the host',
    rules: [errorShown, authenticationErrorMessage],
    codes: 0,
    needs: { link: mockLink((info) => without(info, ['user.email'])) },
  },
  async (ctx, session, _http, { link }) => {
    await navigate(session.page, hostPageFor(ctx.platform.hostPageUrl, link.link));
    const visit = await observe(session.page, ctx.platform);
    await session.shoot('error');
    return evaluateAll([errorShown, authenticationErrorMessage], visit, undefined);
  },
);

const markup = `Certify <b id="certify-injected">Bold</b> & "Co" 'Ltd'`;

/** Partner data with markup in it is shown as text. */
const escapingSignOn = browserProbe(
  {
    id: 'sign-on/escaping',
    area: 'sign-on',
    title: 'partner data carrying markup is shown as text, not run as HTML',
    rules: [partnerDataEscaped],
    codes: 0,
    profileNeeds: [storesTestData('a company name carrying markup')],
    needs: { link: mockLink((info) => withCompanyName(info, markup)) },
  },
  async (ctx, session, _http, { link }) => {
    const visit = await signOn(session, ctx.platform, link.link, 'escaping');
    // Judged on a screen that rendered: an empty frame escapes nothing and injects nothing.
    if (visit.screen === 'none') return stopped({ notChecked: 'the frame rendered no screen, so there was no page to show the company name in' });
    const injected = (await frameOf(session.page).locator('#certify-injected').count()) > 0;
    return evaluate(partnerDataEscaped, { ...visit, injected, markup }, undefined);
  },
);

export const signOnProbes: readonly BrowserProbe[] = [
  partnerAppProbe,
  mockLinkSignOn,
  codeSignOn,
  collectSignOn,
  errorSignOn,
  fundingSyncSignOn,
  escapingSignOn,
  foreignHostSignOn,
];

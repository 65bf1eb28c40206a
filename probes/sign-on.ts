import {
  appShown,
  authenticationErrorMessage,
  collectionCompletes,
  collectionScreenShown,
  errorShown,
  foreignHostCannotFrame,
  inlineErrorShown,
  linkAppShown,
  linkNavigatedMessage,
  messagesToHostOnly,
  missingYesStarFields,
  navigatedMessage,
  partnerDataEscaped,
  screenNames,
} from '../checks/sign-on';
import { blocked, evaluate, evaluateAll, failed, notChecked, skipRest, unjudged, type AnyRule, type Blocker, type Finding } from '../checks/finding';
import { signOnDecision } from '../checks/sign-on-decision';
import type { HttpClient } from '../client/http';
import { addressFor, codePathBlocker, storesTestDataSkipReason, type BrowserProbeContext } from './platform';
import { type Probe } from './probe';
import { partnerAppProbe } from './partner-app';
import { fundingSyncSignOn } from './funding-sync';
import type { LiveAccountInfo } from './resources';

import {
  browserProbe,
  examplesFor,
  exampleFor,
  expectedTexts,
  fieldErrorsOnScreen,
  fieldsOnScreen,
  fillCollection,
  frameOf,
  hostPageFor,
  linkFor,
  observe,
  screenTimeoutMs,
  serveHostPage,
  signOn,
  without,
  withCompanyName,
  type Session,
} from './browser-session';
/** (a) The mock-link path: a link built from the partner's live account information opens the app. */
const mockLinkSignOn = browserProbe(
  {
    id: 'sign-on/mock-link',
    area: 'sign-on',
    title: "a mock link built from the partner's account information opens the app in the host page",
    rules: [linkAppShown, linkNavigatedMessage],
    codes: 0,
  },
  async (ctx, session, http) => {
    const link = await linkFor(ctx, http);
    if ('problem' in link) return unjudged(mockLinkSignOn.rules, link);
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
  },
  async (ctx, session, http) => {
    const blocker = await codePathBlocker(ctx);
    if (blocker) return blocked(codeSignOn.rules, blocker);
    const live = await ctx.accountInfo();
    const code = await ctx.codes.next();
    const visit = await signOn(session, ctx.platform, addressFor(ctx, code), 'code');
    const cause = visit.screen === 'app' ? undefined : await whyNotShown(ctx, session, http, live);
    if (cause) return blocked(codeSignOn.rules, cause);
    return [
      ...evaluate(appShown, { ...visit, expected: 'payload' in live ? expectedTexts(live.payload) : [] }, undefined),
      ...evaluate(navigatedMessage, visit, undefined),
    ];
  },
);

/** The Yes* fields the collection probe leaves out: a user field, a date and a whole address. */
const leftOut = ['user.phone', 'user.dateOfBirth', 'company.legalAddress'];

/** (c) Missing information: the collection screen asks for exactly what is missing and judges what is typed. */
const collectSignOn = browserProbe(
  {
    id: 'sign-on/collect',
    area: 'sign-on',
    title: 'missing Yes* fields are asked for on the collection screen, typed values are judged, then the app opens',
    rules: [collectionScreenShown, inlineErrorShown, collectionCompletes],
    // Without collection the same omission must show the error screen.
    alsoJudges: [linkNavigatedMessage, errorShown, authenticationErrorMessage],
    codes: 0,
  },
  async (ctx, session, http) => {
    const { page } = session;
    const collecting = ctx.profile.collectMissingAccountInfo;
    const rules: readonly AnyRule[] = collecting ? [...collectSignOn.rules, linkNavigatedMessage] : [errorShown, authenticationErrorMessage];
    const notCollecting = (findings: Finding[]) =>
      skipRest(collectSignOn.rules, findings, 'the profile has no "collectMissingAccountInfo", so the platform shows no collection screen');
    const link = await linkFor(ctx, http, (info) => without(info, leftOut));
    if ('problem' in link) return collecting ? unjudged(rules, link) : notCollecting(unjudged(rules, link));
    await page.goto(hostPageFor(ctx.platform.hostPageUrl, link.link));
    if (!collecting) {
      // Without CollectMissingAccountInfo the same omission is the error screen (spec §7.1).
      const visit = await observe(page, ctx.platform);
      await session.shoot('collect-off-error');
      return notCollecting(evaluateAll(rules, visit, undefined));
    }
    // What the spec's table says must be asked for, not what the emulator's own decision would show.
    const expectedFields = missingYesStarFields(link.sent);
    const first = await observe(page, ctx.platform);
    await session.shoot('collect');
    const fields = first.screen === 'collect' ? await fieldsOnScreen(page, ctx.platform) : [];
    // A form whose inputs carry no spec path the harness can read is a locator to write, not a platform fault.
    if (first.screen === 'collect' && fields.length === 0 && ctx.platform.screens.fields === undefined) {
      return notChecked(
        rules,
        'the collection screen showed no input the harness can map to a spec path (by "data-field", or a "name" such as "user.phone"); map them in "platform.screens.fields", e.g. {"user.phone": "#phone"}',
      );
    }
    const listed = evaluate(collectionScreenShown, { ...first, fields, expectedFields }, undefined);
    const invalidField = 'user.phone';
    if (first.screen !== 'collect' || !fields.includes(invalidField)) {
      return skipRest(rules, listed, `the collection screen was not shown, or did not ask for "${invalidField}"`);
    }
    // What the user types is stored: only where the profile allows it.
    const typing = storesTestDataSkipReason(ctx.profile, 'example personal data typed into the collection screen');
    if (typing) return skipRest(rules, listed, typing);

    await fillCollection(page, ctx.platform, { ...examplesFor(fields), [invalidField]: '555-01' });
    const rejected = await observe(page, ctx.platform);
    const errors = await fieldErrorsOnScreen(page, ctx.platform);
    await session.shoot('collect-inline-error');
    const inline = evaluate(inlineErrorShown, { ...rejected, fields, expectedFields, invalidField, errors }, undefined);
    // A platform that left its collection screen on a wrong value leaves nothing to complete: its rule said why.
    const gone = failed(inline)[0];
    if (rejected.screen !== 'collect' && gone)
      return [
        ...listed,
        ...inline,
        ...blocked([collectionCompletes, linkNavigatedMessage], {
          rule: gone.rule,
          reason: `after a wrong value the frame showed ${screenNames[rejected.screen]}, not the collection screen`,
        }),
      ];

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
  },
  async (ctx, session, http) => {
    const rules = [errorShown, authenticationErrorMessage] as const;
    const link = await linkFor(ctx, http, (info) => without(info, ['user.email']));
    if ('problem' in link) return unjudged(rules, link);
    await session.page.goto(hostPageFor(ctx.platform.hostPageUrl, link.link));
    const visit = await observe(session.page, ctx.platform);
    await session.shoot('error');
    return evaluateAll(rules, visit, undefined);
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
    skipReason: (profile) => storesTestDataSkipReason(profile, 'a company name carrying markup'),
  },
  async (ctx, session, http) => {
    const link = await linkFor(ctx, http, (info) => withCompanyName(info, markup));
    if ('problem' in link) return unjudged([partnerDataEscaped], link);
    const visit = await signOn(session, ctx.platform, link.link, 'escaping');
    // Judged on a screen that rendered: an empty frame escapes nothing and injects nothing.
    if (visit.screen === 'none') return notChecked([partnerDataEscaped], 'the frame rendered no screen, so there was no page to show the company name in');
    const injected = (await frameOf(session.page).locator('#certify-injected').count()) > 0;
    return evaluate(partnerDataEscaped, { ...visit, injected, markup }, undefined);
  },
);

const foreignOrigin = 'http://certify-foreign-host.invalid';

/**
 * The host page served on a foreign origin (Playwright answers for it with the real host page). With
 * the platform's CSP in force the frame must stay empty; with the CSP taken off, a foreign host must
 * still receive no message.
 */
const foreignHostSignOn = browserProbe(
  {
    id: 'sign-on/foreign-host',
    area: 'sign-on',
    title: 'a host on another origin cannot frame the app, and receives none of its messages',
    rules: [foreignHostCannotFrame, messagesToHostOnly],
    codes: 0,
  },
  async (ctx, session, http) => {
    const { rules } = foreignHostSignOn;
    const { context, page } = session;
    const hostPage = new URL(ctx.platform.hostPageUrl);
    await serveHostPage(context, foreignOrigin);
    // The platform's pages pass through the test, so that it can take their CSP off.
    let stripCsp = false;
    const platformOrigins = new Set([ctx.platform.origin, ...ctx.platform.appOrigins]);
    await context.route(
      (url) => platformOrigins.has(url.origin),
      async (route) => {
        const response = await route.fetch({ maxRedirects: 0 });
        const headers = { ...response.headers() };
        const location = response.status() >= 300 && response.status() < 400 ? headers.location : undefined;
        // The browser would follow a redirect without the test seeing where it leads: the frame is sent there
        // by a page of the test's own instead, so the app's own response passes through the test too.
        if (stripCsp && location)
          return route.fulfill({
            status: 200,
            contentType: 'text/html',
            body: `<script>location.replace(${JSON.stringify(new URL(location, route.request().url()).href)})</script>`,
          });
        if (stripCsp) delete headers['content-security-policy'];
        return route.fulfill({ response, headers });
      },
    );
    const links = await Promise.all([linkFor(ctx, http), linkFor(ctx, http), linkFor(ctx, http)]);
    const problem = links.find((link): link is { problem: string } => 'problem' in link);
    if (problem) return unjudged(rules, problem);
    const [control, framed, unframed] = links as { link: string }[];
    const foreignHost = (src: string) => hostPageFor(`${foreignOrigin}${hostPage.pathname}${hostPage.search}`, src);

    // The positive control: in the configured host the app renders. An app that renders nowhere would
    // otherwise "pass" both rules, having refused nothing.
    const home = await signOn(session, ctx.platform, control!.link, 'foreign-host-control');
    if (home.screen !== 'app')
      return blocked(rules, { rule: linkAppShown.id, reason: `the app did not render even in the configured host (it showed ${home.screen})` });

    await page.goto(foreignHost(framed!.link));
    // By effect, not by a screen's timing: a browser that refuses the frame (frame-ancestors) puts an error page in
    // it once the frame has loaded; a page that did load is the platform's, whenever a single-page app renders it.
    const document = await page
      .locator('iframe')
      .first()
      .elementHandle({ timeout: screenTimeoutMs })
      .then((frame) => frame.contentFrame())
      .then(
        (frame) => frame?.url(),
        () => undefined,
      );
    const blockedByBrowser = document === undefined || document.startsWith('chrome-error:') || document === 'about:blank';
    const refused = blockedByBrowser ? await observe(page, ctx.platform, { waitMs: 250 }) : await observe(page, ctx.platform);
    await session.shoot('foreign-host-framed');

    // Take the frame-ancestors defence away, so only the message's target origin stands between them. The
    // wait for a message that must not come is three times what the configured host waited for it (the
    // positive control), and at least 2 s.
    stripCsp = true;
    await page.goto(foreignHost(unframed!.link));
    const open = await observe(page, ctx.platform, { messageWaitMs: Math.max(2_000, 3 * (home.messageAfterMs ?? screenTimeoutMs)) });
    await session.shoot('foreign-host-without-csp');
    return [
      ...evaluate(
        foreignHostCannotFrame,
        { framed: refused.screen, ...(blockedByBrowser ? {} : { document }), messages: refused.messages, vocabulary: refused.vocabulary, foreignOrigin },
        undefined,
      ),
      // A frame that rendered nothing posted nothing: silence then proves nothing of the target origin.
      ...(open.screen === 'none'
        ? notChecked([messagesToHostOnly], 'with its frame-ancestors taken off, the app still rendered nothing in the foreign host, so it had nothing to post')
        : evaluate(messagesToHostOnly, { framed: open.screen, messages: open.messages, vocabulary: open.vocabulary, foreignOrigin }, undefined)),
    ];
  },
);

export const signOnProbes: readonly Probe<BrowserProbeContext>[] = [
  partnerAppProbe,
  mockLinkSignOn,
  codeSignOn,
  collectSignOn,
  errorSignOn,
  fundingSyncSignOn,
  escapingSignOn,
  foreignHostSignOn,
];

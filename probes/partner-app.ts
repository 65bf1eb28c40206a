import type { FrameLocator, Locator, Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { actsOnPlatformMessagesOnly, authErrorShown, codeIn, codeMarker, cspAdmitsPlatform, embedsFreshCode, frameSandboxAllowsApp, partnerAppRules, partnerAppShown, withCode, type EmbedLoad } from '../checks/partner-app';
import { received } from '../checks/sign-on';
import { blocked, evaluate, failed, notChecked, type Finding } from '../checks/finding';
import { html, scriptJson } from '../shared/html';
import { describeStep, runStep } from './codes';
import { browserProbe, locate, observe, screenTimeoutMs, type Session } from './browser-session';
import type { BrowserProbeContext } from './platform';

/**
 * The partner's own app (its `partnerApp`): a test user signs in with the profile's steps, then the page that
 * embeds the platform is loaded twice, as a user opens payments twice. What the page framed, its CSP and the
 * frame's sandbox are judged, and what the frame showed the second time. A third load has its frame's code swapped for one
 * the partner never issued, so the platform's sign-on fails for real and its error message must show on the
 * page; at a fourth, a page of another origin posts that message, which the page must not act on.
 */

const foreignSender = 'http://certify-foreign-sender.invalid';

async function signIn(page: Page, steps: NonNullable<NonNullable<BrowserProbeContext['profile']['partnerApp']>['login']>): Promise<string | undefined> {
  for (const [index, step] of steps.entries()) {
    try {
      await runStep(page, step, screenTimeoutMs);
    } catch (error) {
      return `"partnerApp.login" ${describeStep(step, index, steps.length)} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
  }
  return undefined;
}

const senderPath = '/certify-message-sender';

/** Whether the page shows its sign-on error once a window at `origin` it opened posted the platform's error message to it. */
async function showsErrorAfterMessageFrom(ctx: BrowserProbeContext, session: Session, shown: ReturnType<typeof locate>, origin: string): Promise<boolean | string> {
  const { typeKey, error, reasonKey } = ctx.platform.messages;
  const message = { [typeKey]: error, [reasonKey]: 'CERTIFY_TEST_MESSAGE' };
  // Answered by the browser: nothing reaches a server at that origin.
  await session.context.route(`${origin}${senderPath}`, (route) => route.fulfill({ contentType: 'text/html', body: html`<!doctype html><script>opener.postMessage(${scriptJson(message)}, '*'); close()</script>`.text }));
  const popup = session.context.waitForEvent('page', { timeout: screenTimeoutMs }).catch(() => undefined);
  await session.page.evaluate((url) => void window.open(url), `${origin}${senderPath}`);
  if (!(await popup)) return `the browser opened no window at ${origin} to post from`;
  return shown.waitFor({ timeout: 2_000 }).then(
    () => true,
    () => false,
  );
}

/**
 * The page must ignore the platform's error message from another origin; the same message from the
 * platform's own origin, sent next, is the control that shows the page listens at all.
 */
async function messageOriginFindings(ctx: BrowserProbeContext, session: Session, shown: ReturnType<typeof locate>, cause: Finding | undefined): Promise<Finding[]> {
  if ((await shown.isVisible()) && cause) return blocked([actsOnPlatformMessagesOnly], { rule: cause.rule, reason: 'the page already showed its sign-on error, so a reaction to a message could not be told from it' });
  if (await shown.isVisible()) return notChecked([actsOnPlatformMessagesOnly], 'the page showed its sign-on error before any message was sent, so a reaction could not be told from it');
  const reacted = await showsErrorAfterMessageFrom(ctx, session, shown, foreignSender);
  if (typeof reacted === 'string') return notChecked([actsOnPlatformMessagesOnly], reacted);
  if (!reacted) {
    const platformOrigin = ctx.platform.appOrigins[0]!;
    const control = await showsErrorAfterMessageFrom(ctx, session, shown, platformOrigin);
    if (control !== true) return notChecked([actsOnPlatformMessagesOnly], typeof control === 'string' ? control : `the page did not show "partnerApp.authError" for the platform's own error message from ${platformOrigin} either, so ignoring another origin's proves nothing; check the locator`);
  }
  return evaluate(actsOnPlatformMessagesOnly, { reacted, foreignOrigin: foreignSender }, undefined);
}

/** How long the page has to show the platform's error once the message arrived. */
const errorShownWithinMs = 5_000;

/**
 * The page, with its frame's code replaced (on the way out, by the browser) by one nobody issued: the
 * platform refuses it and posts its error to the page, which must show it. The platform's error screen and
 * its message reaching the page are the control: without them the page had nothing to show.
 */
async function authErrorFindings(ctx: BrowserProbeContext, session: Session, authUrl: string, load: () => Promise<EmbedLoad>, frame: FrameLocator, shown: Locator, cause: Finding | undefined): Promise<Finding[]> {
  const unissued = `certify-unissued-${randomUUID()}`;
  const issued = (url: URL) => ![undefined, unissued].includes(codeIn(url.href, authUrl));
  await session.context.route(
    issued,
    async (route) => {
      ctx.learn?.([codeIn(route.request().url(), authUrl)!]);
      await route.fulfill({ status: 302, headers: { location: withCode(route.request().url(), authUrl, unissued)!, 'cache-control': 'no-store' } });
    },
  );
  await load();
  const visit = await observe(session.page, ctx.platform, { frame });
  await session.context.unroute(issued);
  const message = received(visit, 'error')[0];
  const appeared = message ? await shown.waitFor({ timeout: errorShownWithinMs }).then(() => true, () => false) : false;
  if (!appeared && cause) return blocked([authErrorShown], { rule: cause.rule, reason: 'the page itself kept the platform from signing on in its frame' });
  if (visit.screen !== 'error') return notChecked([authErrorShown], `the platform showed ${visit.screen === 'none' ? 'no screen it is known by' : `its ${visit.screen} screen`} for a code the partner never issued, not its error screen, so there was no error to show`);
  if (!message) {
    const page = new URL(session.page.url()).origin;
    const hint = page === ctx.platform.hostOrigin ? 'the platform posted none' : `the page's origin ${page} is not "platform.hostOrigin" (${ctx.platform.hostOrigin}), the origin the platform posts to`;
    return notChecked([authErrorShown], `the platform showed its error screen, but its error message never reached the page: ${hint}`);
  }
  return evaluate(authErrorShown, { shown: appeared, message: message.data, locator: '"partnerApp.authError"', waitedMs: errorShownWithinMs }, undefined);
}

export const partnerAppProbe = browserProbe(
  {
    id: 'sign-on/partner-app',
    area: 'sign-on',
    title: "the partner's own page frames the platform with a fresh code at each load, and the app opens inside it",
    rules: partnerAppRules,
    codes: 0,
    skipReason: (profile) => (profile.partnerApp ? undefined : 'the profile has no "partnerApp" block (the page of the partner\'s app that embeds the platform)'),
  },
  async (ctx, session) => {
    const app = ctx.profile.partnerApp!;
    const { page } = session;
    const loginProblem = await signIn(page, app.login ?? []);
    if (loginProblem) return notChecked(partnerAppRules, loginProblem);
    const authUrl = ctx.platform.codeUrl(codeMarker);
    const element = app.frame ? locate(page, app.frame).first() : page.locator('iframe').first();
    const load = async (): Promise<EmbedLoad> => {
      const response = await page.goto(app.page);
      await element.waitFor({ state: 'attached', timeout: screenTimeoutMs }).catch(() => undefined);
      const src = (await element.getAttribute('src').catch(() => null)) ?? undefined;
      // A <meta> policy is enforced beside the header's (CSP3 §3.3): each is one more policy to satisfy.
      const meta = await page.locator('meta[http-equiv="content-security-policy" i]').evaluateAll((tags) => tags.map((tag) => tag.getAttribute('content') ?? '')).catch(() => []);
      return { src, sandbox: await element.getAttribute('sandbox').catch(() => null), csp: response?.headers()['content-security-policy'], metaCsp: meta };
    };
    // The first sign-on runs to its end, whatever the login left running, so the second load cannot race it:
    // the app is judged at the second, where a page that reuses a code has spent it.
    const first = await load();
    await observe(page, ctx.platform, { frame: element.contentFrame() });
    const second = await load();
    const visit = await observe(page, ctx.platform, { frame: element.contentFrame() });
    await session.shoot('partner-app');
    const embedding = { page: app.page, loads: [first, second], authUrl, appOrigins: ctx.platform.appOrigins };
    const ofPage = [...evaluate(embedsFreshCode, embedding, undefined), ...evaluate(cspAdmitsPlatform, embedding, undefined), ...evaluate(frameSandboxAllowsApp, embedding, undefined)];
    // A frame the page itself broke (a spent code, its CSP, its sandbox) is that rule's failure, not a second one.
    const cause = failed(ofPage)[0];
    const shown: Finding[] = visit.screen !== 'app' && cause ? blocked([partnerAppShown], { rule: cause.rule, reason: 'the page itself kept the app from loading' }) : evaluate(partnerAppShown, visit, undefined);
    if (!app.authError) return [...ofPage, ...shown, ...notChecked([authErrorShown, actsOnPlatformMessagesOnly], 'the profile names no "partnerApp.authError", the locator of what the page shows when sign-on failed, so nothing tells whether the page acted on a message')];
    const errorLocator = locate(page, app.authError).first();
    // A frame the page's own fault left empty stays empty: no second wait for it.
    const authError =
      visit.screen === 'none' && cause
        ? blocked([authErrorShown], { rule: cause.rule, reason: 'the page itself kept the platform from loading in its frame' })
        : await authErrorFindings(ctx, session, authUrl, load, element.contentFrame(), errorLocator, cause);
    await session.shoot('partner-app-auth-error');
    const errorCause = failed(authError)[0];
    await load();
    const messages = errorCause ? blocked([actsOnPlatformMessagesOnly], { rule: errorCause.rule, reason: "the page shows nothing for the platform's own error message, so ignoring another origin's proves nothing" }) : await messageOriginFindings(ctx, session, errorLocator, cause);
    await session.shoot('partner-app-after-messages');
    return [...ofPage, ...shown, ...authError, ...messages];
  },
);

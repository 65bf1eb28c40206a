import { foreignHostCannotFrame, linkAppShown, messagesToHostOnly } from '../checks/sign-on';
import { evaluate } from '../checks/finding';
import { browserProbe, hostPageFor, observe, screenTimeoutMs, serveHostPage } from './browser-session';
import { mockLinks } from './needs';
import { stopped } from './probe';
import { signOn } from './collection-screen';
import { navigate } from './unrecorded';

const foreignOrigin = 'http://certify-foreign-host.invalid';

/**
 * The host page served on a foreign origin (Playwright answers for it with the real host page). With
 * the platform's CSP in force the frame must stay empty; with the CSP taken off, a foreign host must
 * still receive no message.
 */
export const foreignHostSignOn = browserProbe(
  {
    id: 'sign-on/foreign-host',
    area: 'sign-on',
    title: 'a host on another origin cannot frame the app, and receives none of its messages',
    rules: [foreignHostCannotFrame, messagesToHostOnly],
    codes: 0,
    needs: { links: mockLinks(3) },
  },
  async (ctx, session, _http, { links }) => {
    const { context, page } = session;
    const hostPage = new URL(ctx.platform.hostPageUrl);
    await serveHostPage(context, foreignOrigin);
    // The platform's pages pass through the test, so that it can take their CSP off.
    let stripCsp = false;
    // A platform that stops answering fails the test (it did not complete), never a handler of the browser's.
    let unanswered: string | undefined;
    const answered = () => {
      if (unanswered) throw new Error(`the platform did not answer a page this test loads: ${unanswered}`);
    };
    const platformOrigins = new Set([ctx.platform.origin, ...ctx.platform.appOrigins]);
    await context.route(
      (url) => platformOrigins.has(url.origin),
      async (route) => {
        const response = await route.fetch({ maxRedirects: 0 }).catch((error: unknown) => {
          unanswered ??= (error instanceof Error ? error.message : String(error)).split('\n')[0];
        });
        if (!response) return route.abort();
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
    const [control, framed, unframed] = links;
    const foreignHost = (src: string) => hostPageFor(`${foreignOrigin}${hostPage.pathname}${hostPage.search}`, src);

    // The positive control: in the configured host the app renders. An app that renders nowhere would
    // otherwise "pass" both rules, having refused nothing.
    const home = await signOn(session, ctx.platform, control!.link, 'foreign-host-control');
    answered();
    if (home.screen !== 'app')
      return stopped({ blockedBy: { rule: linkAppShown.id, reason: `the app did not render even in the configured host (it showed ${home.screen})` } });

    await navigate(page, foreignHost(framed!.link));
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
    answered();
    await session.shoot('foreign-host-framed');

    // Take the frame-ancestors defence away, so only the message's target origin stands between them. The
    // wait for a message that must not come is three times what the configured host waited for it (the
    // positive control), and at least 2 s, unless the browser refused the message first.
    stripCsp = true;
    // The browser says so when it drops a message whose target origin is not the page's: the platform posted, to
    // the configured host only. That ends the wait; a platform that posts nothing here is given the window.
    const dropped = page
      .waitForEvent('console', { predicate: (message) => message.text().includes("does not match the recipient window's origin"), timeout: screenTimeoutMs })
      .catch(() => new Promise(() => undefined));
    await navigate(page, foreignHost(unframed!.link));
    const open = await observe(page, ctx.platform, { messageWaitMs: Math.max(2_000, 3 * (home.messageAfterMs ?? screenTimeoutMs)), refused: dropped });
    answered();
    await session.shoot('foreign-host-without-csp');
    const framing = evaluate(
      foreignHostCannotFrame,
      { framed: refused.screen, ...(blockedByBrowser ? {} : { document }), messages: refused.messages, vocabulary: refused.vocabulary, foreignOrigin },
      undefined,
    );
    // A frame that rendered nothing posted nothing: silence then proves nothing of the target origin.
    if (open.screen === 'none')
      return stopped(
        { notChecked: 'with its frame-ancestors taken off, the app still rendered nothing in the foreign host, so it had nothing to post' },
        framing,
      );
    return [
      ...framing,
      ...evaluate(messagesToHostOnly, { framed: open.screen, messages: open.messages, vocabulary: open.vocabulary, foreignOrigin }, undefined),
    ];
  },
);

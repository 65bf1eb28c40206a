import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { BrowserContext, Frame, FrameLocator, Locator, Page } from '@playwright/test';
import type { LocatorSpec } from '../profile/profile-schema';
import { type ReceivedMessage, type Screen, type Visit, messageType } from '../checks/sign-on-visit';
import { waitOn, wake, type FrameWaiters } from './frame-waiters';
import { codeIn, codeMarker } from '../checks/auth-url';
import type { Recorder } from '../client/http';
import { servedHostPath, type BrowserProbe, type BrowserProbeContext, type Platform } from './platform';
import { hostPageHtml } from '../html/host-page';
import { maskedEverywhere } from '../redaction/secrets';
import { judgedOf, type Judged, type Judgement, type MetOf, type Needs, type ProbeDetails, type Screenshot } from './probe';
import { hasPlatform } from './needs';
import { freshBrowsers } from './fresh-browsers';

/**
 * Sign-on in Chromium, the way a partner's user meets it: the host page (the stand-in for the partner's
 * app) frames the platform's auth URL, and the probe reads the screen the frame shows and the messages
 * the host receives. Each probe runs in a browser context of its own.
 */

export const screenTimeoutMs = 10_000;

export interface Session {
  context: BrowserContext;
  page: Page;
  screenshots: Screenshot[];
  /** A screenshot of the session's page, or of `page`. */
  shoot(name: string, page?: Page): Promise<void>;
  /**
   * A visit in a page of a browser context that holds nothing, no cookie of the session's or of another visit's:
   * as another person's browser opens a link (probes/fresh-browsers.ts). The session's own page, unused, is the
   * first such page: a probe that visits this way uses no other page of the session's.
   */
  inFreshBrowser<T>(visit: (page: Page) => Promise<T>): Promise<T>;
}

/** The values of a Set-Cookie header (one cookie a line): what later requests send back in "Cookie". */
const cookieValues = (header: string) =>
  header.split('\n').map((line) => {
    const pair = line.split(';')[0]!;
    return pair
      .slice(pair.indexOf('=') + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  });

/**
 * A browser context as every probe gets it: the platform's HTTP credentials, every session cookie and every code
 * on its way to the auth URL learnt as a secret, the harness's message listener, and its host page.
 */
async function preparedContext(ctx: BrowserProbeContext): Promise<BrowserContext> {
  const credentials = ctx.platform.httpCredentials;
  // Learnt before any request: a trace keeps the Authorization header the browser sends.
  if (credentials) ctx.learn?.([credentials.password, Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')]);
  const context = await ctx.browser.newContext({ viewport: { width: 900, height: 900 }, ...(credentials ? { httpCredentials: credentials } : {}) });
  // A session cookie is a credential that every later request of the trace carries: learnt as it is set. Not
  // a word-like value, though, which is no credential, and masking it would rewrite the report's own words.
  context.on(
    'response',
    (response) =>
      void response.headerValues('set-cookie').then(
        (cookies) => ctx.learn?.(cookies.flatMap(cookieValues).filter(maskedEverywhere)),
        () => undefined,
      ),
  );
  // A code on its way to the auth URL, which a page minted (the partner's app) and a partner may echo anywhere:
  // learnt before the request leaves, so before the platform can spend it.
  const authUrl = ctx.platform.codeUrl(codeMarker);
  await context.route(
    (url) => codeIn(url.href, authUrl) !== undefined,
    (route) => {
      ctx.learn?.([codeIn(route.request().url(), authUrl)!]);
      return route.fallback();
    },
  );
  await captureMessages(context);
  // Only its own path: the partner's app may live at the same origin.
  if (ctx.platform.servesHostPage) await serveHostPage(context, ctx.platform.hostOrigin, servedHostPath);
  return context;
}

/** A fresh browser context and page for one probe, traced when the context says where; closed whatever happens. */
export async function inBrowser(ctx: BrowserProbeContext, name: string, body: (session: Session) => Promise<Judgement>): Promise<Judged> {
  const context = await preparedContext(ctx);
  const others: BrowserContext[] = [];
  // Actions, DOM snapshots and network; not the screencast: each screen is a screenshot of its own.
  // Under --trace=on Playwright traces every context already, this one too, and refuses a second start.
  const file = ctx.traceDir && path.join(ctx.traceDir, `${encodeURIComponent(name)}-${randomUUID()}.zip`);
  const trace =
    file &&
    (await context.tracing.start({ title: name, snapshots: true, screenshots: false }).then(
      () => file,
      () => undefined,
    ));
  const page = await context.newPage();
  const screenshots: Screenshot[] = [];
  const shoot = async (shot: string, of = page) => void screenshots.push({ name: shot, png: await of.screenshot() });
  const inFreshBrowser = freshBrowsers(async () => {
    const other = await preparedContext(ctx);
    others.push(other);
    return other;
  }, page);
  try {
    const judged = judgedOf(await body({ context, page, screenshots, shoot, inFreshBrowser }));
    return { ...judged, screenshots, ...(trace ? { trace } : {}) };
  } finally {
    if (trace) await context.tracing.stop({ path: trace }).catch(() => undefined);
    await Promise.all([context, ...others].map((each) => each.close()));
  }
}

/** The host page at `origin` (at `path` only, when given), answered by the browser itself: nothing reaches that origin's server. */
export async function serveHostPage(context: BrowserContext, origin: string, path?: string): Promise<void> {
  await context.route(
    (url) => url.origin === origin && (path === undefined || url.pathname === path),
    (route) => {
      const src = new URL(route.request().url()).searchParams.get('src');
      return src && URL.canParse(src)
        ? route.fulfill({ contentType: 'text/html; charset=utf-8', body: hostPageHtml(src) })
        : route.fulfill({ status: 404, contentType: 'text/plain', body: 'the harness serves only its host page here' });
    },
  );
}

export const hostPageFor = (hostPageUrl: string, src: string) => {
  const url = new URL(hostPageUrl);
  url.searchParams.set('src', src);
  return url.href;
};

export const frameOf = (page: Page) => page.frameLocator('iframe').first();

/** A locator of the profile's, in the platform's frame (platform.screens) or the partner's page (partnerApp). */
export function locate(frame: Pick<FrameLocator, 'locator' | 'getByRole' | 'getByText' | 'getByTestId'>, spec: LocatorSpec): Locator {
  if (typeof spec === 'string') return frame.locator(spec);
  if ('role' in spec) return frame.getByRole(spec.role as Parameters<FrameLocator['getByRole']>[0], spec.name === undefined ? {} : { name: spec.name });
  if ('text' in spec) return frame.getByText(spec.text);
  return frame.getByTestId(spec.testId);
}

/** A screen that is there now: not one a form submission left behind (marked stale by fillCollection). */
const fresh = (frame: FrameLocator, spec: LocatorSpec) => locate(frame, spec).and(frame.locator(':not([data-stale])'));

/** The message a screen posts, by its kind in the platform's vocabulary. */
const messageOfScreen: Partial<Record<Screen, 'ready' | 'error'>> = { app: 'ready', error: 'error' };

/**
 * The messages each window received since it last loaded a document: every frame of a context runs a
 * listener of the harness's own (the context's init script), which hands each message to the harness as it
 * arrives, whatever the page does with it. A page's host is its top window; a frame can be a host too (the
 * partner's page framed by another).
 */
const received = new WeakMap<Frame, ReceivedMessage[]>();
/** Whoever waits on a window's messages, woken as each arrives. */
const listening: FrameWaiters = new WeakMap();
/**
 * The listener takes the binding and removes it from the window before any script of the page runs, under a
 * name the page cannot know: a page cannot hand the harness a message of its own making as the platform's.
 */
const listener = (binding: string) => `(() => {
  const send = window[${JSON.stringify(binding)}];
  delete window[${JSON.stringify(binding)}];
  addEventListener('message', (event) => {
    let data;
    try { data = JSON.parse(JSON.stringify(event.data)); } catch { data = String(event.data); }
    try { send({ origin: event.origin, data }); } catch {}
  }, true);
})();`;

async function captureMessages(context: BrowserContext): Promise<void> {
  const binding = `__certify_${randomUUID().replaceAll('-', '')}`;
  await context.exposeBinding(binding, ({ frame }, message: ReceivedMessage) => {
    const messages = received.get(frame);
    if (messages) messages.push(message);
    else received.set(frame, [message]);
    wake(listening, frame);
  });
  await context.addInitScript(listener(binding));
  context.on('page', (page) => page.on('framenavigated', (frame) => received.set(frame, [])));
}

/**
 * What the frame shows, once a screen is there (a screen left behind by a form submission does not
 * count), and the messages the host received: for a screen that posts one (the app, the error screen),
 * until that message arrives or `messageWaitMs` ran out, so an app that posts after a fetch of its own is
 * heard; for another screen, what came by then.
 */
export async function observe(
  page: Page,
  platform: Platform,
  {
    waitMs = screenTimeoutMs,
    messageWaitMs = screenTimeoutMs,
    frame = frameOf(page),
    host = page.mainFrame(),
    refused,
  }: {
    waitMs?: number;
    messageWaitMs?: number;
    frame?: FrameLocator;
    host?: Frame;
    /** Settles when the browser refused to deliver the screen's message to `host`: the message is not coming. */
    refused?: Promise<unknown>;
  } = {},
): Promise<Visit> {
  const screens = (['app', 'error', 'collect'] as const).map((name) => ({ name, locator: fresh(frame, platform.screens[name]) }));
  await Promise.race([
    screens
      .map(({ locator }) => locator)
      .reduce((any, locator) => any.or(locator))
      .first()
      .waitFor({ timeout: waitMs })
      .catch(() => undefined),
    refusedByBrowser(frame, waitMs),
  ]);
  const shown = (await Promise.all(screens.map(async (candidate) => ((await candidate.locator.count()) > 0 ? candidate : undefined)))).find(Boolean);
  const screen: Screen = shown?.name ?? 'none';
  const text = shown ? await shown.locator.first().innerText() : '';
  const kind = messageOfScreen[screen];
  const awaited = kind && platform.messages[kind];
  const messages = () => received.get(host) ?? [];
  const arrived = () => awaited !== undefined && messages().some((message) => messageType(message, platform.messages) === awaited);
  const started = Date.now();
  if (awaited) await until(host, arrived, messageWaitMs, refused);
  return {
    screen,
    text,
    messages: [...messages()],
    platformOrigins: platform.appOrigins,
    vocabulary: platform.messages,
    ...(arrived() ? { messageAfterMs: Date.now() - started } : {}),
  };
}

/** Resolves once `done()` holds, checked as each message reaches `host`, once `given` settles, or when `timeoutMs` ran out. */
const until = (host: Frame, done: () => boolean, timeoutMs: number, given?: Promise<unknown>) => waitOn(listening, host, done, timeoutMs, given);

/** Resolves once the messages `host` received satisfy `enough`, or after `timeoutMs`: whether they did. */
export const heard = (host: Frame, enough: (messages: readonly ReceivedMessage[]) => boolean, timeoutMs: number) =>
  until(host, () => enough(received.get(host) ?? []), timeoutMs).then(() => enough(received.get(host) ?? []));

/**
 * Resolves once the browser put its own error page in the frame, having refused the platform there (the page's
 * CSP or sandbox, the platform's frame-ancestors): no screen of the platform's can come. Otherwise after `timeoutMs`.
 */
async function refusedByBrowser(frame: FrameLocator, timeoutMs: number): Promise<void> {
  const inner = await frame
    .owner()
    .elementHandle({ timeout: timeoutMs })
    .then((element) => element.contentFrame())
    .catch(() => null);
  if (!inner) return new Promise(() => undefined); // no frame to read: the screens' own wait decides
  await inner.waitForURL((url) => url.protocol === 'chrome-error:', { timeout: timeoutMs, waitUntil: 'commit' }).catch(() => undefined);
}

/** A probe in a browser context of its own (`inBrowser`), once the platform and what its `needs` got are there. */
export const browserProbe = <N extends Needs<BrowserProbeContext> = Record<never, never>>(
  spec: ProbeDetails & { needs?: N },
  body: (ctx: BrowserProbeContext, session: Session, http: Recorder, met: MetOf<N>) => Promise<Judgement>,
): BrowserProbe => ({
  ...spec,
  kind: 'browser',
  profileNeeds: [hasPlatform, ...(spec.profileNeeds ?? [])],
  run: (ctx, met, http) => inBrowser(ctx, spec.id, (session) => body(ctx, session, http, met as MetOf<N>)),
});

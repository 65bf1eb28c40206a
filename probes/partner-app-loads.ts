import type { BrowserContext, Frame, Locator, Page } from '@playwright/test';
import { codeIn, codeMarker } from '../checks/auth-url';
import type { EmbedLoad } from '../checks/partner-app-embedding';
import { received, type Visit } from '../checks/sign-on-visit';
import { observe, screenTimeoutMs } from './browser-session';
import { observeSignedOn } from './collection-screen';
import type { BrowserProbeContext } from './platform';

/**
 * What the browser itself saw of each load of the partner's page, never what the page says of itself: every
 * navigation of every frame, redirects included, and the headers of each page's own document.
 */
export interface LoadWatch {
  /** A mark: navigations from here on belong to the next load. */
  mark(): number;
  /** The addresses `frame` was navigated to since `mark`, in order. */
  navigations(frame: Frame | null, since: number): string[];
  /** The response headers of the document `page` holds; undefined when the browser reported none. */
  headers(page: Page): Record<string, string> | undefined;
}

export function watchLoads(context: BrowserContext): LoadWatch {
  const log: { frame: Frame; url: string }[] = [];
  const headers = new WeakMap<Frame, Record<string, string>>();
  // A popup's first document is requested before its frame exists: its headers are kept by its address.
  const unattached = new Map<string, Record<string, string>>();
  context.on('request', (request) => {
    if (!request.isNavigationRequest()) return;
    try {
      log.push({ frame: request.frame(), url: request.url() });
    } catch {
      // A service worker's request has no frame: no document of a page.
    }
  });
  context.on('response', (response) => {
    const request = response.request();
    if (!request.isNavigationRequest()) return;
    try {
      const frame = request.frame();
      if (frame.parentFrame() === null) headers.set(frame, response.headers());
    } catch {
      unattached.set(response.url(), response.headers());
    }
  });
  return {
    mark: () => log.length,
    navigations: (frame, since) =>
      frame
        ? log
            .slice(since)
            .filter((entry) => entry.frame === frame)
            .map((entry) => entry.url)
        : [],
    headers: (page) => headers.get(page.mainFrame()) ?? unattached.get(page.url()),
  };
}

/** The frame's attributes and the page's policies, as the page holds them now. */
async function attributes(page: Page, element: Locator) {
  await element.waitFor({ state: 'attached', timeout: screenTimeoutMs }).catch(() => undefined);
  const read = (name: string) => element.getAttribute(name, { timeout: 1_000 }).catch(() => null);
  // A <meta> policy is enforced beside the header's (CSP3 §3.3): each is one more policy to satisfy.
  const metaCsp = await page
    .locator('meta[http-equiv="content-security-policy" i]')
    .evaluateAll((tags) => tags.map((tag) => tag.getAttribute('content') ?? ''))
    .catch(() => []);
  return { src: (await read('src')) ?? undefined, srcdoc: (await read('srcdoc')) !== null, sandbox: await read('sandbox'), metaCsp };
}

/**
 * The platform's screen in the page's frame once it settled, after its collection screen where it comes (spec
 * §7.2: the user completes the missing data); a form that could not be filled leaves the screen it left.
 */
async function settle(ctx: BrowserProbeContext, page: Page, element: Locator, srcdoc: boolean): Promise<Visit> {
  const frame = element.contentFrame();
  // A document the page wrote itself (srcdoc wins over src) is not the platform's: no message of the platform's can come from it.
  const wait = srcdoc ? { messageWaitMs: 0 } : {};
  return observeSignedOn(page, ctx.platform, { frame, ...wait }).catch(() => observe(page, ctx.platform, { frame, ...wait }));
}

/** The page's CSP header; without the document's response, a load whose policies were not read. */
const policiesOf = (headers: Record<string, string> | undefined): Pick<EmbedLoad, 'csp' | 'headersUnseen'> =>
  headers ? { csp: headers['content-security-policy'] } : { csp: undefined, headersUnseen: true };

/** Whether the profile states the platform's messages (or the platform is ours): only then is its ready message required. */
const readyExpected = (ctx: BrowserProbeContext) => ctx.profile.platform?.messages !== undefined || ctx.platform.kind === 'emulator';

/**
 * One load of the partner's page, judged as the browser saw it: the frame's address, attributes and policies,
 * the document it held and how it got there, and the platform's screen and message. Every code the page put in
 * its frame's address is learnt, whether or not the browser requested it.
 */
export async function readLoad(
  ctx: BrowserProbeContext,
  watch: LoadWatch,
  { page, element, n, purpose, since }: { page: Page; element: Locator; n: number; purpose: EmbedLoad['purpose']; since: number },
): Promise<{ load: EmbedLoad; visit: Visit }> {
  const authUrl = ctx.platform.codeUrl(codeMarker);
  const seen = await attributes(page, element);
  const code = codeIn(seen.src, authUrl);
  if (code) ctx.learn?.([code]);
  const visit = await settle(ctx, page, element, seen.srcdoc);
  const frame = await element.elementHandle({ timeout: screenTimeoutMs }).then(
    (handle) => handle.contentFrame(),
    () => null,
  );
  const navigations = watch.navigations(frame, since);
  ctx.learn?.(navigations.map((url) => codeIn(url, authUrl)).filter((value): value is string => value !== undefined));
  const load: EmbedLoad = {
    n,
    purpose,
    ...seen,
    ...policiesOf(watch.headers(page)),
    ...(frame ? { document: frame.url() } : { frameUnread: true }),
    navigations,
    screen: visit.screen,
    text: visit.text,
    ...(readyExpected(ctx) && visit.screen === 'app' ? { ready: received(visit, 'ready').length > 0 } : {}),
  };
  return { load, visit };
}

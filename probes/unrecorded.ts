import type { CDPSession, Page } from '@playwright/test';

/**
 * Browser actions whose arguments must not reach Playwright's results. Playwright records every API call a
 * test makes as a step with its arguments (`Fill "<value>"`, `Navigate <url>`), which every reporter prints
 * or stores: a typed password, a sign-on link's code, a mock link's JWT. These go through the page's
 * Chrome DevTools Protocol session instead, whose commands Playwright records by name only ("Send CDP
 * command"), so the secret never leaves the worker, whatever reporters run. Chromium only: another browser
 * takes Playwright's own calls, whose steps then carry the value.
 */

const sessions = new WeakMap<Page, Promise<CDPSession>>();

function sessionOf(page: Page): Promise<CDPSession> | undefined {
  if (page.context().browser()?.browserType().name() !== 'chromium') return undefined;
  let session = sessions.get(page);
  if (!session) {
    // The Page domain's events (a navigation's load) reach a session only once it is enabled.
    session = page
      .context()
      .newCDPSession(page)
      .then(async (opened) => {
        await opened.send('Page.enable');
        await opened.send('Page.setLifecycleEventsEnabled', { enabled: true });
        return opened;
      });
    sessions.set(page, session);
  }
  return session;
}

/**
 * `page.goto(url)`: navigates, and waits for the load event of that navigation (its loader, followed through
 * server redirects), as goto does; a navigation the browser refused throws, naming why.
 */
export async function navigate(page: Page, url: string, timeoutMs = 30_000): Promise<void> {
  const pending = sessionOf(page);
  if (!pending) {
    await page.goto(url);
    return;
  }
  const session = await pending;
  const loaded = new Set<string>();
  let waiting: { loaderId: string; resolve: () => void } | undefined;
  const onLifecycle = ({ name, loaderId }: { name: string; loaderId: string }) => {
    if (name !== 'load') return;
    loaded.add(loaderId);
    if (waiting?.loaderId === loaderId) waiting.resolve();
  };
  session.on('Page.lifecycleEvent', onLifecycle);
  try {
    const { loaderId, errorText } = (await session.send('Page.navigate', { url })) as { loaderId?: string; errorText?: string };
    if (errorText) throw new Error(`navigating to ${url}: ${errorText}`);
    if (!loaderId || loaded.has(loaderId)) return; // a same-document navigation, or loaded already
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve, reject) => {
      waiting = { loaderId, resolve };
      timer = setTimeout(() => reject(new Error(`navigating to ${url}: the page did not load within ${timeoutMs / 1000} s`)), timeoutMs);
    }).finally(() => clearTimeout(timer));
  } finally {
    session.off('Page.lifecycleEvent', onLifecycle);
  }
}

/** `page.fill(selector, value)`: the field cleared and focused as Playwright fills it, then the value inserted as typed text. */
export async function fillField(page: Page, selector: string, value: string, options: { timeout?: number } = {}): Promise<void> {
  const session = sessionOf(page);
  if (!session) {
    await page.fill(selector, value, options);
    return;
  }
  await page.fill(selector, '', options);
  await (await session).send('Input.insertText', { text: value });
}

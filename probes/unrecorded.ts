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
    session = page.context().newCDPSession(page);
    sessions.set(page, session);
  }
  return session;
}

/** `page.goto(url)`: navigates and waits for the page's load event; a navigation the browser refused throws, naming why. */
export async function navigate(page: Page, url: string): Promise<void> {
  const session = sessionOf(page);
  if (!session) {
    await page.goto(url);
    return;
  }
  const loaded = page.waitForEvent('load');
  const { errorText } = (await (await session).send('Page.navigate', { url })) as { errorText?: string };
  if (errorText) {
    loaded.catch(() => {}); // the page will not load: only the refusal counts
    throw new Error(`navigating to ${url}: ${errorText}`);
  }
  await loaded;
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

import { expect, test, type Browser, type BrowserContext, type Page, type Route } from '@playwright/test';
import { freshBrowsers } from '../../probes/fresh-browsers';

/**
 * A page is used for the next visit only while its context holds nothing a visit could have left
 * (probes/fresh-browsers.ts): each thing a platform may keep a session in, left by a visit, makes the next
 * visit's page a new one in a new context; a visit that leaves nothing (the positive control) keeps its page.
 */

// localhost, a secure context (Cache Storage needs one); nothing listens there, the browser answers. The platform
// is framed by another site, as a host page frames it: what it keeps there is partitioned by the top site.
const origin = 'http://localhost:9';
const framed = 'http://127.0.0.1:9';

/** A context whose pages at `origin` run `script` (a visit's platform), served by the browser itself. */
const contextOf = (browser: Browser, opened: BrowserContext[]) => async () => {
  const context = await browser.newContext();
  opened.push(context);
  const page = (route: Route) => {
    const script = new URL(route.request().url()).searchParams.get('script') ?? '';
    return route.fulfill({ contentType: 'text/html', body: `<!doctype html><p>visit</p><script>${script}</script>` });
  };
  await context.route(`${origin}/**`, page);
  await context.route(`${framed}/**`, page);
  return context;
};

/** A top-page script that frames `script` at the other site (loaded before the top page's load event, which goto waits for). */
const inFrame = (script: string) =>
  `document.body.append(Object.assign(document.createElement('iframe'), { src: '${framed}/?script=' + ${JSON.stringify(encodeURIComponent(script))} }))`;

const leaves: Record<string, string> = {
  'a cookie': `document.cookie = 'session=1; path=/'`,
  'local storage': `localStorage.setItem('session', '1')`,
  IndexedDB: `indexedDB.open('session')`,
  'Cache Storage': `caches.open('session')`,
  // Kept under the top site's partition: read by the frame's storage key, not its origin's.
  'a partitioned cookie, in a frame of another site': inFrame(`document.cookie = 'session=1; SameSite=None; Secure; Partitioned; path=/'`),
  'local storage, in a frame of another site': inFrame(`localStorage.setItem('session', '1')`),
};

/** Two visits, the first running `script`: whether the second had the first one's page. */
async function samePage(browser: Browser, script: string): Promise<boolean> {
  const opened: BrowserContext[] = [];
  const visit = freshBrowsers(contextOf(browser, opened));
  const pages: Page[] = [];
  try {
    for (const each of [script, '']) {
      await visit(async (page) => {
        pages.push(page);
        await page.goto(`${origin}/?script=${encodeURIComponent(`${each}; document.title = 'done'`)}`);
        // What the script left, it left by the time the page said so: IndexedDB and Cache Storage open asynchronously.
        await expect(page).toHaveTitle('done');
        await page.waitForFunction(() => new Promise((settle) => setTimeout(() => settle(true), 0)));
      });
    }
    return pages[0] === pages[1];
  } finally {
    await Promise.all(opened.map((context) => context.close()));
  }
}

test('a visit that leaves nothing hands its page to the next visit (the control), also with a frame of another site', async ({ browser }) => {
  expect(await samePage(browser, '')).toBe(true);
  expect(await samePage(browser, inFrame(''))).toBe(true);
});

for (const [what, script] of Object.entries(leaves)) {
  test(`a visit that leaves ${what} is not followed in its browser: the next visit gets a new context`, async ({ browser }) => {
    expect(await samePage(browser, script)).toBe(false);
  });
}

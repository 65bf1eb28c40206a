import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import { limited } from './codes';
import { navigate } from './unrecorded';

/**
 * Visits each made as a browser of its own makes them (a forged or a spent link, opened by whoever holds it):
 * nothing another visit left, a session cookie above all, may show through. A new browser context and page a
 * visit cost a renderer process each, and Playwright's scripts compiled again in it: a fifth of the tampered-link
 * probe's CPU (docs/PERFORMANCE.md). So a page is used again, one visit at a time, for as long as its context
 * holds nothing: after each visit the page's scripts are stopped and it goes to about:blank, and it is kept
 * only if the context has no cookie and no service worker, and no storage of the visit's frames has local
 * storage, IndexedDB or Cache Storage (`endedClean`); anything unreadable counts as held. A visit that left
 * anything leaves its page and context out; the next visit gets fresh ones.
 */

/**
 * At most this many visits at once: the pages a probe holds, whatever its number of visits. On 2 cores, in the full
 * Chromium, three at once ended the tampered links sooner than five (3.3 s against 3.9–4.4 s, 6.4 against 7.5–8.5
 * CPU-s): the visits wait on the CPU, not on the platform, and each page a visit did not need is a renderer process
 * less. In the headless shell, one at a time against three is within the noise (2.7–3.4 against 3.0–3.8 CPU-s).
 */
const visitsAtOnce = 3;

/** The origin of a document at `url` that can keep anything (http or https), or undefined (about:blank, srcdoc, data:). */
const webOrigin = (url: string) => (/^https?:/.test(url) && URL.canParse(url) ? new URL(url).origin : undefined);

interface FrameTree {
  frame: { id: string; url: string };
  childFrames?: FrameTree[];
}
const framesOf = (tree: FrameTree): FrameTree['frame'][] => [tree.frame, ...(tree.childFrames ?? []).flatMap(framesOf)];

/**
 * Whether the storage a frame's document uses holds anything: read by the frame's storage key, which a frame of
 * another site than the top's has partitioned by the top site (its origin's own storage is another).
 */
async function heldBy(cdp: CDPSession, frameId: string): Promise<boolean> {
  const { storageKey } = await cdp.send('Storage.getStorageKeyForFrame', { frameId });
  const [{ entries }, { databaseNames }, { caches }] = await Promise.all([
    cdp.send('DOMStorage.getDOMStorageItems', { storageId: { storageKey, isLocalStorage: true } }),
    cdp.send('IndexedDB.requestDatabaseNames', { storageKey }),
    cdp.send('CacheStorage.requestCacheNames', { storageKey }),
  ]);
  return entries.length > 0 || databaseNames.length > 0 || caches.length > 0;
}

/**
 * Ends a visit: its scripts stopped first, so nothing is written after it is read; each frame's storage read for
 * local storage, IndexedDB and Cache Storage, and an origin the visit's frames were at but none is any more
 * counted as held (its storage cannot be named); the page taken to about:blank, then the context read for cookies
 * (partitioned ones too) and service workers. Whether the page's context holds nothing, so the page may serve
 * another visit.
 */
export async function endedClean(page: Page, origins: ReadonlySet<string>): Promise<boolean> {
  const context = page.context();
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
    const frames = framesOf((await cdp.send('Page.getFrameTree')).frameTree).filter((frame) => webOrigin(frame.url) !== undefined);
    const present = new Set(frames.map((frame) => webOrigin(frame.url)));
    const held =
      [...origins].some((origin) => !present.has(origin)) || (await Promise.all(frames.map((frame) => heldBy(cdp, frame.id).catch(() => true)))).some(Boolean);
    await navigate(page, 'about:blank');
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: false });
    return !held && context.serviceWorkers().length === 0 && (await context.cookies()).length === 0;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * Runs each visit in a page whose context holds nothing: `unused` (a page of a context nothing has run in yet),
 * one a visit left clean, or a new one of a context `open` makes.
 */
export function freshBrowsers(open: () => Promise<BrowserContext>, unused?: Page) {
  const idle: Page[] = unused ? [unused] : [];
  const slot = limited(visitsAtOnce);
  return <T>(visit: (page: Page) => Promise<T>): Promise<T> =>
    slot(async () => {
      const page = idle.pop() ?? (await (await open()).newPage());
      const origins = new Set<string>();
      const record = (frame: { url(): string }) => {
        const origin = webOrigin(frame.url());
        if (origin) origins.add(origin);
      };
      page.on('framenavigated', record);
      try {
        return await visit(page);
      } finally {
        page.off('framenavigated', record);
        const clean = await endedClean(page, origins).catch(() => false);
        if (clean) idle.push(page);
        else await page.close().catch(() => undefined);
      }
    });
}

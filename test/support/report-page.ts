import type { Page } from '@playwright/test';

/** certification.html as a reader meets it: its first screen, its length and its in-page links, measured in the browser. */

export const firstScreen = { width: 1280, height: 800 };

/** Every `href="#…"` of the page, in order, and those that name no element's id. */
export async function inPageLinks(page: Page): Promise<{ hrefs: string[]; unresolved: string[] }> {
  return page.evaluate(() => {
    const hrefs = [...document.querySelectorAll('a[href^="#"]')].map((a) => a.getAttribute('href')!);
    return { hrefs, unresolved: hrefs.filter((href) => document.getElementById(decodeURIComponent(href.slice(1))) === null) };
  });
}

/**
 * Follows each distinct in-page link as a click would (the fragment navigation opens a folded <details> around
 * its target), and returns those whose target did not end up shown in the viewport.
 */
export async function linksNotLanding(page: Page, hrefs: readonly string[]): Promise<string[]> {
  const missed: string[] = [];
  for (const href of new Set(hrefs)) {
    const landed = await page.evaluate(async (hash) => {
      location.hash = hash;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      // Scrolled to, a target's top is 0 give or take a fraction of a pixel.
      const box = document.getElementById(decodeURIComponent(hash.slice(1)))?.getBoundingClientRect();
      return box !== undefined && box.height > 0 && box.top > -1 && box.top < innerHeight;
    }, href);
    if (!landed) missed.push(href);
  }
  return missed;
}

/** Where `selector`'s first element sits on the page, scrolled to the top: px from the page's top. */
export async function boxOnPage(page: Page, selector: string): Promise<{ top: number; bottom: number }> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const box = element.getBoundingClientRect();
      return { top: Math.round(box.top + scrollY), bottom: Math.round(box.bottom + scrollY) };
    });
}

export const pageHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

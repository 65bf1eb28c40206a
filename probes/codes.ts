import { open } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { bodyPreview, isObject, parseJson } from '../checks/evidence';
import type { BrowserCodes, Profile } from '../partners/profile';
import type { HttpClient } from './http';

/** Hands out fresh one-time authorization codes. */
export interface CodeSource {
  next(): Promise<string>;
  close?(): Promise<void>;
}

/** The harness could not get a code: a set-up problem, reported as such rather than as a partner failure. */
export class CodeSourceError extends Error {
  override name = 'CodeSourceError';
}

/**
 * `"codes": {"mintUrl": …}`: a POST with no body answers `{"code": "…"}`. One code is always minted
 * ahead, so a test does not wait a round trip to the partner before its first call (a worker ends with
 * one code unused).
 */
export function mintedCodes(mintUrl: string, http: HttpClient): CodeSource {
  const mint = async () => {
    const { response, failure } = await http.send({ method: 'POST', url: mintUrl, headers: { accept: 'application/json' } });
    const problem = (what: string) => new CodeSourceError(`"codes.mintUrl" ${what}; it should answer 200 with {"code": "…"}`);
    if (failure) throw problem(`gave no usable answer: ${failure.message}`);
    if (!response || response.status < 200 || response.status > 299) throw problem(`answered ${response?.status} ${bodyPreview(response?.body ?? '')}`);
    const json = parseJson(response.body);
    const code = json.ok && isObject(json.value) ? json.value.code : undefined;
    if (typeof code !== 'string' || code === '') throw problem(`answered ${bodyPreview(response.body)} without a "code" string`);
    return code;
  };
  let ahead: Promise<string> | undefined;
  return {
    next() {
      const code = ahead ?? mint();
      ahead = mint();
      ahead.catch(() => {}); // a failed mint surfaces when its code is asked for, not as an unhandled rejection
      return code;
    },
  };
}

/**
 * `"codes": {"static": […]}`: codes handed over by the partner, each used once. Workers run in parallel
 * processes, so a code is claimed by creating a marker file exclusively (`wx`): exactly one process wins.
 */
export function staticCodes(codes: readonly string[], claimDir: string, needed: number): CodeSource {
  mkdirSync(claimDir, { recursive: true });
  return {
    async next() {
      for (const [index, code] of codes.entries()) {
        try {
          await (await open(path.join(claimDir, `code-${index}`), 'wx')).close();
          return code;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
      }
      throw new CodeSourceError(
        `"codes.static" ran out: it holds ${codes.length} codes and this run needs ${needed}; ask the partner for ${needed} fresh codes`,
      );
    },
  };
}

/**
 * `"codes": {"browser": …}`: log in to the partner's own app and capture the code when the app sends the
 * user to the platform's auth URL. The navigation is aborted there, so it never leaves the machine.
 */
export function browserCodes(config: BrowserCodes, launch: () => Promise<Browser>): CodeSource {
  let browser: Promise<Browser> | undefined;
  return {
    async next() {
      browser ??= launch();
      const context = await (await browser).newContext();
      try {
        let capture!: (url: string) => void;
        const captured = new Promise<string>((resolve) => (capture = resolve));
        const isAuthUrl = (url: string) => url.startsWith(config.authUrl);
        // A route sees only the first request of a redirect chain, and the code usually arrives in a
        // redirect. So navigations are fetched here without following redirects, and a Location that
        // points at the auth URL is captured instead of followed.
        await context.route('**/*', async (route) => {
          const request = route.request();
          if (isAuthUrl(request.url())) {
            capture(request.url());
            return route.abort('aborted');
          }
          if (!request.isNavigationRequest()) return route.continue();
          const response = await route.fetch({ maxRedirects: 0 });
          const location = response.headers().location;
          const target = location === undefined ? undefined : new URL(location, request.url()).href;
          if (target !== undefined && response.status() >= 300 && response.status() < 400 && isAuthUrl(target)) {
            capture(target);
            return route.abort('aborted');
          }
          return route.fulfill({ response });
        });
        const page = await context.newPage();
        page.setDefaultTimeout(config.timeoutMs);
        const login = (async () => {
          for (const step of config.steps) {
            if ('goto' in step) await page.goto(step.goto);
            else if ('fill' in step) await page.fill(step.fill, step.value);
            else await page.click(step.click);
          }
        })();
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new CodeSourceError(`"codes.browser": the app did not navigate to "authUrl" (${config.authUrl}) within ${config.timeoutMs} ms of the login steps`)),
            config.timeoutMs,
          );
        });
        // The last click usually triggers the navigation we abort, so a step error after a capture is moot.
        const url = await Promise.race([captured, timeout, login.then(() => captured)]).finally(() => clearTimeout(timer));
        const code = new URL(url).searchParams.get('code');
        if (!code) throw new CodeSourceError(`"codes.browser": the app navigated to ${new URL(url).origin}${new URL(url).pathname} without a "code" parameter`);
        return code;
      } catch (error) {
        if (error instanceof CodeSourceError) throw error;
        throw new CodeSourceError(`"codes.browser": a login step failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      } finally {
        await context.close();
      }
    },
    async close() {
      if (browser) await (await browser).close();
    },
  };
}

/** The code source a profile names. `launch` is called only by the browser source, on first use. */
export function codeSourceFor(
  profile: Profile,
  deps: { http: HttpClient; claimDir: string; needed: number; launch: () => Promise<Browser> },
): CodeSource {
  const { mintUrl, static: handed, browser } = profile.codes;
  if (mintUrl) return mintedCodes(mintUrl, deps.http);
  if (handed) return staticCodes(handed, deps.claimDir, deps.needed);
  return browserCodes(browser!, deps.launch);
}

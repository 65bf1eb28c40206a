import { open } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { BrowserCodes, Profile } from '../profile/profile-schema';
import type { HttpClient } from '../client/http';
import type { CodeReceived, CodeSource } from './code-source';
import { mintedCodes } from './minted-codes';
import { isSetupError, SetupError } from '../client/setup-error';
import { fillField, navigate } from './unrecorded';

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
      throw new SetupError(
        'code-source',
        `"codes.static" ran out: it holds ${codes.length} codes and this run needs ${needed}; ask the partner for ${needed} fresh codes`,
      );
    },
  };
}

type BrowserStep = BrowserCodes['steps'][number];

/** Runs one step of a scripted login ("codes.browser", "partnerApp.login"); `timeoutMs` bounds a fill or a click. */
export async function runStep(page: Page, step: BrowserStep, timeoutMs?: number): Promise<void> {
  const options = timeoutMs === undefined ? {} : { timeout: timeoutMs };
  // Through the unrecorded actions: a step's URL or typed value may be a secret (an env: value).
  if ('goto' in step) await navigate(page, step.goto);
  else if ('fill' in step) await fillField(page, step.fill, step.value, options);
  else await page.click(step.click, options);
}

/** A step of a scripted login, named for messages by its kind and selector; a typed value is never shown. */
export const describeStep = (step: BrowserStep, index: number, count: number) => {
  const what =
    'goto' in step
      ? `{"goto": ${JSON.stringify(new URL(step.goto).origin + new URL(step.goto).pathname)}}`
      : 'fill' in step
        ? `{"fill": ${JSON.stringify(step.fill)}}`
        : `{"click": ${JSON.stringify(step.click)}}`;
  return `step ${index + 1} of ${count} (${what})`;
};

const sameEndpoint = (url: string, authUrl: URL) => {
  if (!URL.canParse(url)) return false;
  const seen = new URL(url);
  return seen.origin === authUrl.origin && seen.pathname === authUrl.pathname;
};

interface RequestPaused {
  requestId: string;
  request: { url: string };
}

/**
 * At most this many logins at once. The probes ask for their codes together, and each login is a page
 * of its own: fifteen at once on a loaded 2-core machine left logins short of their 30 s; nor is the
 * partner's login page there to be load-tested.
 */
const concurrentLogins = 4;

/** Runs at most `limit` of the tasks given at once, the others in the order they came. */
export function limited(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((start) => waiting.push(start));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * `"codes": {"browser": …}`: log in to the partner's own app and capture the code when the app sends the
 * user to the platform's auth URL, after any number of hops: 302, 303 and 307 redirects, a form POST
 * followed by redirects, a meta refresh, `location.href` set by script. Playwright's routes see only the
 * first request of a redirect chain, so the page's requests are paused at the CDP Fetch domain, which
 * pauses every hop; the request to the auth URL is failed there, so it never leaves the machine.
 */
export function browserCodes(config: BrowserCodes, launch: () => Promise<Browser>, received: CodeReceived = () => {}): CodeSource {
  let browser: Promise<Browser> | undefined;
  const authUrl = new URL(config.authUrl);
  const slot = limited(concurrentLogins);
  // Each code's captured address: the platform is opened with it as the partner's app sends it, not rebuilt.
  const addresses = new Map<string, string>();
  return {
    addressOf: (code) => addresses.get(code),
    next: () =>
      slot(async () => {
        browser ??= launch();
        const context = await (await browser).newContext();
        let page: Page | undefined;
        try {
          let capture!: (url: string) => void;
          const captured = new Promise<string>((resolve) => (capture = resolve));
          page = await context.newPage();
          const cdp = await context.newCDPSession(page);
          cdp.on('Fetch.requestPaused', ({ requestId, request }: RequestPaused) => {
            const toPlatform = sameEndpoint(request.url, authUrl);
            if (toPlatform) capture(request.url);
            // The page may be gone by the time a late request is answered; nothing is owed to it then.
            const answered = toPlatform
              ? cdp.send('Fetch.failRequest', { requestId, errorReason: 'Aborted' })
              : cdp.send('Fetch.continueRequest', { requestId });
            answered.catch(() => {});
          });
          await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
          page.setDefaultTimeout(config.timeoutMs);
          const steps = config.steps;
          let current = 0;
          const login = (async () => {
            for (const [index, step] of steps.entries()) {
              current = index;
              await runStep(page, step);
            }
            current = steps.length;
          })();
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              const where = current < steps.length ? `; it was at ${describeStep(steps[current]!, current, steps.length)}` : `; all ${steps.length} steps ran`;
              reject(
                new SetupError(
                  'code-source',
                  `"codes.browser": the app did not navigate to "authUrl" (${config.authUrl}) within ${config.timeoutMs} ms of the login steps${where}`,
                ),
              );
            }, config.timeoutMs);
          });
          // The step that triggers the navigation we abort usually fails for it: after a capture, that is moot.
          const failedStep = login.catch((error: unknown) => {
            throw new SetupError(
              'code-source',
              `"codes.browser": ${describeStep(steps[current]!, current, steps.length)} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
            );
          });
          const url = await Promise.race([captured, timeout, failedStep.then(() => captured)]).finally(() => clearTimeout(timer));
          const query = new URL(url).searchParams;
          const code = query.get('code');
          if (code) {
            received(code);
            addresses.set(code, url);
            return code;
          }
          // An authorization server that refuses sends its RFC 6749 §4.1.2.1 error to the same place: quote it.
          const error = query.get('error');
          const said =
            error === null
              ? ''
              : ` with "error": ${JSON.stringify(error)}${query.has('error_description') ? `, "error_description": ${JSON.stringify(query.get('error_description')!.slice(0, 200))}` : ''}`;
          throw new SetupError('code-source', `"codes.browser": the app navigated to ${authUrl.origin}${authUrl.pathname}${said} without a "code" parameter`);
        } catch (error) {
          const failure = isSetupError(error, 'code-source')
            ? error
            : new SetupError('code-source', `"codes.browser": ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
          // What the login page showed when it went wrong, for the test to attach.
          failure.screenshot = await page?.screenshot().catch(() => undefined);
          throw failure;
        } finally {
          await context.close();
        }
      }),
    async close() {
      if (browser) await (await browser).close();
    },
  };
}

/** The code source a profile names. `launch` is called only by the browser source, on first use. */
export function codeSourceFor(
  profile: Profile,
  deps: { http: HttpClient; claimDir: string; needed: number; launch: () => Promise<Browser>; received?: CodeReceived },
): CodeSource {
  const { mintUrl, static: handed, browser } = profile.codes;
  if (mintUrl) return mintedCodes(mintUrl, deps.http, deps.received ? { received: deps.received } : {});
  if (handed) return staticCodes(handed, deps.claimDir, deps.needed);
  return browserCodes(browser!, deps.launch, deps.received);
}

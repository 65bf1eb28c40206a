import type { BrowserContext, Frame, Locator, Page } from '@playwright/test';
import { channelNames, type Channel, type ChannelResult } from '../checks/partner-app-messages';
import { html } from '../html/template';

/**
 * The senders of forged messages: pages the browser itself answers (nothing reaches a server at their
 * origins), at origins a listener may take for the platform's. Each posts when the probe tells it to, through
 * one channel a page can receive from.
 */

const senderPath = '/certify-message-sender';
const senderTitle = 'certify message sender';
/** A plain foreign origin; `.invalid` never resolves (RFC 6761), and the browser answers it itself. */
export const foreignOrigin = 'http://certify-foreign-sender.invalid';

export interface Sender {
  /** `event.origin` as the page will see it. */
  origin: string;
  /** Where the browser serves the sender; a sandboxed document at `foreignOrigin` for the opaque origin "null". */
  url: string;
}

const senderAt = (origin: string): Sender => ({ origin, url: `${origin}${senderPath}` });

/**
 * Origins that are not the platform's but that a careless check takes for it: the platform's origin with a
 * suffix (what `startsWith` accepts), on another port, under the other scheme, and "null" (a sandboxed or
 * data: document), beside a plain foreign origin.
 */
export function forgers(platformOrigin: string): Sender[] {
  const platform = new URL(platformOrigin);
  const port = Number(platform.port || (platform.protocol === 'https:' ? 443 : 80));
  const suffixed =
    platform.port && Number(`${platform.port}0`) <= 65_535
      ? `${platformOrigin}0`
      : `${platform.protocol}//${platform.hostname}.certify-lookalike.invalid${platform.port ? `:${platform.port}` : ''}`;
  const otherScheme = `${platform.protocol === 'https:' ? 'http:' : 'https:'}//${platform.host}`;
  const otherPort = `${platform.protocol}//${platform.hostname}:${port === 65_535 ? 1 : port + 1}`;
  return [
    senderAt(foreignOrigin),
    senderAt(suffixed),
    senderAt(otherPort),
    senderAt(otherScheme),
    { origin: 'null', url: `${foreignOrigin}${senderPath}-opaque` },
  ];
}

/** Serves every sender page in `context`; the opaque one carries a CSP sandbox, which gives its document the origin "null". */
export async function serveSenders(context: BrowserContext, senders: readonly Sender[], framed: () => string | undefined): Promise<void> {
  const urls = new Set(senders.map((sender) => sender.url.split('?')[0]!));
  await context.route(
    (url) => urls.has(`${url.origin}${url.pathname}`),
    (route) => {
      const opaque = route.request().url().includes(`${senderPath}-opaque`);
      // A sender asked to frame the partner's page (the "parent" channel) holds it in an iframe.
      const page = new URL(route.request().url()).searchParams.has('frame') ? framed() : undefined;
      return route.fulfill({
        contentType: 'text/html; charset=utf-8',
        headers: { 'cache-control': 'no-store', ...(opaque ? { 'content-security-policy': 'sandbox allow-scripts allow-popups' } : {}) },
        body: html`<!doctype html><title>${senderTitle}</title>${page ? html`<iframe src="${page}" style="width:100%;height:40rem"></iframe>` : ''}`.text,
      });
    },
  );
}

/** Whether `frame` holds a sender page (the browser let it load), not an error page in its place. */
export const holdsSender = (frame: Frame) =>
  frame.title().then(
    (title) => title === senderTitle,
    () => false,
  );

/** One forged message on its way: through which channel, from which origin, and how to post it. */
export interface Post {
  channel: Channel;
  origin: string;
  send(message: unknown): Promise<void>;
}

/** A window the page opened at `sender`: the probe opens it from the page, as the page's own script would. */
export async function openedWindow(page: Page, sender: Sender): Promise<{ post?: Post; closed?: string; close(): Promise<void> }> {
  // The page's own popup at this sender, not any page of the context: other windows open meanwhile.
  const opened = page.waitForEvent('popup', { predicate: (popup) => popup.url() === sender.url, timeout: 5_000 }).catch(() => undefined);
  // A sandbox without allow-popups makes window.open return null at once: no popup is coming.
  const refused = await page.evaluate((url) => window.open(url) === null, sender.url).catch(() => true);
  const popup = refused ? undefined : await opened;
  if (!popup) return { closed: 'the page could not open a window (its sandbox has no allow-popups)', close: async () => {} };
  await popup.waitForLoadState('load').catch(() => undefined);
  if (!(await holdsSender(popup.mainFrame()))) return { closed: `the browser did not load a window at ${sender.origin}`, close: () => popup.close() };
  return {
    post: {
      channel: 'opened-window',
      origin: sender.origin,
      send: (message) => popup.evaluate((data) => (window.opener as Window | null)?.postMessage(data, '*'), message),
    },
    close: () => popup.close(),
  };
}

/** A frame at `sender` inside `host` (a page's document): the probe adds it, and the page's CSP decides whether it loads. */
export async function innerFrame(host: Frame, sender: Sender): Promise<{ post?: Post; closed?: string; frame?: Frame; close(): Promise<void> }> {
  const name = `certify-sender-${Math.random().toString(36).slice(2)}`;
  // Its document committed (the sender's, or the browser's error page in its place), as the browser reports it: the
  // element's load event came 5 s late in one run in six. A bound, not evidence: what loaded is read from the frame.
  const committed = host
    .page()
    .waitForEvent('framenavigated', {
      predicate: (frame) => frame.parentFrame() === host && frame.name() === name && frame.url() !== 'about:blank',
      timeout: 5_000,
    })
    .catch(() => undefined);
  const added = await host
    .evaluate(
      ([url, frameName]) => {
        const frame = document.createElement('iframe');
        Object.assign(frame, { name: frameName, src: url });
        frame.style.display = 'none';
        document.body.append(frame);
      },
      [sender.url, name] as const,
    )
    .then(
      () => true,
      () => false,
    );
  if (added) await (await committed)?.waitForLoadState('domcontentloaded', { timeout: 5_000 }).catch(() => undefined);
  const frame = host.childFrames().find((candidate) => candidate.name() === name);
  const close = () =>
    host
      .evaluate((frameName) => document.querySelector(`iframe[name="${frameName}"]`)?.remove(), name)
      .then(
        () => undefined,
        () => undefined,
      );
  if (!frame || !(await holdsSender(frame))) return { closed: `the page's policies keep frames from ${sender.origin} out of it`, close };
  return {
    post: { channel: 'inner-frame', origin: sender.origin, send: (message) => frame.evaluate((data) => window.parent.postMessage(data, '*'), message) },
    frame,
    close,
  };
}

/** Waits for the page's sign-on error to show, at most `windowMs`: whether it did. */
export const reacts = (shown: Locator, windowMs: number) =>
  shown.waitFor({ timeout: windowMs }).then(
    () => true,
    () => false,
  );

/** The words a finding uses for a channel that carried nothing. */
export const closedNote = (result: ChannelResult) => `${channelNames[result.channel]}: ${result.closed}`;

/** What each channel carried, for the passing finding. */
export function channelSummary(results: readonly ChannelResult[]): string {
  return results
    .map((result) => {
      if (result.closed) return closedNote(result);
      const control =
        result.control === true
          ? "; the platform's own origin was heeded"
          : result.control === false
            ? "; the platform's own origin was ignored too (the page checks which window sent it)"
            : `; the platform's own origin could not post through it (${result.control})`;
      return `${channelNames[result.channel]}: ignored ${result.origins.join(', ')}${control}`;
    })
    .join('. ');
}

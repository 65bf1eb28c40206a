import { randomUUID } from 'node:crypto';
import type { BrowserContext, Frame, Locator } from '@playwright/test';
import { heard } from './browser-session';
import { waitOn, wake, type FrameWaiters } from './frame-waiters';
import { innerFrame, type Sender } from './message-channels';
import type { Platform } from './platform';

/**
 * That a page ignored a message, proven by the event that would have shown it, not after a window: once every
 * forged message has reached the page and its handlers have run, the platform's own error message goes to the
 * page from the platform's document in its frame, as the platform sends it. When the page shows its error
 * with the control's marker in it, and no forged message's marker was ever in the page, the forged messages
 * came first and were ignored. Where a page does not show the reason, or did not heed the control, nothing is
 * proven and the caller waits its window.
 */

export const forgedMarker = 'certify-forged-';
const controlMarker = 'certify-control';

/** The markers each document has had in its text since it loaded, whatever replaced them since. */
const shown = new WeakMap<Frame, { document: string; markers: Set<string> }>();
const wakers: FrameWaiters = new WeakMap();

/** A MutationObserver of the harness's own in every document: it reports each marker text the page writes, once. */
const observer = (binding: string) => `(() => {
  const send = window[${JSON.stringify(binding)}];
  delete window[${JSON.stringify(binding)}];
  const document_ = Math.random().toString(36).slice(2);
  const seen = new Set();
  const look = (text) => {
    for (const [marker] of String(text || '').matchAll(/certify-(?:forged-\\d+|control)/g))
      if (!seen.has(marker)) { seen.add(marker); try { send({ document: document_, marker }); } catch {} }
  };
  new MutationObserver((mutations) => {
    for (const m of mutations) if (m.type === 'characterData') look(m.target.data); else for (const node of m.addedNodes) look(node.textContent);
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

/** Every later document of `context` reports the markers it shows. */
export async function watchMarkers(context: BrowserContext): Promise<void> {
  const binding = `__certify_${randomUUID().replaceAll('-', '')}`;
  await context.exposeBinding(binding, ({ frame }, { document, marker }: { document: string; marker: string }) => {
    const known = shown.get(frame);
    if (known?.document === document) known.markers.add(marker);
    else shown.set(frame, { document, markers: new Set([marker]) });
    wake(wakers, frame);
  });
  await context.addInitScript(observer(binding));
}

const markersOf = (frame: Frame) => [...(shown.get(frame)?.markers ?? [])];
const forgedShown = (frame: Frame) => markersOf(frame).find((marker) => marker.startsWith(forgedMarker));

/** The post a marker names, as the index it was sent with. */
const reactedTo = (marker: string | undefined): number | 'one of them' => (marker ? Number(marker.slice(forgedMarker.length)) : 'one of them');

/** Resolves once `frame` has shown a marker, or after `timeoutMs`. */
const markerShown = (frame: Frame, timeoutMs: number) => waitOn(wakers, frame, () => markersOf(frame).length > 0, timeoutMs);

export type Proof = { ignored: true } | { reacted: number | 'one of them' } | undefined;

export interface Control {
  /** The window the messages were posted to: the partner's page. */
  host: Frame;
  /** The platform's document that sends the control: the one in the page's frame, or undefined when there is none. */
  sender: () => Promise<Frame | undefined>;
  /** The page's sign-on error. */
  error: Locator;
  /** The platform's error message, with the control's marker as its reason. */
  message: (reason: string) => unknown;
  /** How many forged messages were posted. */
  sent: number;
  boundMs: number;
}

/** Whether the page ignored the forged messages, reacted to one, or neither could be proven without a window. */
export async function proveByControl({ host, sender, error, message, sent, boundMs }: Control): Promise<Proof> {
  const forgedCount = (messages: readonly { data: unknown }[]) => messages.filter((m) => JSON.stringify(m.data ?? '').includes(forgedMarker)).length;
  // Each has been handed to the page's listeners: the harness's own listener runs first, the page's right after.
  if (!(await heard(host, (messages) => forgedCount(messages) >= sent, boundMs))) return undefined;
  if (await error.isVisible()) return { reacted: reactedTo(forgedShown(host)) };
  const platform = await sender();
  const posted =
    platform &&
    (await platform
      .evaluate(([data, target]) => window.parent.postMessage(data, target), [message(controlMarker), originOf(host.url())] as const)
      .then(
        () => true,
        () => false,
      ));
  if (!posted) return undefined;
  await markerShown(host, boundMs);
  const visible = await error.waitFor({ timeout: boundMs }).then(
    () => true,
    () => false,
  );
  const forged = forgedShown(host);
  if (visible && forged) return { reacted: reactedTo(forged) };
  return visible && markersOf(host).includes(controlMarker) ? { ignored: true } : undefined;
}

/** Whether `frame` holds a document from one of the platform's app origins (not one the page wrote itself: about:srcdoc). */
export const atPlatform = (frame: Frame, platform: Platform) => platform.appOrigins.includes(originOf(frame.url()));

/** The platform's document in `embed`, when the frame holds one. */
async function platformDocument(embed: Locator, platform: Platform, boundMs: number): Promise<Frame | undefined> {
  const frame = await embed.elementHandle({ timeout: boundMs }).then(
    (handle) => handle.contentFrame(),
    () => null,
  );
  return frame && atPlatform(frame, platform) ? frame : undefined;
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
};

/** The platform's error message, with `reason` marking who sent it. */
export const errorMessage = (platform: Platform, reason: string) => {
  const { typeKey, error, reasonKey } = platform.messages;
  return { [typeKey]: error, [reasonKey]: reason };
};

/** How long the page has to show its error after a control: only a page that ignores it waits this out. */
export const controlBoundMs = 5_000;

/**
 * The proof by the platform's own message, sent from the platform's document in the page's frame when the page
 * showed its error for the platform's message at the refused code's load (`reactionMs`), else from a frame at
 * the platform's origin when the page heeded one; without either, there is none.
 */
export function proofFor(
  platform: Platform,
  reactionMs: number | undefined,
  { host, embed, error, sent }: { host: Frame; embed: Locator; error: Locator; sent: number },
  heeded?: Sender,
): Promise<Proof> {
  const fromPlatform = reactionMs !== undefined;
  if (!fromPlatform && !heeded) return Promise.resolve(undefined);
  const sender = async () =>
    (fromPlatform ? await platformDocument(embed, platform, controlBoundMs) : undefined) ?? (heeded ? (await innerFrame(host, heeded)).frame : undefined);
  return proveByControl({ host, sender, error, sent, message: (reason) => errorMessage(platform, reason), boundMs: controlBoundMs });
}

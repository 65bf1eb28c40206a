import type { Frame, Locator, Page } from '@playwright/test';
import { actsOnPlatformMessagesOnly, type Channel, type ChannelResult } from '../checks/partner-app-messages';
import type { EmbedLoad } from '../checks/partner-app-embedding';
import { evaluate, type Finding } from '../checks/finding';
import { locate, observe, screenTimeoutMs } from './browser-session';
import { channelSummary, forgers, innerFrame, openedWindow, reacts, serveSenders, type Post, type Sender } from './message-channels';
import { readLoad, type LoadWatch } from './partner-app-loads';
import { atPlatform, controlBoundMs, errorMessage, forgedMarker, proofFor, watchMarkers } from './message-proof';
import type { BrowserProbeContext } from './platform';
import { stopped, type Judgement } from './probe';

/**
 * Whether the partner's page acts on the platform's error message from anyone else: forged from several
 * origins (look-alikes of the platform's among them) through every channel a page receives from, each only
 * once the platform's own message to the page has arrived, and each with its control, the same message from the
 * platform's own origin through the same channel.
 */

type PartnerApp = NonNullable<BrowserProbeContext['profile']['partnerApp']>;
export interface MessageProbe {
  ctx: BrowserProbeContext;
  page: Page;
  app: PartnerApp & { authError: NonNullable<PartnerApp['authError']> };
  watch: LoadWatch;
  /** Each load of the partner's page as a user gets it (not the one framed by another page) is judged with the others: its number, and where it goes. */
  nextLoad(): number;
  judged(load: EmbedLoad): void;
  /** How long the page reacted to the platform's own error message at the load whose code was refused, when it did. */
  reactionMs?: number;
}

/** The least a page that does not react to a forged message is given, however fast it reacted to the platform's own. */
const quietWindowMs = 2_000;

/** A trial of one page load: the posts it makes, or why it could not make them. */
type Trial =
  | { reacted?: Post | 'one of them'; afterMs?: number; proven?: true; posts: Post[]; closed: { channel: Channel; origin: string; why: string }[] }
  | { spoiled: string };

/** Loads the page (opened by `opener`, when given), lets it settle, and sends every post; whether the page reacted, and to which. */
async function trial(
  probe: MessageProbe,
  /** `heeded`: a frame at the platform's origin the page heeded, which can send the control. */
  plan: { opener?: Sender; windows?: readonly Sender[]; frames?: readonly Sender[]; heeded?: Sender },
  windowMs: number,
  only?: (post: Post) => boolean,
): Promise<Trial> {
  const { ctx, app, watch } = probe;
  const context = probe.page.context();
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const since = watch.mark();
    let page = probe.page;
    let opened: Page | undefined;
    if (plan.opener) {
      const opener = await context.newPage();
      opened = opener;
      cleanup.push(() => opener.close());
      // eslint-disable-next-line no-restricted-syntax -- a page of the harness's own, whose URL holds no secret
      await opener.goto(plan.opener.url);
      const popup = opener.waitForEvent('popup', { timeout: screenTimeoutMs });
      await opener.evaluate((url) => void Object.assign(window, { certifyOpened: window.open(url) }), app.page);
      const popped = await popup;
      page = popped;
      cleanup.push(() => popped.close());
    } else {
      // eslint-disable-next-line no-restricted-syntax -- the profile's own page: goto's wait, unchanged
      await page.goto(app.page);
    }
    const embed = locate(page, app.frame ?? 'iframe').first();
    probe.judged((await readLoad(ctx, watch, { page, element: embed, n: probe.nextLoad(), purpose: 'sign-on', since })).load);
    const shown = locate(page, app.authError).first();
    if (await shown.isVisible())
      return { spoiled: `the page showed its sign-on error before any message was forged: ${JSON.stringify((await shown.innerText()).slice(0, 200))}` };
    const posts: Post[] = [];
    const closed: { channel: Channel; origin: string; why: string }[] = [];
    if (plan.opener && opened) {
      const from = opened;
      // A page whose Cross-Origin-Opener-Policy severs its opener cannot be posted to by it.
      const severed = await from.evaluate(() => (window as unknown as { certifyOpened: Window }).certifyOpened.closed).catch(() => true);
      if (severed)
        closed.push({
          channel: 'opener',
          origin: plan.opener.origin,
          why: `the page severs its opener at ${plan.opener.origin} (Cross-Origin-Opener-Policy), so nothing reaches it that way`,
        });
      else
        posts.push({
          channel: 'opener',
          origin: plan.opener.origin,
          send: (message) => from.evaluate((data) => (window as unknown as { certifyOpened: Window }).certifyOpened.postMessage(data, '*'), message),
        });
    }
    // Every window and frame opened at once; their posts keep the plan's order.
    const channels = await Promise.all([
      ...(plan.windows ?? []).map(async (sender) => ({ kind: 'opened-window' as const, sender, ...(await openedWindow(page, sender)) })),
      ...(plan.frames ?? []).map(async (sender) => ({ kind: 'inner-frame' as const, sender, ...(await innerFrame(page.mainFrame(), sender)) })),
    ]);
    for (const channel of channels) {
      cleanup.push(() => channel.close());
      if (channel.post) posts.push(channel.post);
      else closed.push({ channel: channel.kind, origin: channel.sender.origin, why: channel.closed! });
    }
    const sent = posts.filter(only ?? (() => true));
    const delivered = (await Promise.allSettled(sent.map((post, index) => post.send(forged(ctx, index))))).filter(
      (sending) => sending.status === 'fulfilled',
    ).length;
    const posted = Date.now();
    const proof = await proven(probe, { host: page.mainFrame(), embed, error: shown, sent: delivered }, plan.heeded);
    if (proof && 'ignored' in proof) return { posts: sent, closed, proven: true };
    if (!proof && !(await reacts(shown, windowMs))) return { posts: sent, closed };
    const afterMs = Date.now() - posted;
    const named = proof ? proof.reacted : /certify-forged-(\d+)/.exec(await shown.innerText().catch(() => ''))?.[1];
    return {
      posts: sent,
      closed,
      afterMs,
      reacted: sent.length === 1 ? sent[0]! : named !== undefined && named !== 'one of them' ? (sent[Number(named)] ?? 'one of them') : 'one of them',
    };
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  }
}

const forged = (ctx: BrowserProbeContext, index: number) => errorMessage(ctx.platform, `${forgedMarker}${index}`);
const proven = (probe: MessageProbe, at: Parameters<typeof proofFor>[2], heeded?: Sender) => proofFor(probe.ctx.platform, probe.reactionMs, at, heeded);

/** The page framed by a page at `sender` (a page cannot frame it when its headers or its cookies refuse): whether it acted on that page's message. */
async function parentTrial(
  probe: MessageProbe,
  sender: Sender,
  windowMs: number,
  /** A frame at the platform's origin the page heeded: the control's sender where the platform's own frame is refused (inside another site's page). */
  heededFrame?: Sender,
): Promise<{ reacted: boolean; afterMs?: number; proven?: true } | { closed: string }> {
  const top = await probe.page.context().newPage();
  try {
    // eslint-disable-next-line no-restricted-syntax -- a page of the harness's own, whose URL holds no secret
    await top.goto(`${sender.url}?frame`);
    await top.waitForLoadState('load').catch(() => undefined);
    const framed = top.mainFrame().childFrames()[0];
    const embeds = framed ? locate(framed, probe.app.frame ?? 'iframe').first() : undefined;
    if (!framed || !embeds || (await embeds.count()) === 0)
      return {
        closed: `the page did not load, signed in, inside a page of ${sender.origin} (its headers refuse to be framed, or its session cookie stays out of another site's frame)`,
      };
    await settleFramed(probe, top, framed, embeds, windowMs);
    const shown = locate(framed, probe.app.authError).first();
    if (await shown.isVisible()) return { closed: 'the page showed its sign-on error inside that frame before any message was forged' };
    const sent = await top
      .evaluate((data) => document.querySelector('iframe')?.contentWindow?.postMessage(data, '*'), forged(probe.ctx, 0))
      .then(
        () => 1,
        () => 0,
      );
    const posted = Date.now();
    const proof = await proven(probe, { host: framed, embed: embeds, error: shown, sent }, heededFrame);
    if (proof) return 'ignored' in proof ? { reacted: false, proven: true } : { reacted: true, afterMs: Date.now() - posted };
    return (await reacts(shown, windowMs)) ? { reacted: true, afterMs: Date.now() - posted } : { reacted: false };
  } finally {
    await top.close().catch(() => undefined);
  }
}

/** Waits until the platform's own screen and message reached the framed page, unless the browser refused the platform there. */
async function settleFramed(probe: MessageProbe, top: Page, framed: Frame, embeds: Locator, waitMs: number): Promise<void> {
  const inner = await embeds.elementHandle({ timeout: screenTimeoutMs }).then(
    (handle) => handle.contentFrame(),
    () => null,
  );
  if (!inner || inner.url().startsWith('chrome-error:')) return;
  // A document that is not the platform's (one the page wrote itself) posts none of the platform's messages.
  const platforms = atPlatform(inner, probe.ctx.platform);
  await observe(top, probe.ctx.platform, { frame: embeds.contentFrame(), host: framed, waitMs, ...(platforms ? {} : { messageWaitMs: 0 }) });
}

/** Finds which single post a trial's reaction came from, trying each alone on a fresh load. */
async function attribute(probe: MessageProbe, plan: Parameters<typeof trial>[1], windowMs: number, posts: readonly Post[]): Promise<Post | undefined> {
  for (const suspect of posts) {
    const alone = await trial(probe, plan, windowMs, (post) => post.channel === suspect.channel && post.origin === suspect.origin);
    if ('reacted' in alone && alone.reacted !== undefined) return suspect;
  }
  return undefined;
}

/** One reason for the origins a channel refused, naming them all: "… from a, b, c …". */
const closedWhy = (closed: readonly { origin: string; why: string }[]) =>
  closed[0]!.why.replace(closed[0]!.origin, closed.map((entry) => entry.origin).join(', '));

const heard = (result: Trial | Awaited<ReturnType<typeof parentTrial>>): boolean | string => {
  if ('spoiled' in result) return result.spoiled;
  if ('reacted' in result && result.reacted !== undefined && result.reacted !== false) return true;
  const closed = 'closed' in result && (typeof result.closed === 'string' ? result.closed : result.closed[0]?.why);
  return closed || false;
};

/** The verdict on the page's heeding of messages from origins other than the platform's; it ends the probe, so it may stop it. */
export async function messageOriginFindings(probe: MessageProbe, cause: Finding | undefined): Promise<Judgement> {
  const platformOrigin = probe.ctx.platform.appOrigins[0]!;
  const senders = forgers(platformOrigin);
  const platform: Sender = { origin: platformOrigin, url: `${platformOrigin}/certify-message-sender` };
  await serveSenders(probe.page.context(), [...senders, platform], () => probe.app.page);
  await watchMarkers(probe.page.context());
  const lookalike = senders[1]!;

  // The controls first: the platform's own message through each channel, which a page that heeds the platform shows
  // as soon as it is handled. How long the slowest took sets how long the forged ones are given, at this page's pace.
  const ownChannels = {
    opener: await trial(probe, { opener: platform }, controlBoundMs),
    'opened-window': await trial(probe, { windows: [platform] }, controlBoundMs),
    'inner-frame': await trial(probe, { frames: [platform] }, controlBoundMs),
  };
  const heededFrame = heard(ownChannels['inner-frame']) === true ? platform : undefined;
  const plan = { opener: lookalike, windows: senders, frames: senders, heeded: heededFrame };
  const controls = { ...ownChannels, parent: await parentTrial(probe, platform, controlBoundMs, heededFrame) };
  const paces = [probe.reactionMs, ...Object.values(controls).map((control) => ('afterMs' in control ? control.afterMs : undefined))];
  const slowest = Math.max(...paces.filter((pace): pace is number => pace !== undefined));
  const windowMs = Math.max(quietWindowMs, 3 * (Number.isFinite(slowest) ? slowest : controlBoundMs));
  // The forged messages through the page's own channels and through a page that frames it, at once: one window for both.
  const [first, parent] = await Promise.all([trial(probe, plan, windowMs), parentTrial(probe, lookalike, windowMs, heededFrame)]);
  if ('spoiled' in first) return stopped(cause ? { blockedBy: { rule: cause.rule, reason: first.spoiled } } : { notChecked: first.spoiled });
  if (first.reacted !== undefined) {
    const culprit = first.reacted === 'one of them' ? await attribute(probe, plan, windowMs, first.posts) : first.reacted;
    if (!culprit) return stopped({ notChecked: 'the page showed its sign-on error after the forged messages, but for none of them alone; run again' });
    return evaluate(actsOnPlatformMessagesOnly, { channels: [{ channel: culprit.channel, origins: [culprit.origin], reactedTo: culprit.origin }] }, undefined);
  }
  if ('reacted' in parent && parent.reacted)
    return evaluate(actsOnPlatformMessagesOnly, { channels: [{ channel: 'parent', origins: [lookalike.origin], reactedTo: lookalike.origin }] }, undefined);
  const results = (['opener', 'opened-window', 'inner-frame'] as const).map((channel): ChannelResult => {
    const origins = first.posts.filter((post) => post.channel === channel).map((post) => post.origin);
    const closed = first.closed.filter((entry) => entry.channel === channel);
    return { channel, origins, ...(origins.length === 0 && closed.length > 0 ? { closed: closedWhy(closed) } : {}) };
  });
  results.push({ channel: 'parent', origins: 'closed' in parent ? [] : [lookalike.origin], ...('closed' in parent ? { closed: parent.closed } : {}) });
  for (const result of results.filter((entry) => entry.origins.length > 0)) result.control = heard(controls[result.channel]);
  // The page heeded the platform's own message through some channel once signed on: ignoring the others' proves something.
  if (!results.some((result) => result.control === true))
    return stopped({
      notChecked: `once the platform's own message had arrived, the page heeded the platform's error message through no channel, so ignoring other origins proves nothing: ${channelSummary(results)}`,
    });
  const findings = evaluate(actsOnPlatformMessagesOnly, { channels: results }, undefined);
  const how =
    first.proven && !('reacted' in parent && !parent.proven)
      ? "; each trial's last message, the platform's own from its frame, showed on the page: the forged ones before it were ignored"
      : `; no forged message showed within ${windowMs} ms`;
  return findings.map((finding) => (finding.outcome === 'passed' ? { ...finding, message: `${finding.message}: ${channelSummary(results)}${how}` } : finding));
}

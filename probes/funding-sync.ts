import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { fundingSynced } from '../checks/sign-on';
import { screenNames, type Visit } from '../checks/sign-on-visit';
import { isObject } from '../checks/evidence';
import { evaluate } from '../checks/finding';
import { answer, type HttpClient } from '../client/http';
import { resourceRequest } from '../client/requests';
import { mintedCodes } from './minted-codes';
import { isSetupError } from '../client/setup-error';
import { exchangeCode } from './exchange';
import { addressFor, storesTestDataSkipReason, type BrowserProbeContext } from './platform';
import { stopped, type Judgement } from './probe';
import { codePath, profileHas } from './needs';
import { browserProbe, frameOf, locate, screenTimeoutMs, type Session } from './browser-session';
import { signOn } from './collection-screen';
import { text } from './account-info-links';

/** The most sign-ons with the shorter list a source still shown is looked for after (the first included). */
const syncSignOns = 3;

/** A funding source as the partner lists it: what the app can show of it. */
interface Source {
  id: string;
  nickname?: string;
}

/** The ids the emulator's app shows: it marks each source with its id. */
const emulatorShownIds = (page: Page) =>
  frameOf(page)
    .locator('[data-funding-source]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-funding-source') ?? ''));

/**
 * The ids of `sources` the app shows now: a source is shown where an element of `platform.screens.fundingSource`
 * holds its id as an attribute's value, or its id or nickname in its text. The link to the sources' own screen is
 * followed first, where the profile names one.
 */
async function shownOf(page: Page, ctx: BrowserProbeContext, sources: readonly Source[]): Promise<string[]> {
  const frame = frameOf(page);
  const { fundingSource, fundingSourcesLink } = ctx.platform.screens;
  if (fundingSourcesLink)
    await locate(frame, fundingSourcesLink)
      .first()
      .click({ timeout: screenTimeoutMs })
      .catch(() => undefined);
  const items = locate(frame, fundingSource);
  if (fundingSourcesLink)
    await items
      .first()
      .waitFor({ timeout: screenTimeoutMs })
      .catch(() => undefined);
  const seen = await items
    .evaluateAll((elements) =>
      elements.map((element) => ({ text: element.textContent ?? '', values: [...element.attributes].map((attribute) => attribute.value) })),
    )
    .catch(() => []);
  // Text matches only a name long enough not to occur by chance in another's.
  const inText = (item: { text: string }, name: string | undefined, min: number) => name !== undefined && name.length >= min && item.text.includes(name);
  const shown = (source: Source) => seen.some((item) => item.values.includes(source.id) || inText(item, source.id, 4) || inText(item, source.nickname, 2));
  return sources.filter(shown).map((source) => source.id);
}

/** The sources the partner lists for a code's user, as the platform reads them with the code's token. */
async function listedFor(ctx: BrowserProbeContext, http: HttpClient, code: string): Promise<Source[] | { problem: string }> {
  const exchanged = await exchangeCode(http, ctx.profile, code);
  if ('blocker' in exchanged) return { problem: exchanged.blocker.reason };
  ctx.learn?.([exchanged.token]);
  const got = await answer(http, resourceRequest(ctx.profile.fundingSourcesUrl!, exchanged.token));
  if ('problem' in got) return { problem: got.problem };
  const body = got.response.json.ok ? got.response.json.value : undefined;
  const list = isObject(body) && Array.isArray(body.fundingSources) ? body.fundingSources.filter(isObject) : undefined;
  if (!list) return { problem: `"fundingSourcesUrl" answered ${got.response.status} without a "fundingSources" list` };
  return list.flatMap((source) =>
    text(source.id)
      ? [{ id: text(source.id)!, ...(text(source.nickname ?? source.nickName) ? { nickname: text(source.nickname ?? source.nickName)! } : {}) }]
      : [],
  );
}

/**
 * Spec §4.2's removal rule through the partner's own hook (`fundingSync.mintUrl`), on any platform: sign on with a
 * code of the user's (the platform learns every source), then with a hook code of the same user's, whose list
 * lacks one source: the app shows the sources still listed, and not the one removed.
 */
async function throughPartnerHook(ctx: BrowserProbeContext, session: Session, http: HttpClient, mintUrl: string): Promise<Judgement> {
  const hook = mintedCodes(mintUrl, http, { received: (code) => ctx.learn?.([code]) });
  const hookCode = () => hook.next();
  const lists = await Promise.all([ctx.codes.next(), hookCode()].map(async (code) => listedFor(ctx, http, await code))).catch((error: unknown) => [
    { problem: isSetupError(error, 'code-source') ? error.message.replace('"codes.mintUrl"', '"fundingSync.mintUrl"') : String(error) },
  ]);
  const [before, after] = lists;
  if (!before || !after || 'problem' in before || 'problem' in after)
    return stopped({
      notChecked: `the partner's lists could not be read: ${[before, after].flatMap((list) => (list && 'problem' in list ? [list.problem] : [])).join('; ')}`,
    });
  const removed = before.filter((source) => !after.some((kept) => kept.id === source.id));
  if (removed.length === 0)
    return stopped({
      notChecked: `the codes of "fundingSync.mintUrl" list the same ${before.length} funding sources as the user's others: the hook should list one fewer`,
    });
  const first = await signOn(session, ctx.platform, addressFor(ctx, await ctx.codes.next()), 'funding-first');
  if (first.screen !== 'app') return stopped({ notChecked: `the first sign-on showed ${screenNames[first.screen]}, not the app` });
  // The control: the sources to be removed were shown, so their absence later is the platform's removal. Looked for
  // again when not seen, as a slow page may not have listed them yet.
  let shownFirst = await shownOf(session.page, ctx, removed);
  for (let look = 1; shownFirst.length < removed.length && look < syncSignOns; look++) shownFirst = await shownOf(session.page, ctx, removed);
  if (shownFirst.length < removed.length)
    return stopped({
      notChecked: `after the first sign-on the app showed no element of "platform.screens.fundingSource" holding "${removed[0]!.id}"${removed[0]!.nickname ? ` or "${removed[0]!.nickname}"` : ''}; name where the app shows funding sources`,
    });
  // The test user's other sign-ons, which the run's other probes make at the same time, list the source again: a
  // source still shown is looked for again after another sign-on, and only one shown after every one fails.
  let signOns = 0;
  let second: Visit;
  let shownIds: string[];
  do {
    signOns++;
    second = await signOn(session, ctx.platform, addressFor(ctx, await hookCode()), signOns === 1 ? 'funding-second' : `funding-again-${signOns}`);
    shownIds = second.screen === 'app' ? await shownOf(session.page, ctx, before) : [];
  } while (second.screen === 'app' && removed.some((source) => shownIds.includes(source.id)) && signOns < syncSignOns);
  const visit = { ...second, shownIds, partnerIds: after.map((kept) => kept.id), ...(signOns > 1 ? { signOns } : {}) };
  return removed.flatMap((source) => evaluate(fundingSynced, { ...visit, seeded: source.id }, undefined));
}

/** On the bundled emulator only: a source the partner never listed is planted in the platform, as if listed earlier. */
async function plantedInEmulator(ctx: BrowserProbeContext, session: Session, http: HttpClient): Promise<Judgement> {
  const first = await signOn(session, ctx.platform, addressFor(ctx, await ctx.codes.next()), 'funding-first');
  if (first.screen !== 'app') return stopped({ notApplicable: `the first sign-on did not reach the app (it showed ${first.screen})` });
  const partnerIds = await emulatorShownIds(session.page);
  const live = await ctx.accountInfo();
  if ('blocker' in live) return stopped({ blockedBy: live.blocker });
  const userId = isObject(live.payload.user) ? text(live.payload.user.id) : undefined;
  if (!userId) return stopped({ notApplicable: 'the account information has no "user.id" to plant a funding source for' });
  const seeded = `certify-removed-${randomUUID()}`;
  const planted = await http.send({
    method: 'POST',
    url: `${ctx.platform.emulatorPartnerUrl}/users/${encodeURIComponent(userId)}/funding-sources`,
    headers: { 'api-key': ctx.platform.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ id: seeded, nickname: 'Closed account' }),
  });
  if (planted.response?.status !== 200)
    return stopped({ notApplicable: `the emulator did not take the earlier funding source (${planted.failure?.message ?? planted.response?.status})` });
  const second = await signOn(session, ctx.platform, addressFor(ctx, await ctx.codes.next()), 'funding-second');
  const shownIds = second.screen === 'app' ? await emulatorShownIds(session.page) : [];
  return evaluate(fundingSynced, { ...second, shownIds, partnerIds, seeded }, undefined);
}

/**
 * (e) Funding sync (spec §4.2): a source the partner no longer lists disappears at the next sign-on. Judged on any
 * platform through the partner's hook; on the emulator without one, by planting the source there; elsewhere not
 * checked, saying what would let it be judged.
 */
export const fundingSyncSignOn = browserProbe(
  {
    id: 'sign-on/funding-sync',
    area: 'sign-on',
    title: 'a funding source the partner no longer lists disappears at the next sign-on',
    rules: [fundingSynced],
    codes: 2,
    profileNeeds: [profileHas('fundingSourcesUrl', 'the platform syncs no funding sources')],
    needs: { codePath },
  },
  async (ctx, session, http) => {
    if (ctx.profile.fundingSync) return throughPartnerHook(ctx, session, http, ctx.profile.fundingSync.mintUrl);
    const noHook = 'the profile has no "fundingSync.mintUrl", the partner\'s test hook whose codes list one funding source fewer';
    if (ctx.platform.kind !== 'emulator') return stopped({ notChecked: `${noHook}, and a source can be planted only in the bundled emulator` });
    const cannotStore = storesTestDataSkipReason(ctx.profile, 'a funding source the partner never listed');
    return cannotStore ? stopped({ notChecked: `${noHook}, and ${cannotStore}` }) : plantedInEmulator(ctx, session, http);
  },
);

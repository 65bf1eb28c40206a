import { randomBytes, randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { decodeJwt, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import {
  appShown,
  authenticationErrorMessage,
  collectionCompletes,
  collectionScreenShown,
  errorShown,
  foreignHostCannotFrame,
  fundingSynced,
  inlineErrorShown,
  messagesToHostOnly,
  navigatedMessage,
  partnerDataEscaped,
  tamperedLinkRules,
  type ReceivedMessage,
  type Screen,
  type Visit,
} from '../checks/embedded-app';
import { isObject, jsonObject } from '../checks/evidence';
import { blocked, evaluate, evaluateAll, skip, unjudged, type Blocker, type Finding, type Rule } from '../checks/finding';
import { issuedLink } from '../checks/mock-link';
import type { Payload } from '../checks/payload';
import { signOnDecision } from '../checks/sign-on';
import { answer, type HttpClient } from '../client/http';
import { codePathBlocker, mockLinkBody, mockLinkRequest, platformSkipReason, type BrowserProbeContext, type Platform } from './platform';
import { recorded, type Probe, type ProbeResult, type Screenshot } from './probe';

/**
 * Sign-on in Chromium, the way a partner's user meets it: the host page (the stand-in for the partner's
 * app) frames the platform's auth URL, and the probe reads the screen the frame shows and the messages
 * the host receives. Each probe runs in a browser context of its own.
 */

const screenTimeoutMs = 10_000;
/** How long a host keeps listening for a message that must not come. */
const quietMs = 750;
const noAccountInfo = 'the partner served no account information to build a mock link from; see the account-info results';

/** What a user types on the collection screen: valid values for every Yes* string field (spec §2.3). */
const typedExamples: Record<string, string> = {
  'user.firstName': 'Ada',
  'user.lastName': 'Lovelace',
  'user.phone': '212-555-0142',
  'user.dateOfBirth': '1985-12-10',
  'company.name': 'Analytical Engines LLC',
  line1: '12 Main Street',
  city: 'Springfield',
  state: 'IL',
  postalcode: '62701',
};
const exampleFor = (path: string) => typedExamples[path] ?? typedExamples[path.slice(path.lastIndexOf('.') + 1)] ?? 'Example';

interface Session {
  context: BrowserContext;
  page: Page;
  screenshots: Screenshot[];
  shoot(name: string): Promise<void>;
}

/** A fresh browser context and page for one probe; closed whatever happens. */
async function inBrowser(ctx: BrowserProbeContext, body: (session: Session, http: HttpClient) => Promise<Finding[]>): Promise<ProbeResult> {
  const context = await ctx.browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  const screenshots: Screenshot[] = [];
  const shoot = async (name: string) => void screenshots.push({ name, png: await page.screenshot() });
  try {
    const result = await recorded(ctx, (http) => body({ context, page, screenshots, shoot }, http));
    return { ...result, screenshots };
  } finally {
    await context.close();
  }
}

export const hostPageFor = (hostPageUrl: string, src: string) => {
  const url = new URL(hostPageUrl);
  url.searchParams.set('src', src);
  return url.href;
};

const frameOf = (page: Page) => page.frameLocator('iframe').first();

async function messagesOf(page: Page): Promise<ReceivedMessage[]> {
  return page.locator('#messages li').evaluateAll((items) =>
    items.map((item) => {
      let data: unknown = item.textContent;
      try {
        data = JSON.parse(item.textContent ?? '');
      } catch {
        // a message that is not JSON is kept as its text
      }
      return { origin: (item as HTMLElement).dataset.origin ?? '', data };
    }),
  );
}

const typeOf = (message: ReceivedMessage) => (isObject(message.data) ? message.data.type : undefined);

const messageOfScreen: Partial<Record<Screen, string>> = { app: 'NAVIGATED_TO_TARGET', error: 'AUTHENTICATION_ERROR' };

/**
 * What the frame shows, once a screen is there (a screen left behind by a form submission does not
 * count), and the messages the host received by then: after waiting for the one that screen posts, or,
 * with `quiet`, for a moment in which a message that must not come could arrive.
 */
async function observe(page: Page, platform: Platform, { waitMs = screenTimeoutMs, quiet = false } = {}): Promise<Visit> {
  const shown = frameOf(page).locator('main[data-screen]:not([data-stale])');
  await shown.waitFor({ timeout: waitMs }).catch(() => undefined);
  const screen = (await shown.count()) > 0 ? (((await shown.getAttribute('data-screen')) ?? 'none') as Screen) : 'none';
  const text = screen === 'none' ? '' : await shown.innerText();
  const awaited = quiet ? undefined : messageOfScreen[screen];
  const deadline = Date.now() + (awaited ? screenTimeoutMs : quiet ? quietMs : 0);
  let messages = await messagesOf(page);
  while (Date.now() < deadline && !(awaited && messages.some((m) => typeOf(m) === awaited))) {
    await page.waitForTimeout(50);
    messages = await messagesOf(page);
  }
  return { screen, text, messages, platformOrigin: platform.origin };
}

/** Creates a mock link for `accountInfo`; undefined (with the reason) when the platform issues none. */
async function createLink(http: HttpClient, platform: Platform, accountInfo: Payload): Promise<{ link: string } | { problem: string }> {
  const got = await answer(http, mockLinkRequest(platform, JSON.stringify(mockLinkBody(platform, accountInfo))));
  if ('problem' in got) return { problem: `the mock-link endpoint gave no answer (${got.problem}); see the mock-link results` };
  const link = got.response.status === 200 ? issuedLink(got.response).link : undefined;
  if (link) return { link };
  return { problem: `the mock-link endpoint issued no link (${got.response.status} ${JSON.stringify(jsonObject(got.response))}); see the mock-link results` };
}

/** A mock link for the partner's live account information as `edit` changes it, or why there is none. */
async function linkFor(ctx: BrowserProbeContext, http: HttpClient, edit = (info: Payload) => info): Promise<{ link: string; sent: Payload } | { problem: string; blocker?: Blocker }> {
  const live = await ctx.accountInfo();
  if ('blocker' in live) return { problem: noAccountInfo, blocker: live.blocker };
  const sent = edit(live.payload);
  const link = await createLink(http, ctx.platform, sent);
  return 'problem' in link ? link : { ...link, sent };
}

/** Types values into the collection screen and submits it; the screen it leaves is marked stale for `observe`. */
async function fillCollection(page: Page, values: Record<string, string>) {
  const frame = frameOf(page);
  await frame.locator('main[data-screen]').evaluate((main) => main.setAttribute('data-stale', ''));
  for (const [path, value] of Object.entries(values)) await frame.locator(`input[name="${path}"]`).fill(value, { timeout: screenTimeoutMs });
  await frame.locator('button[type=submit]').click({ timeout: screenTimeoutMs });
}

const fieldsOnScreen = (page: Page) =>
  frameOf(page)
    .locator('input[data-field]')
    .evaluateAll((inputs) => inputs.map((input) => input.getAttribute('data-field') ?? ''));

const examplesFor = (fields: readonly string[]) => Object.fromEntries(fields.map((field) => [field, exampleFor(field)]));

/** Opens `src` in the host page; when the collection screen comes, the user types valid values, as a real one would. */
async function signOn(session: Session, platform: Platform, src: string, shot: string): Promise<Visit> {
  await session.page.goto(hostPageFor(platform.hostPageUrl, src));
  let visit = await observe(session.page, platform);
  if (visit.screen === 'collect') {
    await session.shoot(`${shot}-collect`);
    await fillCollection(session.page, examplesFor(await fieldsOnScreen(session.page)));
    visit = await observe(session.page, platform);
  }
  await session.shoot(`${shot}-${visit.screen}`);
  return visit;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** What the app must show for this account information: the user's name and the company's. */
function expectedTexts(accountInfo: Payload): string[] {
  const user = isObject(accountInfo.user) ? accountInfo.user : {};
  const company = isObject(accountInfo.company) ? accountInfo.company : {};
  const name = [text(user.firstName), text(user.lastName)].filter(Boolean).join(' ');
  return [name, text(company.name)].filter((value): value is string => Boolean(value));
}

/** A copy of the account information without the fields at `paths`. */
function without(accountInfo: Payload, paths: readonly string[]): Payload {
  const copy = structuredClone(accountInfo);
  for (const path of paths) {
    const steps = path.split('.');
    const parent = steps.slice(0, -1).reduce<unknown>((node, step) => (isObject(node) ? node[step] : undefined), copy);
    if (isObject(parent)) delete parent[steps.at(-1)!];
  }
  return copy;
}

function withCompanyName(accountInfo: Payload, name: string): Payload {
  const copy = structuredClone(accountInfo);
  if (isObject(copy.company)) copy.company.name = name;
  return copy;
}

const browserProbe = (spec: Omit<Probe<BrowserProbeContext>, 'run' | 'skipReason'> & Partial<Pick<Probe<BrowserProbeContext>, 'skipReason'>>, body: (ctx: BrowserProbeContext, session: Session, http: HttpClient) => Promise<Finding[]>): Probe<BrowserProbeContext> => ({
  ...spec,
  skipReason: (profile) => platformSkipReason(profile) ?? spec.skipReason?.(profile),
  run: (ctx) => inBrowser(ctx, (session, http) => body(ctx, session, http)),
});

/** (a) The mock-link path: a link built from the partner's live account information opens the app. */
const mockLinkSignOn = browserProbe(
  { id: 'sso/mock-link', title: "a mock link built from the partner's account information opens the app in the host page", codes: 0 },
  async (ctx, session, http) => {
    const link = await linkFor(ctx, http);
    if ('problem' in link) return unjudged([appShown, navigatedMessage], link);
    const visit = await signOn(session, ctx.platform, link.link, 'mock-link');
    return [...evaluate(appShown, { ...visit, expected: expectedTexts(link.sent) }, undefined), ...evaluate(navigatedMessage, visit, undefined)];
  },
);

/** (b) The code path: the platform exchanges a fresh code with the partner and reads its endpoints. */
const codeSignOn = browserProbe(
  { id: 'sso/code', title: "a fresh code opens the app through the partner's token exchange and account information", codes: 1 },
  async (ctx, session) => {
    const blocker = await codePathBlocker(ctx);
    if (blocker) return blocked([appShown, navigatedMessage], blocker);
    const live = await ctx.accountInfo();
    const code = await ctx.codes.next();
    const visit = await signOn(session, ctx.platform, `${ctx.platform.authUrl}?code=${encodeURIComponent(code)}`, 'code');
    return [...evaluate(appShown, { ...visit, expected: 'payload' in live ? expectedTexts(live.payload) : [] }, undefined), ...evaluate(navigatedMessage, visit, undefined)];
  },
);

/** The Yes* fields the collection probe leaves out: a user field, a date and a whole address. */
const leftOut = ['user.phone', 'user.dateOfBirth', 'company.legalAddress'];

/** (c) Missing information: the collection screen asks for exactly what is missing and judges what is typed. */
const collectSignOn = browserProbe(
  { id: 'sso/collect', title: 'missing Yes* fields are asked for on the collection screen, typed values are judged, then the app opens', codes: 0 },
  async (ctx, session, http) => {
    const { page } = session;
    const collecting = ctx.profile.collectMissingAccountInfo;
    const rules: Rule<never>[] = collecting ? [collectionScreenShown, inlineErrorShown, collectionCompletes, navigatedMessage] : [errorShown, authenticationErrorMessage];
    const link = await linkFor(ctx, http, (info) => without(info, leftOut));
    if ('problem' in link) return unjudged(rules, link);
    await page.goto(hostPageFor(ctx.platform.hostPageUrl, link.link));
    if (!collecting) {
      // Without CollectMissingAccountInfo the same omission is the error screen (spec §7.1).
      const visit = await observe(page, ctx.platform);
      await session.shoot('collect-off-error');
      return evaluateAll([errorShown, authenticationErrorMessage], visit, undefined);
    }
    const decision = signOnDecision(link.sent, { now: new Date(), collectMissingAccountInfo: true });
    const expectedFields = decision.screen === 'collect' ? decision.fields.map((field) => field.path) : [];
    const first = await observe(page, ctx.platform);
    await session.shoot('collect');
    const fields = first.screen === 'collect' ? await fieldsOnScreen(page) : [];
    const listed = evaluate(collectionScreenShown, { ...first, fields, expectedFields }, undefined);
    const invalidField = 'user.phone';
    if (first.screen !== 'collect' || !fields.includes(invalidField)) {
      return [...listed, ...skip([inlineErrorShown, collectionCompletes, navigatedMessage], `the collection screen was not shown, or did not ask for "${invalidField}"`)];
    }

    await fillCollection(page, { ...examplesFor(fields), [invalidField]: '555-01' });
    const rejected = await observe(page, ctx.platform);
    const errors = Object.fromEntries(
      await frameOf(page)
        .locator('[data-error-for]')
        .evaluateAll((items) => items.map((item) => [item.getAttribute('data-error-for') ?? '', item.textContent ?? ''] as const)),
    );
    await session.shoot('collect-inline-error');
    const inline = evaluate(inlineErrorShown, { ...rejected, fields, expectedFields, invalidField, errors }, undefined);

    await fillCollection(page, { [invalidField]: exampleFor(invalidField) });
    const done = await observe(page, ctx.platform);
    await session.shoot('collect-app');
    return [...listed, ...inline, ...evaluate(collectionCompletes, done, undefined), ...evaluate(navigatedMessage, done, undefined)];
  },
);

/** (d) The error path: account information without `user.email` (Yes: required even with collection). */
const errorSignOn = browserProbe(
  { id: 'sso/error', title: 'account information without a required field shows the error screen and tells the host', codes: 0 },
  async (ctx, session, http) => {
    const rules = [errorShown, authenticationErrorMessage];
    const link = await linkFor(ctx, http, (info) => without(info, ['user.email']));
    if ('problem' in link) return unjudged(rules, link);
    await session.page.goto(hostPageFor(ctx.platform.hostPageUrl, link.link));
    const visit = await observe(session.page, ctx.platform);
    await session.shoot('error');
    return evaluateAll(rules, visit, undefined);
  },
);

const shownSourceIds = (page: Page) =>
  frameOf(page)
    .locator('[data-funding-source]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-funding-source') ?? ''));

/**
 * (e) Funding sync (spec §4.2): sign on, let the platform know one more source than the partner lists
 * (as if the partner had listed it at an earlier sign-on and removed it since), sign on again: the app
 * lists the partner's sources and no longer the removed one.
 */
const fundingSyncSignOn = browserProbe(
  {
    id: 'sso/funding-sync',
    title: 'a funding source the partner no longer lists disappears at the next sign-on',
    codes: 2,
    skipReason: (profile) =>
      !profile.fundingSourcesUrl
        ? 'the profile has no "fundingSourcesUrl", so the platform syncs no funding sources'
        : profile.platform?.configure === false
          ? 'an earlier funding source can be planted only in the bundled emulator ("platform.configure": true)'
          : undefined,
  },
  async (ctx, session, http) => {
    const blocker = await codePathBlocker(ctx);
    if (blocker) return blocked([fundingSynced], blocker);
    const first = await signOn(session, ctx.platform, `${ctx.platform.authUrl}?code=${encodeURIComponent(await ctx.codes.next())}`, 'funding-first');
    if (first.screen !== 'app') return skip([fundingSynced], `the first sign-on did not reach the app (it showed ${first.screen})`);
    const partnerIds = await shownSourceIds(session.page);
    const live = await ctx.accountInfo();
    if ('blocker' in live) return blocked([fundingSynced], live.blocker);
    const userId = isObject(live.payload.user) ? text(live.payload.user.id) : undefined;
    if (!userId) return skip([fundingSynced], 'the account information has no "user.id" to plant a funding source for');
    const seeded = `certify-removed-${randomUUID()}`;
    const planted = await http.send({
      method: 'POST',
      url: `${ctx.platform.emulatorPartnerUrl}/users/${encodeURIComponent(userId)}/funding-sources`,
      headers: { 'api-key': ctx.platform.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ id: seeded, nickname: 'Closed account' }),
    });
    if (planted.response?.status !== 200) return skip([fundingSynced], `the emulator did not take the earlier funding source (${planted.failure?.message ?? planted.response?.status})`);
    const second = await signOn(session, ctx.platform, `${ctx.platform.authUrl}?code=${encodeURIComponent(await ctx.codes.next())}`, 'funding-second');
    const shownIds = second.screen === 'app' ? await shownSourceIds(session.page) : [];
    return evaluate(fundingSynced, { ...second, shownIds, partnerIds, seeded }, undefined);
  },
);

const markup = `Certify <b id="certify-injected">Bold</b> & "Co" 'Ltd'`;

/** Partner data with markup in it is shown as text. */
const escapingSignOn = browserProbe(
  { id: 'sso/escaping', title: 'partner data carrying markup is shown as text, not run as HTML', codes: 0 },
  async (ctx, session, http) => {
    const link = await linkFor(ctx, http, (info) => withCompanyName(info, markup));
    if ('problem' in link) return unjudged([partnerDataEscaped], link);
    const visit = await signOn(session, ctx.platform, link.link, 'escaping');
    const injected = (await frameOf(session.page).locator('#certify-injected').count()) > 0;
    return evaluate(partnerDataEscaped, { ...visit, injected, markup }, undefined);
  },
);

const foreignOrigin = 'http://certify-foreign-host.invalid';

/**
 * The host page served on a foreign origin (Playwright answers for it with the real host page). With
 * the platform's CSP in force the frame must stay empty; with the CSP taken off, a foreign host must
 * still receive no message.
 */
const foreignHostSignOn = browserProbe(
  { id: 'sso/foreign-host', title: "a host on another origin cannot frame the app, and receives none of its messages", codes: 0 },
  async (ctx, session, http) => {
    const rules = [foreignHostCannotFrame, messagesToHostOnly];
    const { context, page } = session;
    const hostPage = new URL(ctx.platform.hostPageUrl);
    await context.route(`${foreignOrigin}/**`, async (route) => {
      const asked = new URL(route.request().url());
      await route.fulfill({ response: await route.fetch({ url: `${hostPage.origin}${asked.pathname}${asked.search}` }) });
    });
    // The platform's pages pass through the test too, so that only their own headers decide whether the
    // foreign host may frame them (Chromium would also refuse a public origin framing a loopback one).
    let stripCsp = false;
    await context.route(`${ctx.platform.origin}/**`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      if (stripCsp) delete headers['content-security-policy'];
      await route.fulfill({ response, headers });
    });
    const links = await Promise.all([linkFor(ctx, http), linkFor(ctx, http)]);
    const problem = links.find((link): link is { problem: string } => 'problem' in link);
    if (problem) return unjudged(rules, problem);
    const [framed, unframed] = links as { link: string }[];
    const foreignHost = (src: string) => hostPageFor(`${foreignOrigin}${hostPage.pathname}${hostPage.search}`, src);

    await page.goto(foreignHost(framed!.link));
    // page.goto waited for the frame's load event: a screen that is not there now never comes.
    const blocked = await observe(page, ctx.platform, { waitMs: 250, quiet: true });
    await session.shoot('foreign-host-framed');

    // Take the frame-ancestors defence away, so only the message's target origin stands between them.
    stripCsp = true;
    await page.goto(foreignHost(unframed!.link));
    const open = await observe(page, ctx.platform, { quiet: true });
    await session.shoot('foreign-host-without-csp');
    return [
      ...evaluate(foreignHostCannotFrame, { framed: blocked.screen, messages: blocked.messages, foreignOrigin }, undefined),
      ...evaluate(messagesToHostOnly, { framed: open.screen, messages: open.messages, foreignOrigin }, undefined),
    ];
  },
);

interface Tampering {
  rule: Rule<Visit>;
  /** Claims to re-sign with the platform's key; needs `platform.mockLinkKey`. */
  forge?: (claims: JWTPayload, now: number) => JWTPayload;
  token?: (token: string) => Promise<string>;
}

const seconds = (ms: number) => Math.floor(ms / 1000);
const tamperings: Tampering[] = [
  { rule: tamperedLinkRules.algNone, token: async (token) => new UnsecuredJWT(decodeJwt(token)).encode() },
  { rule: tamperedLinkRules.wrongKey, token: async (token) => new SignJWT(decodeJwt(token)).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(randomBytes(32)) },
  { rule: tamperedLinkRules.expired, forge: (claims, now) => ({ ...claims, iat: seconds(now) - 900, exp: seconds(now) - 300 }) },
  { rule: tamperedLinkRules.notYetValid, forge: (claims, now) => ({ ...claims, nbf: seconds(now) + 300 }) },
  { rule: tamperedLinkRules.wrongAudience, forge: (claims) => ({ ...claims, aud: 'certify-another-partner' }) },
  { rule: tamperedLinkRules.wrongIssuer, forge: (claims) => ({ ...claims, iss: 'urn:certify:another-issuer' }) },
];
const replayRule = tamperedLinkRules.replay;

/** Mock links the platform must refuse (DESIGN §5), each opened in a page of its own, at once. */
const tamperedLinks = browserProbe(
  { id: 'mock-link/tampered', title: 'tampered, expired, foreign and replayed mock links show the error screen', codes: 0 },
  async (ctx, session, http) => {
    const key = ctx.platform.mockLinkKey === undefined ? undefined : new TextEncoder().encode(ctx.platform.mockLinkKey);
    const forged = async ({ forge, token }: Tampering, link: URL): Promise<URL> => {
      const original = link.searchParams.get('token') ?? '';
      const tampered = token ? await token(original) : await new SignJWT(forge!(decodeJwt(original), Date.now())).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key!);
      const copy = new URL(link);
      copy.searchParams.set('token', tampered);
      return copy;
    };
    const visitIn = async (src: string, shot?: string) => {
      const page = shot === undefined ? await session.context.newPage() : session.page;
      await page.goto(hostPageFor(ctx.platform.hostPageUrl, src));
      const visit = await observe(page, ctx.platform);
      if (shot !== undefined) await session.shoot(shot);
      return visit;
    };
    const cases = tamperings.map(async (tampering): Promise<Finding[]> => {
      const { rule } = tampering;
      if (tampering.forge && !key) return skip([rule], 'the profile has no "platform.mockLinkKey", so the harness cannot sign forged claims');
      const link = await linkFor(ctx, http);
      if ('problem' in link) return unjudged([rule], link);
      const visit = await visitIn((await forged(tampering, new URL(link.link))).href, rule === tamperedLinkRules.expired ? 'mock-link-expired' : undefined);
      return evaluate(rule, visit, undefined);
    });
    const replay = (async (): Promise<Finding[]> => {
      const link = await linkFor(ctx, http);
      if ('problem' in link) return unjudged([replayRule], link);
      const first = await visitIn(link.link);
      if (first.screen === 'error' || first.screen === 'none') return skip([replayRule], `the link was not accepted the first time (it showed ${first.screen})`);
      return evaluate(replayRule, await visitIn(link.link), undefined);
    })();
    return (await Promise.all([...cases, replay])).flat();
  },
);

export const signOnProbes: readonly Probe<BrowserProbeContext>[] = [
  mockLinkSignOn,
  codeSignOn,
  collectSignOn,
  errorSignOn,
  fundingSyncSignOn,
  escapingSignOn,
  foreignHostSignOn,
  tamperedLinks,
];

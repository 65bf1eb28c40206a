import { randomUUID } from 'node:crypto';
import type { Locator } from '@playwright/test';
import { codeIn, codeMarker, withCode } from '../checks/auth-url';
import { authErrorShown } from '../checks/partner-app-messages';
import {
  authUrlAsConfigured,
  cspAdmitsPlatform,
  embedsFreshCode,
  frameSandboxAllowsApp,
  partnerAppRules,
  partnerAppShown,
  platformInFrame,
} from '../checks/partner-app';
import type { EmbedLoad, Embedding } from '../checks/partner-app-embedding';
import { received, type Visit } from '../checks/sign-on-visit';
import { blocked, evaluate, failed, type Finding, type Rule } from '../checks/finding';
import { describeStep, runStep } from './codes';
import { browserProbe, locate, screenTimeoutMs, type Session } from './browser-session';
import { messageOriginFindings } from './partner-app-messages';
import { readLoad, watchLoads, type LoadWatch } from './partner-app-loads';
import type { BrowserProbeContext } from './platform';
import { after, stopped, type Judgement } from './probe';
import { completed } from './executor';

/**
 * The partner's own app (its `partnerApp`): a test user signs in with the profile's steps, then the page that
 * embeds the platform is loaded as a user opens payments, again and again, and every load is judged as the
 * browser saw it: what the page framed, its CSP and sandbox, the document the frame really held and what it
 * showed. At one more load the frame's code is swapped for one the partner never issued, so the platform's
 * sign-on fails for real and its error must show on the page; then the platform's error message is forged
 * through every channel a page can receive from, which the page must ignore.
 */

type PartnerApp = NonNullable<BrowserProbeContext['profile']['partnerApp']>;

async function signIn(session: Session, steps: NonNullable<PartnerApp['login']>): Promise<string | undefined> {
  for (const [index, step] of steps.entries()) {
    try {
      await runStep(session.page, step, screenTimeoutMs);
    } catch (error) {
      return `"partnerApp.login" ${describeStep(step, index, steps.length)} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
  }
  await session.page.waitForLoadState('load').catch(() => undefined);
  return undefined;
}

/** How long the page has to show the platform's error once the message arrived. */
const errorShownWithinMs = 5_000;

/**
 * The page, with its frame's code replaced (on the way out, by the browser) by one nobody issued: the
 * platform refuses it and posts its error to the page, which must show it. The platform's error screen and
 * its message reaching the page are the control: without them the page had nothing to show.
 */
async function authErrorFindings(
  ctx: BrowserProbeContext,
  session: Session,
  load: () => Promise<{ visit: Visit }>,
  shown: Locator,
  cause: Finding | undefined,
): Promise<{ judgement: Judgement; reactionMs?: number }> {
  const authUrl = ctx.platform.codeUrl(codeMarker);
  const unissued = `certify-unissued-${randomUUID()}`;
  const issued = (url: URL) => ![undefined, unissued].includes(codeIn(url.href, authUrl));
  await session.context.route(issued, async (route) => {
    ctx.learn?.([codeIn(route.request().url(), authUrl)!]);
    await route.fulfill({ status: 302, headers: { location: withCode(route.request().url(), authUrl, unissued)!, 'cache-control': 'no-store' } });
  });
  const { visit } = await load().finally(() => session.context.unroute(issued));
  const message = received(visit, 'error')[0];
  const started = Date.now();
  const appeared = message
    ? await shown.waitFor({ timeout: errorShownWithinMs }).then(
        () => true,
        () => false,
      )
    : false;
  const reactionMs = Date.now() - started;
  if (!appeared && cause)
    return { judgement: stopped({ blockedBy: { rule: cause.rule, reason: 'the page itself kept the platform from signing on in its frame' } }) };
  if (visit.screen !== 'error')
    return {
      judgement: stopped({
        notChecked: `the platform showed ${visit.screen === 'none' ? 'no screen it is known by' : `its ${visit.screen} screen`} for a code the partner never issued, not its error screen, so there was no error to show`,
      }),
    };
  if (!message) {
    const page = new URL(session.page.url()).origin;
    const hint =
      page === ctx.platform.hostOrigin
        ? 'the platform posted none'
        : `the page's origin ${page} is not "platform.hostOrigin" (${ctx.platform.hostOrigin}), the origin the platform posts to`;
    return { judgement: stopped({ notChecked: `the platform showed its error screen, but its error message never reached the page: ${hint}` }) };
  }
  return {
    judgement: evaluate(authErrorShown, { shown: appeared, message: message.data, locator: '"partnerApp.authError"', waitedMs: errorShownWithinMs }, undefined),
    ...(appeared ? { reactionMs } : {}),
  };
}

/** A passing finding says how many loads it judged. */
const atLoads = (findings: Finding[], count: number) =>
  findings.map((finding) =>
    finding.outcome === 'passed'
      ? { ...finding, message: `${finding.message} (judged at ${count} load${count === 1 ? '' : 's'})`, params: { loads: count } }
      : finding,
  );

/**
 * The page's rules over every load, one cause one failure: the frame's address, the page's policies and its
 * codes are causes, judged each on its own; the document the frame held and what it showed are consequences,
 * blocked by the first cause that failed.
 */
function pageFindings(embedding: Embedding): Finding[] {
  const { loads, authUrl } = embedding;
  const judge = (rule: Rule<Embedding>, count = loads.length) => atLoads(evaluate(rule, embedding, undefined), count);
  const causes = [authUrlAsConfigured, cspAdmitsPlatform, frameSandboxAllowsApp].flatMap((rule) => judge(rule));
  const coded = loads.filter((load) => codeIn(load.src, authUrl) !== undefined).length;
  const addressFailure = failed(causes).find((finding) => finding.rule === authUrlAsConfigured.id);
  const fresh =
    coded < 2 && addressFailure
      ? blocked([embedsFreshCode], { rule: addressFailure.rule, reason: 'fewer than two loads framed the auth URL, so no codes could be compared' })
      : judge(embedsFreshCode, coded);
  const judged = [...causes, ...fresh];
  for (const [rule, count] of [
    [platformInFrame, loads.length],
    [partnerAppShown, loads.filter((load) => load.purpose === 'sign-on').length],
  ] as const) {
    const cause = failed(judged)[0];
    const findings = judge(rule, count);
    judged.push(
      ...(failed(findings).length > 0 && cause
        ? blocked([rule], { rule: cause.rule, reason: 'the page itself kept the platform from loading in its frame' })
        : findings),
    );
  }
  return judged;
}

export const partnerAppProbe = browserProbe(
  {
    id: 'sign-on/partner-app',
    area: 'sign-on',
    title: "the partner's own page frames the platform's own app with a fresh code at every load, shows its errors, and heeds only its messages",
    rules: partnerAppRules,
    codes: 0,
    profileNeeds: [
      {
        unmet: (profile) =>
          profile.partnerApp ? undefined : 'the profile has no "partnerApp" block (the page of the partner\'s app that embeds the platform)',
      },
    ],
  },
  async (ctx, session) => {
    const app = ctx.profile.partnerApp!;
    const { page } = session;
    const watch: LoadWatch = watchLoads(session.context);
    const loads: EmbedLoad[] = [];
    const element = locate(page, app.frame ?? 'iframe').first();
    const read = async (purpose: EmbedLoad['purpose'], since: number) => {
      const { load, visit } = await readLoad(ctx, watch, { page, element, n: loads.length + 1, purpose, since });
      loads.push(load);
      return { visit };
    };
    const reload = (purpose: EmbedLoad['purpose']) => async () => {
      const since = watch.mark();
      // eslint-disable-next-line no-restricted-syntax -- the profile's own page, reloaded: goto's wait, unchanged
      await page.goto(app.page);
      return read(purpose, since);
    };
    const loginProblem = await signIn(session, app.login ?? []);
    if (loginProblem) return stopped({ notChecked: loginProblem });
    // The login's own landing on the page is the first load, judged once its sign-on ran to its end, so that
    // the next load cannot race it: a page that reuses a code has spent it by then.
    if ((await element.count()) > 0) await read('sign-on', 0);
    while (loads.length < 3) await reload('sign-on')();
    await session.shoot('partner-app');
    const embedding = () => ({ page: app.page, loads, authUrl: ctx.platform.codeUrl(codeMarker), appOrigins: ctx.platform.appOrigins });
    const cause = failed(pageFindings(embedding()))[0];
    if (!app.authError)
      return stopped(
        {
          notChecked:
            'the profile names no "partnerApp.authError", the locator of what the page shows when sign-on failed, so nothing tells whether the page acted on a message',
        },
        pageFindings(embedding()),
      );
    // A frame the page's own fault left empty stays empty: no more loads to wait for.
    if (cause && loads.every((load) => load.screen === 'none'))
      return stopped({ blockedBy: { rule: cause.rule, reason: 'the page itself kept the platform from loading in its frame' } }, pageFindings(embedding()));
    const errorLocator = locate(page, app.authError).first();
    const authError = await authErrorFindings(ctx, session, reload('auth-error'), errorLocator, cause);
    await session.shoot('partner-app-auth-error');
    // The error part speaks for its own rule, whatever it came to: the messages are tried after it all the same.
    const shown = completed([authErrorShown], authError.judgement);
    const errorCause = failed(shown)[0];
    const messages: Judgement = errorCause
      ? stopped({
          blockedBy: {
            rule: errorCause.rule,
            reason: "the page shows nothing for the platform's own error message, so ignoring another origin's proves nothing",
          },
        })
      : await messageOriginFindings(
          {
            ctx,
            page,
            app: { ...app, authError: app.authError },
            watch,
            nextLoad: () => loads.length + 1,
            judged: (load) => loads.push(load),
            ...(authError.reactionMs === undefined ? {} : { reactionMs: authError.reactionMs }),
          },
          cause,
        );
    return after([...pageFindings(embedding()), ...shown], messages);
  },
);

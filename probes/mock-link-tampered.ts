import { randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { decodeJwt } from 'jose/jwt/decode';
import { SignJWT } from 'jose/jwt/sign';
import { UnsecuredJWT } from 'jose/jwt/unsecured';
import { randomUUID } from 'node:crypto';
import type { Profile } from '../profile/profile-schema';
import { screenNames, type Visit } from '../checks/sign-on-visit';
import { tamperedLinkRules } from '../checks/mock-link-landing';
import { evaluate, type Rule } from '../checks/finding';
import { type BrowserProbe } from './platform';
import { stopped, type Judgement } from './probe';
import { completed } from './executor';

import { browserProbe, hostPageFor, observe } from './browser-session';
import { linkFor } from './account-info-links';
import { navigate } from './unrecorded';
interface Tampering {
  rule: Rule<Visit>;
  /** Claims to re-sign with the platform's key; needs `platform.mockLinkKey`. */
  forge?: (claims: JWTPayload, now: number) => JWTPayload;
  token?: (token: string) => Promise<string>;
}

const seconds = (ms: number) => Math.floor(ms / 1000);
const tamperings: Tampering[] = [
  { rule: tamperedLinkRules.algNone, token: async (token) => new UnsecuredJWT(decodeJwt(token)).encode() },
  {
    rule: tamperedLinkRules.wrongKey,
    token: async (token) => new SignJWT(decodeJwt(token)).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(randomBytes(32)),
  },
  { rule: tamperedLinkRules.expired, forge: (claims, now) => ({ ...claims, iat: seconds(now) - 900, exp: seconds(now) - 300 }) },
  { rule: tamperedLinkRules.notYetValid, forge: (claims, now) => ({ ...claims, nbf: seconds(now) + 300 }) },
  { rule: tamperedLinkRules.wrongAudience, forge: (claims) => ({ ...claims, aud: 'certify-another-partner' }) },
  { rule: tamperedLinkRules.wrongIssuer, forge: (claims) => ({ ...claims, iss: 'urn:certify:another-issuer' }) },
];
const replayRule = tamperedLinkRules.replay;
/** Forged claims are signed with the platform's key: without it, their rules do not apply. */
const needsKey = {
  rules: tamperings.filter((tampering) => tampering.forge).map((tampering) => tampering.rule),
  unmet: (profile: Profile) =>
    profile.platform?.mockLinkKey === undefined ? 'the profile has no "platform.mockLinkKey", so the harness cannot sign forged claims' : undefined,
};

/** Mock links the platform must refuse (DESIGN §5), each opened in a page of its own, at once. */
const tamperedLinks = browserProbe(
  {
    id: 'mock-link/tampered',
    area: 'mock-link',
    title: 'tampered, expired, foreign and replayed mock links show the error screen',
    rules: Object.values(tamperedLinkRules),
    codes: 0,
    profileNeeds: [needsKey],
  },
  async (ctx, session, http) => {
    const key = ctx.platform.mockLinkKey === undefined ? undefined : new TextEncoder().encode(ctx.platform.mockLinkKey);
    const forged = async ({ forge, token }: Tampering, link: URL): Promise<URL> => {
      const original = link.searchParams.get('token') ?? '';
      const tampered = token
        ? await token(original)
        : await new SignJWT(forge!(decodeJwt(original), ctx.now().getTime())).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key!);
      const copy = new URL(link);
      copy.searchParams.set('token', tampered);
      return copy;
    };
    // Each link in a browser that holds nothing, as whoever holds a forged or spent link opens it: no session of
    // another visit's may show through (a platform that renders from its session cookie would show that session's app).
    const visitIn = (src: string, shot?: string) =>
      session.inFreshBrowser(async (page) => {
        await navigate(page, hostPageFor(ctx.platform.hostPageUrl, src));
        const visit = await observe(page, ctx.platform);
        if (shot !== undefined) await session.shoot(shot, page);
        return visit;
      });
    // The positive control of every forgery: the same claims re-signed with the key, unchanged but for a new
    // "jti", must be accepted. Otherwise the platform refuses the forgeries for their signature alone, and
    // the rules would pass without the platform having read "exp", "nbf", "aud" or "iss".
    const keyWorks = (async (): Promise<string | undefined> => {
      if (!key) return undefined;
      const link = await linkFor(ctx, http);
      if ('problem' in link) return link.problem;
      const resigned = await visitIn(
        (await forged({ rule: tamperedLinkRules.expired, forge: (claims) => ({ ...claims, jti: randomUUID() }) }, new URL(link.link))).href,
        'mock-link-resigned',
      );
      return resigned.screen === 'app'
        ? undefined
        : `the key in "platform.mockLinkKey" does not sign links this platform accepts: a link re-signed with it, its claims unchanged, showed ${screenNames[resigned.screen]}`;
    })();
    // Each case speaks for its own rule, whatever the others come to.
    const tampered = async (tampering: Tampering): Promise<Judgement> => {
      const { rule } = tampering;
      if (tampering.forge && !key) return []; // its rule does not apply (needsKey)
      const untrusted = tampering.forge ? await keyWorks : undefined;
      if (untrusted) return stopped({ notChecked: untrusted });
      const link = await linkFor(ctx, http);
      if ('problem' in link) return stopped({ notApplicable: link.problem });
      const visit = await visitIn((await forged(tampering, new URL(link.link))).href, rule === tamperedLinkRules.expired ? 'mock-link-expired' : undefined);
      return evaluate(rule, visit, undefined);
    };
    const replayed = async (): Promise<Judgement> => {
      const link = await linkFor(ctx, http);
      if ('problem' in link) return stopped({ notApplicable: link.problem });
      const first = await visitIn(link.link);
      if (first.screen === 'error' || first.screen === 'none')
        return stopped({ notApplicable: `the link was not accepted the first time (it showed ${first.screen})` });
      return evaluate(replayRule, await visitIn(link.link), undefined);
    };
    const cases = tamperings.map(async (tampering) => completed([tampering.rule], await tampered(tampering)));
    return (await Promise.all([...cases, replayed().then((judgement) => completed([replayRule], judgement))])).flat();
  },
);

/** The tampered links run in a browser: the mock-link suite runs them with one. */
export const tamperedLinkProbes: readonly BrowserProbe[] = [tamperedLinks];

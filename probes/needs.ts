import type { AnyRule } from '../checks/finding';
import type { Encoding } from '../checks/token-exchange';
import type { Payload } from '../checks/payload';
import type { Profile } from '../profile/profile-schema';
import { linkFor } from './account-info-links';
import { exchangeCode } from './exchange';
import { codePathBlocker, platformSkipReason, storesTestDataSkipReason, type PlatformContext } from './platform';
import type { Need, ProfileNeed } from './probe';

/**
 * What probes declare they need (probes/executor.ts gets it, or stops them): of the profile, before any call,
 * and at run time, before the body. The kind of a probe declares the rest: the platform (connected) and the
 * browser (launched). A need of one area's alone is declared with it: the data API's first organization
 * (probes/data-api.ts), the mock-link key (probes/mock-link-tampered.ts), the partner's app
 * (probes/partner-app.ts) and the opt-in slow checks (probes/token-hardening.ts).
 */

type Stated = 'clientSecret' | 'fundingSourcesUrl' | 'collectMissingAccountInfo';

/** A field the profile must state, `so` saying what its absence means; for the probe, or only for `rules`. */
export const profileHas = (field: Stated, so: string, rules?: readonly AnyRule[]): ProfileNeed => ({
  unmet: (profile: Profile) => (profile[field] ? undefined : `the profile has no "${field}", so ${so}`),
  ...(rules ? { rules } : {}),
});

/** A "platform" block: every mock-link and browser probe's. */
export const hasPlatform: ProfileNeed = { unmet: platformSkipReason };

/** A platform the harness may store `what` in: the bundled emulator, or one whose profile allows it. */
export const storesTestData = (what: string): ProfileNeed => ({ unmet: (profile) => storesTestDataSkipReason(profile, what) });

/** The worker's exchange issued a token, in some encoding: that encoding and token. Unmet, blocked by why none came, for `reason`. */
export const workerToken = (reason: string): Need<{ encoding: Encoding; token: string }> => ({
  meet: async (ctx) => {
    const exchanged = await ctx.workerExchange();
    if ('blocker' in exchanged) return { stop: { blockedBy: { ...exchanged.blocker, reason } } };
    return { value: { encoding: exchanged.encoding, token: exchanged.token } };
  },
});

/**
 * A fresh code exchanged now, as the platform would (in an encoding that works), its calls in the probe's evidence:
 * the code, the encoding and the token. Unmet, blocked by why no token came (for `reason`, when given).
 */
export const freshToken = (reason?: string): Need<{ code: string; encoding: Encoding; token: string }> => ({
  meet: async (ctx, http) => {
    const code = await ctx.codes.next();
    const exchanged = await exchangeCode(http, ctx.profile, code);
    if ('blocker' in exchanged) return { stop: { blockedBy: reason === undefined ? exchanged.blocker : { ...exchanged.blocker, reason } } };
    return { value: { code, encoding: exchanged.encoding, token: exchanged.token } };
  },
});

/** The platform's own path by code can sign on: the worker's exchange issued a token in the configured encoding. Unmet, blocked by why not. */
export const codePath: Need<true> = {
  meet: async (ctx) => {
    const blocker = await codePathBlocker(ctx);
    return blocker ? { stop: { blockedBy: blocker } } : { value: true };
  },
};

export interface MockLink {
  link: string;
  sent: Payload;
}

/**
 * `count` mock links, made at once, for the sample account information as `edit` changes it (account-info-links.ts).
 * Unmet, not applicable, saying why the platform issued none.
 */
export const mockLinks = (count: number, edit?: (info: Payload) => Payload): Need<MockLink[], PlatformContext> => ({
  meet: async (ctx, http) => {
    const links = await Promise.all(Array.from({ length: count }, () => linkFor(ctx, http, edit)));
    const problem = links.find((link): link is { problem: string } => 'problem' in link);
    return problem ? { stop: { notApplicable: problem.problem } } : { value: links as MockLink[] };
  },
});

/** One mock link, as `mockLinks` makes them. */
export const mockLink = (edit?: (info: Payload) => Payload): Need<MockLink, PlatformContext> => ({
  meet: async (ctx, http) => {
    const got = await mockLinks(1, edit).meet(ctx, http);
    return 'stop' in got ? got : { value: got.value[0]! };
  },
});

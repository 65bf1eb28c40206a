import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Profile } from '../profile/profile-schema';
import { resourceRequest, tokenRequest } from '../client/requests';
import { evaluate, evaluateAll, type Finding } from '../checks/finding';
import { issuedToken, isSuccess, type Encoding } from '../checks/token-exchange';
import { unguessableCodes, unguessableTokens } from '../checks/token-entropy';
import {
  codeExpires,
  codeLifetimeMarginSeconds,
  formatDuration,
  concurrentRedemption,
  raceRounds,
  raceSize,
  type RaceRound,
  credentialsInUriRefused,
  duplicateParamRefused,
  getRefused,
  unknownParamIgnored,
  type DuplicateTrial,
} from '../checks/token-hardening';
import { exchangeCode } from './exchange';
import { jsonResponse } from '../checks/evidence';
import { codeReuseRejected } from '../checks/token-refusals';
import { after, stopped, type Judgement, type Probe, type ProbeContext, type Stopped, type WorkerExchange, withNeeds } from './probe';
import type { Recorder } from '../client/http';
import { profileHas } from './needs';
import { encodingNote, judgeEcho, judgeTransport, perCall, refusalProbe, workerEncoding } from './token-calls';

/** RFC 6749 §2.3.1, §3.2, §4.1.2, §10.10: requests the platform never sends, each the platform's own with one deviation. */

const madeUpCode = () => `certify-unknown-${randomUUID()}`;

const getProbe = refusalProbe(
  { id: 'token-exchange/get', title: 'a GET with the token request in its query string yields no token', rules: [getRefused], codes: 1 },
  async ({ codes }) => ({ code: await codes.next() }),
  ({ response }) => evaluate(getRefused, response, undefined),
  { method: 'GET' },
);

const credentialsInUriProbe = refusalProbe(
  {
    id: 'token-exchange/credentials-in-uri',
    title: 'client credentials in the request URI are not accepted',
    rules: [credentialsInUriRefused],
    codes: 1,
    profileNeeds: [profileHas('clientSecret', 'there are no client credentials to move')],
  },
  async ({ codes }) => ({ code: await codes.next() }),
  ({ response }) => evaluate(credentialsInUriRefused, response, undefined),
  { credentialsInQuery: true },
);

const unknownParamProbe = refusalProbe(
  { id: 'token-exchange/unknown-param', title: 'a parameter the endpoint does not know is ignored', rules: [unknownParamIgnored], codes: 1 },
  async ({ codes }) => ({ code: await codes.next() }),
  ({ response }) => evaluate(unknownParamIgnored, response, undefined),
  { extra: [['certify_unrecognised', randomUUID()]] },
);

/** "code" twice, in both orders, so a server that reads the first value and one that reads the last are both caught. */
const duplicateParamProbe = withNeeds({
  kind: 'http',
  id: 'token-exchange/duplicate-param',
  area: 'token-exchange',
  title: 'a request with "code" twice yields no token',
  rules: [duplicateParamRefused],
  alsoJudges: perCall,
  codes: 1,
  needs: { worker: workerEncoding },
  run: async (ctx, { worker: { encoding } }, http) => {
    // One fresh code serves both orders: a server reads either the first value or the last, so only one order can spend it.
    const [fresh, madeUp] = [await ctx.codes.next(), madeUpCode()];
    const orders = [
      { first: 'fresh', code: fresh, then: madeUp },
      { first: 'made-up', code: madeUp, then: fresh },
    ] as const;
    const answers = await Promise.all(orders.map(({ code, then }) => http.send(tokenRequest(ctx.profile, encoding, { code }, { extra: [['code', then]] }))));
    const calls = answers.map(judgeTransport);
    const findings: Finding[] = [...encodingNote(ctx, encoding), ...calls.flatMap((call) => call.findings)];
    const unusable = calls.find((call): call is Stopped => 'stop' in call);
    if (unusable) return stopped(unusable.stop, findings);
    const trials: DuplicateTrial[] = calls.flatMap((call, i) => ('response' in call ? [{ first: orders[i]!.first, response: call.response }] : []));
    return [...findings, ...judgeEcho(ctx.profile, trials[0]!.response), ...evaluate(duplicateParamRefused, trials, undefined)];
  },
});

/** Codes a mint URL makes cost nothing; a login in the partner's app, or a code listed by hand, does. */
const roundsFor = (profile: Profile) => (profile.codes.mintUrl ? raceRounds.minted : raceRounds.costly);

/**
 * Rounds played at once: their codes are independent, and one round after another would make the run grow
 * with the partner's latency times the rounds. The next wave's codes are asked for while a wave plays, and its
 * races start once this wave's are answered, beside this wave's tokens' use: 40 rounds are 1 + 3 round trips
 * (2 + 2 when each wave waited for the last: 0.64 s per 100 ms of partner latency through the HTTP suites).
 * 20 rounds of 5 keep at most 100 races and a wave's tokens in flight, and 20 code requests.
 */
const raceWave = 20;

/** Each code of a wave sent `raceSize` times at once (`exchanged`: every race answered), then each token that came back tried once (`played`). */
function playWave(ctx: ProbeContext, encoding: Encoding, codes: readonly string[]) {
  const raced = codes.map(async (code) => ({
    code,
    answers: await Promise.all(Array.from({ length: raceSize }, () => ctx.http.send(tokenRequest(ctx.profile, encoding, { code })))),
  }));
  const played = raced.map(async (race) => {
    const { code, answers } = await race;
    const calls = answers.map(judgeTransport);
    const responses = calls.flatMap((call) => ('response' in call ? [call.response] : []));
    const tokens = responses.length < raceSize ? [] : responses.map(issuedToken).filter((token): token is string => token !== undefined);
    const uses = await Promise.all(tokens.map((token) => ctx.http.send(resourceRequest(ctx.profile.accountInfoUrl, token))));
    return { code, answers, calls, responses, tokens, uses };
  });
  const exchanged = Promise.all(raced);
  exchanged.catch(() => undefined); // awaited only when a next wave waits for it; `played` carries any failure
  return { exchanged, played: Promise.all(played) };
}

/**
 * Rounds of one fresh code sent 5 times at once (undici opens a connection per request in flight, so the
 * requests really race); once a round's answers are in, each token that came back is tried on
 * "accountInfoUrl". Rounds are played `raceWave` at a time, and read in order: the verdict stops at the
 * first that yields two working tokens. Every call is learned by the vault (ctx.http); the evidence keeps
 * the first round, the lost one and the first with a 5xx.
 */
async function race(ctx: ProbeContext, http: Recorder, encoding: Encoding): Promise<Judgement> {
  const rounds: RaceRound[] = [];
  const findings: Finding[] = [];
  let echoJudged: Finding[] = [];
  let kept5xx = false;
  const total = roundsFor(ctx.profile);
  const codesFor = (count: number) => Promise.all(Array.from({ length: Math.max(0, count) }, () => ctx.codes.next()));
  let wave = codesFor(Math.min(raceWave, total)).then((codes) => playWave(ctx, encoding, codes));
  try {
    for (let first = 0; first < total; first += raceWave) {
      const playing = await wave;
      const rest = total - first - raceWave;
      if (rest > 0) {
        const codes = codesFor(Math.min(raceWave, rest));
        wave = Promise.all([codes, playing.exchanged]).then(([next]) => playWave(ctx, encoding, next));
      }
      for (const { code, answers, calls, responses, tokens, uses } of await playing.played) {
        const unusable = calls.find((call): call is Stopped => 'stop' in call);
        if (unusable) {
          http.exchanges.push(...answers);
          return stopped(unusable.stop, [...findings, ...calls.flatMap((call) => call.findings)]);
        }
        const round = {
          issued: tokens.length,
          working: uses.filter((use) => use.response && isSuccess(use.response.status)).length,
          serverErrors: responses.filter((response) => response.status >= 500).map((response) => response.status),
        };
        rounds.push(round);
        const telling = rounds.length === 1 || round.working > 1 || (round.serverErrors.length > 0 && !kept5xx);
        if (telling) {
          http.exchanges.push(...answers, ...uses);
          findings.push(...calls.flatMap((call) => call.findings));
          kept5xx ||= round.serverErrors.length > 0;
        }
        if (rounds.length === 1) echoJudged = judgeEcho(ctx.profile, responses[0]!);
        if (round.working > 1) {
          // A code taken again even one request after another is the sequential reuse rule's failure, not a race.
          const again = await http.send(tokenRequest(ctx.profile, encoding, { code }));
          const reason = 'the code is exchanged again even after the race, one request after another';
          if (again.response && issuedToken(jsonResponse(again.response)))
            return stopped({ blockedBy: { rule: codeReuseRejected.id, reason } }, [...findings, ...echoJudged]);
          return [...findings, ...echoJudged, ...evaluate(concurrentRedemption, { sent: raceSize, rounds }, undefined)];
        }
      }
    }
    return [...findings, ...echoJudged, ...evaluate(concurrentRedemption, { sent: raceSize, rounds }, undefined)];
  } finally {
    // A wave started before the verdict was reached ends before the probe does: no request of its outlives it.
    await wave.then((playing) => playing.played).catch(() => undefined);
  }
}

/**
 * Rounds of one fresh code sent 5 times at once (undici opens a connection per request in flight, so the
 * requests really race); once a round's answers are in, each token that came back is tried on
 * "accountInfoUrl". Rounds are played `raceWave` at a time, and read in order: the verdict stops at the
 * first that yields two working tokens. Every call is learned by the vault (ctx.http); the evidence keeps
 * the first round, the lost one and the first with a 5xx.
 */
const concurrentRedemptionProbe = withNeeds({
  kind: 'http',
  id: 'token-exchange/concurrent-redemption',
  area: 'token-exchange',
  title: `one code sent ${raceSize} times at once yields at most one working token, over up to ${raceRounds.minted} rounds`,
  rules: [concurrentRedemption],
  alsoJudges: perCall,
  codes: roundsFor,
  needs: { worker: workerEncoding },
  run: async (ctx, { worker: { encoding } }, http) => after(encodingNote(ctx, encoding), await race(ctx, http, encoding)),
});

const entropySamples = 2;

/** Two fresh codes, the tokens they are exchanged for, and the worker's token: what RFC 6749 §10.10's guessing rules are judged on. */
const unguessableProbe: Probe = {
  kind: 'http',
  id: 'token-exchange/unguessable',
  area: 'token-exchange',
  title: 'codes and access tokens are too long and random to guess',
  rules: [unguessableTokens, unguessableCodes],
  codes: entropySamples,
  run: async (ctx, _met, http) => {
    const codes: string[] = [];
    for (let i = 0; i < entropySamples; i++) codes.push(await ctx.codes.next());
    const exchanged = await Promise.all([...codes.map((code) => exchangeCode(http, ctx.profile, code)), ctx.workerExchange()]);
    const tokens = exchanged.flatMap((e) => ('token' in e ? [e.token] : []));
    const refused = exchanged.find((e): e is Extract<WorkerExchange, { blocker: unknown }> => 'blocker' in e);
    const codeInput = ctx.profile.codes.static
      ? { notApplicable: 'the profile lists its codes by hand ("codes.static"), so they say nothing of how the partner makes codes' }
      : { values: codes };
    const codeFindings = evaluateAll([unguessableCodes], codeInput, undefined);
    if (tokens.length === 0) return stopped({ blockedBy: { ...refused!.blocker, reason: 'no access token was issued to judge' } }, codeFindings);
    return [...evaluate(unguessableTokens, { values: tokens }, undefined), ...codeFindings];
  },
};

const holdSeconds = (profile: Profile) => profile.maxCodeLifetimeSeconds + codeLifetimeMarginSeconds;

/** Opt-in ("slowChecks", or `--slow`): a fresh code held past the lifetime, then redeemed. Ten minutes of waiting, no load. */
const codeLifetimeProbe = refusalProbe(
  {
    id: 'token-exchange/code-lifetime',
    title: 'a code held past its lifetime is refused (opt-in: --slow)',
    rules: [codeExpires],
    codes: 1,
    profileNeeds: [
      {
        unmet: (profile) =>
          profile.slowChecks ? undefined : `opt-in, as it holds a code for ${formatDuration(holdSeconds(profile))}: run with --slow, or set "slowChecks": true`,
      },
    ],
    waitsMs: (profile) => holdSeconds(profile) * 1000,
  },
  async ({ codes, profile }) => {
    const code = await codes.next();
    await sleep(holdSeconds(profile) * 1000);
    return { code };
  },
  ({ response }, { profile }) => evaluate(codeExpires, { heldSeconds: holdSeconds(profile), response }, undefined),
);

export const tokenHardeningProbes: readonly Probe[] = [
  getProbe,
  credentialsInUriProbe,
  duplicateParamProbe,
  unknownParamProbe,
  concurrentRedemptionProbe,
  unguessableProbe,
  codeLifetimeProbe,
];

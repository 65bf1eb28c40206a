import { tokenRequest, type RequestBend, type TokenParams } from '../client/requests';
import { checkTransport } from '../checks/transport';
import { evaluate, type AnyRule, type Finding } from '../checks/finding';
import { tokenTransportRules, type Encoding } from '../checks/token-exchange';
import { schemeOf, type Answered } from '../checks/token-refusals';
import { negativeCasesEncoding } from '../checks/token-encoding';
import { noEchoedCredentials } from '../checks/token-hardening';
import { jsonResponse, type Exchange, type JsonResponse } from '../checks/evidence';
import type { Profile } from '../profile/profile-schema';
import { workerToken } from './needs';
import { after, stopped, withNeeds, type Probe, type ProbeContext, type Stopped } from './probe';

/** What the token probes share: judging a call's transport, sending a negative case, and what every such call judges. */

/** Judges one token call's transport first; without a usable response the probe stops there, blocked by the transport rule that failed. */
export function judgeTransport(exchange: Exchange): { findings: Finding[]; response: JsonResponse } | Stopped {
  const transport = checkTransport(tokenTransportRules, exchange, 'no usable response from "tokenExchangeUrl"');
  if (!transport.usable) return stopped({ blockedBy: transport.blocker }, transport.findings);
  return { findings: transport.findings, response: jsonResponse(exchange.response!) };
}

/** The client secret, when the profile has one: what no token-endpoint answer may carry back. */
export const secretOf = (profile: Profile) => (profile.clientSecret === undefined ? [] : [{ what: 'the client secret', value: profile.clientSecret }]);

/** Whether a token-endpoint answer carries back the client secret (or another value the platform `sent`). */
export const judgeEcho = (profile: Profile, response: JsonResponse, sent = secretOf(profile)) =>
  evaluate(noEchoedCredentials, { response, sent, clientId: profile.clientId }, undefined);

/**
 * A negative case goes in an encoding shown to issue a token (the worker's exchange), so none fails because of
 * the encoding; without such an encoding its rules are blocked.
 */
export const workerEncoding = workerToken('no encoding issued a token, so a refusal could not be told from an unreadable request');

/** The note on the encoding a negative case was sent in. */
export const encodingNote = (ctx: ProbeContext, used: Encoding) =>
  evaluate(negativeCasesEncoding, { configured: ctx.profile.tokenExchangeEncoding, used }, undefined);

/** The rules every negative case judges on its own call, whoever owns them: the call's transport and the note on its encoding. */
export const perCall: readonly AnyRule[] = [...tokenTransportRules, negativeCasesEncoding, noEchoedCredentials];
/** Of a probe's `alsoJudges`, those it answers for: all but the per-call rules. */
export const answeredOf = (alsoJudges: readonly AnyRule[]) => () => alsoJudges.filter((rule) => !perCall.includes(rule));

/** A negative case: one request that must be refused, judged by a refusal rule and its error format. */
export function refusalProbe(
  spec: Omit<Probe, 'kind' | 'area' | 'run' | 'alsoJudges' | 'needs'> & { alsoJudges?: readonly AnyRule[] },
  request: (ctx: ProbeContext) => Promise<TokenParams>,
  judge: (answered: Answered, ctx: ProbeContext) => Finding[],
  bend?: RequestBend,
): Probe {
  const alsoJudges = [...new Set([...perCall, ...(spec.alsoJudges ?? [])])].filter((rule) => !spec.rules.includes(rule));
  return withNeeds({
    ...spec,
    kind: 'http',
    area: 'token-exchange',
    alsoJudges,
    answersFor: answeredOf(alsoJudges),
    needs: { worker: workerEncoding },
    run: async (ctx, { worker }, http) => {
      const sent = tokenRequest(ctx.profile, worker.encoding, await request(ctx), bend);
      const call = judgeTransport(await http.send(sent));
      const judged =
        'stop' in call
          ? call
          : [...call.findings, ...judgeEcho(ctx.profile, call.response), ...judge({ response: call.response, scheme: schemeOf(sent) }, ctx)];
      return after(encodingNote(ctx, worker.encoding), judged);
    },
  });
}

import { tokenRequest, type RequestBend, type TokenParams } from '../client/requests';
import { checkTransport } from '../checks/transport';
import { blocked, evaluate, type AnyRule, type Finding } from '../checks/finding';
import { tokenTransportRules, type Encoding } from '../checks/token-exchange';
import { schemeOf, type Answered } from '../checks/token-refusals';
import { negativeCasesEncoding } from '../checks/token-encoding';
import { noEchoedCredentials } from '../checks/token-hardening';
import { jsonResponse, type Exchange, type JsonResponse } from '../checks/evidence';
import type { Profile } from '../profile/profile-schema';
import { recorded, type Probe, type ProbeContext } from './probe';

/** What the token probes share: judging a call's transport, sending a negative case, and what every such call judges. */

/** Judges one token call's transport first; `judged` is blocked when there is no usable response. */
export function judgeTransport(exchange: Exchange, judged: readonly AnyRule[]) {
  const transport = checkTransport(tokenTransportRules, exchange, 'no usable response from "tokenExchangeUrl"');
  if (!transport.usable) return { findings: [...transport.findings, ...blocked(judged, transport.blocker)] };
  return { findings: transport.findings, response: jsonResponse(exchange.response!) };
}

/** The client secret, when the profile has one: what no token-endpoint answer may carry back. */
export const secretOf = (profile: Profile) => (profile.clientSecret === undefined ? [] : [{ what: 'the client secret', value: profile.clientSecret }]);

/** Whether a token-endpoint answer carries back the client secret (or another value the platform `sent`). */
export const judgeEcho = (profile: Profile, response: JsonResponse, sent = secretOf(profile)) =>
  evaluate(noEchoedCredentials, { response, sent, clientId: profile.clientId }, undefined);

/**
 * A negative case goes in an encoding shown to issue a token (the worker's exchange), so none fails
 * because of the encoding; a note says which. Without such an encoding its rules are blocked.
 */
export async function negativeCase(ctx: ProbeContext, judged: readonly AnyRule[], body: (encoding: Encoding) => Promise<Finding[]>): Promise<Finding[]> {
  const exchanged = await ctx.workerExchange();
  if ('blocker' in exchanged)
    return blocked(judged, { ...exchanged.blocker, reason: 'no encoding issued a token, so a refusal could not be told from an unreadable request' });
  const note = evaluate(negativeCasesEncoding, { configured: ctx.profile.tokenExchangeEncoding, used: exchanged.encoding }, undefined);
  return [...note, ...(await body(exchanged.encoding))];
}

/** The rules every negative case judges on its own call, whoever owns them: the call's transport and the note on its encoding. */
export const perCall: readonly AnyRule[] = [...tokenTransportRules, negativeCasesEncoding, noEchoedCredentials];
/** What a negative case blocks when no encoding issued a token, or its call got no usable answer: everything but its per-call rules. */
export const judgedBy = (probe: Pick<Probe, 'rules' | 'alsoJudges'>) => [...probe.rules, ...(probe.alsoJudges ?? [])].filter((rule) => !perCall.includes(rule));

/** A negative case: one request that must be refused, judged by a refusal rule and its error format. */
export function refusalProbe(
  spec: Omit<Probe, 'kind' | 'area' | 'run' | 'alsoJudges'> & { alsoJudges?: readonly AnyRule[] },
  request: (ctx: ProbeContext) => Promise<TokenParams>,
  judge: (answered: Answered, ctx: ProbeContext) => Finding[],
  bend?: RequestBend,
): Probe {
  const probe = {
    ...spec,
    kind: 'http' as const,
    area: 'token-exchange' as const,
    alsoJudges: [...new Set([...perCall, ...(spec.alsoJudges ?? [])])].filter((rule) => !spec.rules.includes(rule)),
  };
  const judged = judgedBy(probe);
  return {
    ...probe,
    run: (ctx) =>
      recorded(ctx, (http) =>
        negativeCase(ctx, [...new Set([...probe.rules, ...judged])], async (encoding) => {
          const sent = tokenRequest(ctx.profile, encoding, await request(ctx), bend);
          const call = judgeTransport(await http.send(sent), judged);
          return call.response
            ? [...call.findings, ...judgeEcho(ctx.profile, call.response), ...judge({ response: call.response, scheme: schemeOf(sent) }, ctx)]
            : call.findings;
        }),
      ),
  };
}

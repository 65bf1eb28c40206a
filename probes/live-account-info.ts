import { jsonObject, jsonResponse } from '../checks/evidence';
import type { Blocker } from '../checks/finding';
import type { Payload } from '../checks/payload';
import { accountInfoResource } from '../checks/resources';
import { checkTransport } from '../checks/transport';
import type { HttpClient } from '../client/http';
import { resourceRequest } from '../client/requests';
import type { ProbeContext } from './probe';

/** The partner's live account information, read with a token: the payload, or the failed rule that kept it away. */
export type LiveAccountInfo = { payload: Payload } | { blocker: Blocker };

/** The account information the partner serves for the token of the worker's exchange. */
export async function liveAccountInfo(http: HttpClient, ctx: ProbeContext): Promise<LiveAccountInfo> {
  const exchanged = await ctx.workerExchange();
  if ('blocker' in exchanged) return { blocker: { ...exchanged.blocker, reason: 'no access token was issued to read the account information with' } };
  const answer = await http.send(resourceRequest(ctx.profile.accountInfoUrl, exchanged.token));
  const reason = 'the partner served no account information';
  const transport = checkTransport(accountInfoResource.transport, answer, reason);
  if (!transport.usable) return { blocker: transport.blocker };
  const payload = answer.response!.status === 200 ? jsonObject(jsonResponse(answer.response!)) : undefined;
  return payload
    ? { payload }
    : { blocker: { rule: answer.response!.status === 200 ? accountInfoResource.bodyJson.id : accountInfoResource.status.id, reason } };
}

/** Memoizes the live account information, read with the worker's token. */
export function accountInfoOnce(http: HttpClient, ctx: ProbeContext): () => Promise<LiveAccountInfo> {
  let fetched: Promise<LiveAccountInfo> | undefined;
  return () => (fetched ??= liveAccountInfo(http, ctx));
}

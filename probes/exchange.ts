import { tokenRequest } from '../client/requests';
import { grantsToken, otherEncoding } from '../checks/token-exchange';
import { tokenBlocker } from '../checks/token-response';
import { issuedToken } from '../checks/token-exchange';
import { jsonResponse } from '../checks/evidence';
import type { Profile } from '../profile/profile-schema';
import type { HttpClient } from '../client/http';
import { type ProbeContext, type WorkerExchange } from './probe';

/**
 * Exchanges a code as the platform would, in the configured encoding. When that issues no token and was
 * refused, the same code is sent in the other encoding: a body the partner could not read spent no code,
 * and a token that way shows an encoding that works, for the requests that only need one.
 */
export async function exchangeCode(http: HttpClient, profile: Profile, code: string): Promise<WorkerExchange> {
  const configured = profile.tokenExchangeEncoding;
  const first = await http.send(tokenRequest(profile, configured, { code }));
  const answered = first.response && jsonResponse(first.response);
  const firstToken = answered && issuedToken(answered);
  if (firstToken) return { exchanges: [first], encoding: configured, token: firstToken };
  if (!answered || grantsToken(answered) || answered.status < 400) return { exchanges: [first], blocker: tokenBlocker(first) };
  const other = await http.send(tokenRequest(profile, otherEncoding(configured), { code }));
  const otherToken = other.response && issuedToken(jsonResponse(other.response));
  return otherToken
    ? { exchanges: [first, other], encoding: otherEncoding(configured), token: otherToken }
    : { exchanges: [first, other], blocker: tokenBlocker(first) };
}

/** One exchange per worker, memoized: an encoding shown to issue a token, and that token (the live account information reads with it). */
export function workerExchangeOnce(http: HttpClient, ctx: Pick<ProbeContext, 'profile' | 'codes'>): () => Promise<WorkerExchange> {
  let exchanged: Promise<WorkerExchange> | undefined;
  return () => (exchanged ??= ctx.codes.next().then((code) => exchangeCode(http, ctx.profile, code)));
}

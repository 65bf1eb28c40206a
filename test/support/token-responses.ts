import { jsonResponse, type JsonResponse } from '../../checks/evidence';
import { evaluate, type Finding, type Rule } from '../../checks/finding';

/** What the token-exchange rule tests share: a token endpoint's answer as the client records it, and a rule's verdicts on an input. */

export const response = (status: number, body: unknown, headers: Record<string, string> = {}): JsonResponse =>
  jsonResponse({
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    bytes: 0,
  });

export const good = { access_token: 'tok-123', token_type: 'Bearer', expires_in: 3600 };
export const outcomes = <I>(rule: Rule<I>, input: I) => evaluate(rule, input, undefined).map((f) => f.outcome);
export const messages = <I>(rule: Rule<I>, input: I) => evaluate(rule, input, undefined).map((f) => f.message);
export const byRule = (findings: Finding[]) => Object.fromEntries(findings.map((f) => [f.rule, f.outcome]));
export const client = { clientId: 'platform', clientSecret: 'platform-secret' };
export const trial = (encoding: 'json' | 'form', answer: JsonResponse, other?: JsonResponse) => ({
  encoding,
  response: answer,
  client,
  ...(other ? { other } : {}),
});

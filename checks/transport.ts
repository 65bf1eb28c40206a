import type { Exchange, TransportFailureKind } from './evidence';
import { evaluateAll, failed, firstFailure, type Blocker, type Finding, type Owner, type Rule } from './finding';

const securityFailures: ReadonlySet<TransportFailureKind> = new Set(['tls', 'plain-http']);

/** A transport failure named as it came, by the TLS rule when it is a security failure and by the transport rule otherwise. */
const failureNamed =
  (urlField: string, { security }: { security: boolean }) =>
  ({ failure }: Exchange) =>
    failure && securityFailures.has(failure.kind) === security ? [{ code: failure.kind, message: `"${urlField}": ${failure.message}` }] : [];

/** The kinds of transport rule each endpoint has, the last part of their ids. */
export type TransportKind = 'transport' | 'tls' | 'redirect' | 'rate-limit';

/** One endpoint's transport rule of a kind, from its `transportRules`. */
export const transportRule = (rules: readonly Rule<Exchange>[], kind: TransportKind): Rule<Exchange> => rules.find((rule) => rule.id.endsWith(`/${kind}`))!;

/**
 * Rules every call to a partner endpoint must pass before its content can be judged: a complete
 * response arrived in time, and it is not a redirect (the platform never follows one).
 */
export function transportRules(endpoint: string, urlField: string, owner: Owner): Rule<Exchange>[] {
  return [
    {
      id: `${endpoint}/transport`,
      owner,
      field: urlField,
      clause: 'harness §transport',
      level: 'MUST',
      requirement: 'a complete HTTP response arrives within "requestTimeoutMs"',
      impact: 'the platform gives up on the call and the user cannot sign in',
      must: { signOn: 'a call that gets no complete answer in time is a sign-on that fails' },
      // A refused handshake or plain http:// in production is the TLS rule's to name.
      check: failureNamed(urlField, { security: false }),
    },
    {
      id: `${endpoint}/tls`,
      owner,
      field: urlField,
      clause: 'RFC6749 §1.6',
      level: 'MUST',
      requirement: 'an https:// endpoint negotiates TLS 1.2 or 1.3 with a certificate valid for its host name, and a production profile calls https:// only',
      impact: "codes, client secrets, tokens and the user's data cross the network where others can read or alter them",
      levelWhy: 'RFC 6749 §3.2 requires TLS for the token endpoint (and §1.6 a version in current use); RFC 9325 §3.1.1 says TLS 1.0 and 1.1 MUST NOT be used',
      must: { othersIn: 'without TLS, anyone on the path reads or alters codes, secrets, tokens and data' },
      check: failureNamed(urlField, { security: true }),
    },
    {
      id: `${endpoint}/redirect`,
      owner,
      field: urlField,
      clause: 'RFC9110 §15.4',
      level: 'MUST',
      requirement: 'the endpoint answers at the configured URL, without a redirect',
      impact: 'the platform does not follow redirects, so the user cannot sign in',
      must: { signOn: 'the platform does not follow a redirect: the call fails' },
      check: ({ request, response }) => {
        if (!response || response.status < 300 || response.status > 399) return [];
        const location = response.headers.location;
        return [
          {
            code: 'redirect',
            params: { status: response.status },
            message: `"${urlField}" answered ${response.status} redirecting ${whereTo(request.url, location)}; the platform never follows redirects, so configure the final URL`,
          },
        ];
      },
    },
    {
      id: `${endpoint}/rate-limit`,
      owner,
      field: urlField,
      clause: 'RFC6585 §4',
      level: 'MUST',
      requirement: 'the platform\'s calls are answered, not throttled: at most one short "Retry-After" (5 s or less) per endpoint, waited out once',
      impact: 'the platform does not wait and retry during a sign-on: a throttled call is a user who cannot sign in',
      levelWhy: 'one short wait is forgiven (and noted) so a burst limit met during certification does not fail it',
      must: { signOn: 'a throttled sign-on call fails a user: the platform does not wait and retry' },
      check: ({ response, rateLimited }) => {
        const limited = rateLimited ?? (response?.status === 429 ? { status: 429, retryAfter: '(none)' } : undefined);
        if (!limited) return [];
        const answered = `"${urlField}" answered ${limited.status} with "Retry-After: ${limited.retryAfter}"`;
        if (limited.waitedMs !== undefined && response?.status !== 429 && !(response?.status === 503 && response.headers['retry-after'] !== undefined)) {
          return [
            {
              code: 'waited',
              params: { status: limited.status, waitedMs: limited.waitedMs },
              outcome: 'info',
              message: `${answered}; the harness waited ${limited.waitedMs / 1000} s, once, and the retry was answered. The platform itself does not wait: exempt its client from the limit`,
            },
          ];
        }
        const why =
          limited.waitedMs !== undefined
            ? `, and again ${response!.status} after the harness waited ${limited.waitedMs / 1000} s`
            : limited.refused === 'again'
              ? ' a second time, after the harness had already waited once for this endpoint'
              : limited.retryAfter === '(none)'
                ? ''
                : ', longer than the 5 s the harness waits';
        return [
          {
            code: 'rate-limited',
            params: { status: limited.status, retryAfter: limited.retryAfter },
            message: `${answered.replace('with "Retry-After: (none)"', 'without "Retry-After"')}${why}; the platform's calls during a sign-on must not be throttled: raise the limit for the platform's client, at least while it certifies`,
          },
        ];
      },
    },
  ];
}

/** Where a redirect points, named: to itself (a loop a follower never leaves), or to another host (which a follower of a 307 would hand the request body, code and secret). */
function whereTo(from: string, location: string | undefined): string {
  if (location === undefined) return 'without a Location header';
  if (!URL.canParse(location, from)) return `to ${JSON.stringify(location)}, which is not a URL`;
  const to = new URL(location, from);
  if (to.href === new URL(from).href) return `to itself (${location}), a redirect loop`;
  if (to.host !== new URL(from).host)
    return `to another host, ${to.host} (${location}); a client that followed it would send that host the request, code and secret included`;
  return `to ${location}`;
}

/**
 * Runs the transport rules; `usable` is false when the response cannot be judged any further, and then
 * `blocker` names the transport rule that failed, for the rules this call was to feed.
 */
export function checkTransport(
  rules: readonly Rule<Exchange>[],
  exchange: Exchange,
  reason = 'no usable response',
): { findings: Finding[]; usable: true } | { findings: Finding[]; usable: false; blocker: Blocker } {
  const findings = evaluateAll(rules, exchange, undefined);
  if (failed(findings).length === 0 && exchange.response !== undefined) return { findings, usable: true };
  return { findings, usable: false, blocker: firstFailure(findings, reason) ?? { rule: rules[0]!.id, reason } };
}

import type { Exchange } from './evidence';
import { evaluateAll, failed, type Finding, type Rule } from './finding';

/**
 * Rules every call to a partner endpoint must pass before its content can be judged: a complete
 * response arrived in time, and it is not a redirect (the platform never follows one).
 */
export function transportRules(endpoint: string, urlField: string): Rule<Exchange>[] {
  return [
    {
      id: `${endpoint}/transport`,
      field: urlField,
      clause: 'harness §transport',
      level: 'MUST',
      requirement: 'a complete HTTP response arrives within "requestTimeoutMs"',
      impact: 'the platform gives up on the call and the user cannot sign in',
      check: (exchange) => (exchange.failure ? [{ message: `"${urlField}": ${exchange.failure.message}` }] : []),
    },
    {
      id: `${endpoint}/redirect`,
      field: urlField,
      clause: 'RFC9110 §15.4',
      level: 'MUST',
      requirement: 'the endpoint answers at the configured URL, without a redirect',
      impact: 'the platform does not follow redirects, so the user cannot sign in',
      check: ({ response }) => {
        if (!response || response.status < 300 || response.status > 399) return [];
        const location = response.headers.location ?? '(no Location header)';
        return [
          {
            message: `"${urlField}" answered ${response.status} redirecting to ${location}; the platform never follows redirects, so configure the final URL`,
          },
        ];
      },
    },
  ];
}

/** Runs the transport rules; `usable` is false when the response cannot be judged any further. */
export function checkTransport(rules: readonly Rule<Exchange>[], exchange: Exchange): { findings: Finding[]; usable: boolean } {
  const findings = evaluateAll(rules, exchange, undefined);
  return { findings, usable: failed(findings).length === 0 && exchange.response !== undefined };
}

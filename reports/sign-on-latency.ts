import type { Exchange } from '../checks/evidence';
import type { Certification } from './certification-schema';

/** The latency of the partner's sign-on endpoints, as the platform's calls to them took during the run. */

/** Nearest-rank percentile. */
const percentile = (sorted: readonly number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** The endpoints the platform calls during sign-on: the partner's own latency, which the report tabulates. */
const signOnEndpoints = ['token exchange', 'account information', 'funding sources'];

/** The exchanges with the partner's sign-on endpoints, by their name. */
export function signOnCalls(exchanges: readonly Exchange[], targets: Record<string, string>): [string, Exchange][] {
  const named = new Map(
    Object.entries(targets)
      .filter(([name]) => signOnEndpoints.includes(name))
      .map(([name, url]) => [endpointKey(url), name]),
  );
  return exchanges.flatMap((exchange): [string, Exchange][] => {
    const name = named.get(endpointKey(exchange.request.url));
    return name ? [[name, exchange]] : [];
  });
}

/** The most exchanges in flight at one time. */
export function mostAtOnce(exchanges: readonly Exchange[]): number {
  const edges = exchanges.flatMap(({ startedAt, durationMs }) => {
    const start = Date.parse(startedAt);
    return Number.isNaN(start)
      ? []
      : [
          [start, 1],
          [start + durationMs, -1],
        ];
  });
  edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let now = 0;
  let most = 0;
  for (const [, step] of edges) most = Math.max(most, (now += step!));
  return most;
}

export function latencyOf(calls: readonly [string, Exchange][]): Certification['latency'] {
  const durations = new Map<string, number[]>();
  for (const [name, { durationMs }] of calls) durations.set(name, [...(durations.get(name) ?? []), Math.round(durationMs)]);
  return [...durations].map(([endpoint, all]) => {
    const sorted = all.sort((a, b) => a - b);
    return { endpoint, requests: sorted.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1)! };
  });
}

function endpointKey(url: string): string {
  try {
    const { host, pathname } = new URL(url);
    return `${host}${pathname}`;
  } catch {
    return url;
  }
}

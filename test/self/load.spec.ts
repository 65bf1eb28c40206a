import { expect, test } from '@playwright/test';
import { loadEmulator } from '../../scripts/load';

/**
 * A short, bounded autocannon run on loopback (npm run bench runs the long one): under concurrent load the
 * mock-link → auth flow and data-API pages answer every request, with no error and no 5xx. It measures
 * throughput but asserts none: speed is the bench's business.
 */
test('under load the mock-link → auth flow and data-API pages answer every request: no error, no non-2xx, no 5xx', async () => {
  const results = await loadEmulator({ durationS: 2, connections: 10 });
  for (const result of results) {
    expect(result.requests, result.label).toBeGreaterThan(10); // some load, however busy the machine: speed is not judged here
    expect({ errors: result.errors, non2xx: result.non2xx, server5xx: result.server5xx }, result.label).toEqual({ errors: 0, non2xx: 0, server5xx: 0 });
  }
  console.log(
    results.map((r) => `${r.label}: ${r.requests} requests, ${r.requestsPerSecond}/s, p99 ${r.p99Ms} ms, ${r.errors} errors, ${r.server5xx} 5xx`).join('\n'),
  );
});

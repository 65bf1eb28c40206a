import { platformProbeTest, probeDetails, test } from '../fixtures/harness';
import { mockLinkProbes } from '../probes/mock-link';

test.describe('sandbox mock link (spec §4.3, §5.4)', () => {
  for (const probe of mockLinkProbes) test(probe.title, probeDetails(probe), platformProbeTest(probe));
});

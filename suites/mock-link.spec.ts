import { browserProbeTest, platformProbeTest, probeDetails, test } from '../fixtures/harness';
import { mockLinkProbes } from '../probes/mock-link';
import { tamperedLinkProbes } from '../probes/mock-link-tampered';

test.describe('sandbox mock link (spec §4.3, §5.4)', () => {
  for (const probe of mockLinkProbes) test(probe.title, probeDetails(probe), platformProbeTest(probe));
  // Tampered links are opened in a browser context of their own, inside the host page.
  for (const probe of tamperedLinkProbes) test(probe.title, probeDetails(probe), browserProbeTest(probe));
});

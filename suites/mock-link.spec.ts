import { probeDetails, probeTest, test } from '../fixtures/harness';
import { mockLinkProbes } from '../probes/mock-link';
import { tamperedLinkProbes } from '../probes/mock-link-tampered';

// Tampered links are opened in a browser context of their own, inside the host page.
test.describe('sandbox mock link (spec §4.3, §5.4)', () => {
  for (const probe of [...mockLinkProbes, ...tamperedLinkProbes]) test(probe.title, probeDetails(probe), probeTest(probe));
});

import { probeDetails, probeTest, test } from '../fixtures/harness';
import { signOnProbes } from '../probes/sign-on';

// Each probe opens a browser context of its own, inside the host page that stands in for the partner's app.
test.describe('sign-on in the browser (spec §1, §4.2, §7)', () => {
  for (const probe of signOnProbes) test(probe.title, probeDetails(probe), probeTest(probe));
});

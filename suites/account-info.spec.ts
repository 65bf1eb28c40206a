import { probeDetails, probeTest, test } from '../fixtures/harness';
import { accountInfoProbes } from '../probes/resources';

test.describe('account information (spec §2.3, §4.2)', () => {
  for (const probe of accountInfoProbes) test(probe.title, probeDetails(probe), probeTest(probe));
});

import { probeDetails, probeTest, test } from '../fixtures/harness';
import { fundingSourcesProbes } from '../probes/resources';

test.describe('funding sources (spec §2.4, §4.2)', () => {
  for (const probe of fundingSourcesProbes) test(probe.title, probeDetails(probe), probeTest(probe));
});

import { probeDetails, probeTest, test } from '../fixtures/harness';
import { dataApiProbes } from '../probes/data-api';

test.describe('read-only data API (spec §2.2, §4.1, §5.1)', () => {
  for (const probe of dataApiProbes) test(probe.title, probeDetails(probe), probeTest(probe));
});

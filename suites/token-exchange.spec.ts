import { probeDetails, probeTest, test } from '../fixtures/harness';
import { tokenExchangeProbes } from '../probes/token-exchange';

test.describe('token exchange (spec §4.2, RFC 6749)', () => {
  for (const probe of tokenExchangeProbes) test(probe.title, probeDetails(probe), probeTest(probe));
});

import { expect, test } from '@playwright/test';
import { notPassing, type Finding } from '../../checks/finding';
import { runProbes } from '../../probes/certification';
import { tokenExchangeProbes } from '../../probes/token-exchange';
import { faultCatalogue, faultNames, type Fault } from '../../sandbox/reference-partner/faults';
import { referenceProfile } from '../support/profiles';
import { startReferencePartner } from '../support/sandbox';
import { expectedFailures } from './expected-failures';

let partner: Awaited<ReturnType<typeof startReferencePartner>>;
test.beforeAll(async () => (partner = await startReferencePartner()));
test.afterAll(() => partner.close());

/** Runs every token-exchange probe against the reference partner with `faults` on, all at once. */
async function certify(faults: readonly Fault[]): Promise<Finding[]> {
  const results = await runProbes(referenceProfile(partner.origin, faults), tokenExchangeProbes);
  return results.flatMap((result) => result.findings);
}

const raised = (findings: Finding[]) => [...new Set(notPassing(findings).map((f) => f.rule))].sort();

test('the conformant reference partner raises nothing, and every rule is exercised', async () => {
  const findings = await certify([]);
  expect(notPassing(findings)).toEqual([]);
  expect(findings.filter((f) => f.outcome === 'skipped')).toEqual([]);
});

test('every token-exchange fault is caught by exactly its rules', async () => {
  const results = await Promise.all(faultNames.map(async (fault) => ({ fault, findings: await certify([fault]) })));
  let caught = 0;
  const faults = results.filter(({ fault }) => !('conformant' in faultCatalogue[fault]));
  for (const { fault, findings } of results) {
    const expected = expectedFailures[fault].map((rule) => rule.id).sort();
    await test.step(`${fault} → ${expected.join(', ') || 'nothing (conformant variant)'}`, () => {
      expect.soft(raised(findings), `fault "${fault}"`).toEqual(expected);
    });
    if (expected.length > 0 && JSON.stringify(raised(findings)) === JSON.stringify(expected)) caught++;
  }
  console.log(`faults caught: ${caught}/${faults.length}`);
  expect(caught).toBe(faults.length);
});

test('a failure message names the field or behaviour in quotes', async () => {
  const faults = faultNames.filter((fault) => expectedFailures[fault].length > 0);
  const findings = (await Promise.all(faults.map((fault) => certify([fault])))).flat();
  for (const finding of notPassing(findings)) expect(finding.message, finding.rule).toMatch(/"[^"]+"/);
});

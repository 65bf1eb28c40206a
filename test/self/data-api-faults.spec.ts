import { expect, test } from '@playwright/test';
import { lastPageEnds, noDuplicates, organizationFilter, walksAgree } from '../../checks/data-api';
import { filterRequired, invalidTokenRefused, missingTokenRefused } from '../../checks/data-api-refusals';
import { notPassing, type Finding, type AnyRule } from '../../checks/finding';
import { runProbes } from '../../probes/certification';
import { dataApiProbes } from '../../probes/data-api';
import { dataApiFaultNames, type DataApiFault } from '../../sandbox/platform/faults';
import { platformSandbox } from '../../sandbox/platform/server';
import { referenceProfile } from '../support/profiles';
import { startPlatform } from '../support/sandbox';
import type { Profile } from '../../profile/profile-schema';

/** The rules each data-API fault of the emulator must trip, and no others. */
const expectedFailures: Record<DataApiFault, AnyRule[]> = {
  'cursor-off-by-one': [walksAgree],
  'duplicate-at-page-boundary': [noDuplicates],
  'has-more-on-last-page': [lastPageEnds],
  'ignores-organization-filter': [organizationFilter],
  'ignores-auth': [missingTokenRefused, invalidTokenRefused],
};

let platform: Awaited<ReturnType<typeof startPlatform>>;
test.beforeAll(async () => (platform = await startPlatform()));
test.afterAll(() => platform.close());

async function check(faults: readonly DataApiFault[], choices: Partial<NonNullable<Profile['dataApi']>> = {}): Promise<Finding[]> {
  const baseUrl = `${platform.origin}${faults.length > 0 ? `/faults/${faults.join(',')}` : ''}`;
  // The data API needs no partner: the profile's partner URLs are never called.
  const profile = { ...referenceProfile('http://127.0.0.1:9'), dataApi: { baseUrl, token: platformSandbox.dataApiToken, ...choices } };
  return (await runProbes(profile, dataApiProbes)).flatMap((result) => result.findings);
}

const raised = (findings: Finding[]) => [...new Set(notPassing(findings).map((f) => f.rule))].sort();

test('the conformant data API passes every rule, none skipped', async () => {
  const findings = await check([]);
  expect(notPassing(findings).map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
  expect(findings.filter((f) => f.outcome === 'skipped')).toEqual([]);
  expect(findings.map((f) => f.rule)).toContain(filterRequired.id);
});

test("a platform's own choices, stated in the profile, are its requirements: the emulator, said to clamp and to answer an unknown cursor with an empty page, fails those rules; said to need no filter, that rule does not apply", async () => {
  const findings = await check([], { overLimit: 'clamped', unknownCursor: 'empty', filterRequired: false, idsEncodings: ['comma'] });
  expect(raised(findings)).toEqual(['data-api/params/after', 'data-api/params/limit']);
  expect(findings.filter((f) => f.rule === 'data-api/filter/required').map((f) => f.outcome)).toEqual(['skipped']);
  expect(findings.filter((f) => f.rule === 'data-api/filter/ids').map((f) => f.outcome)).toEqual(['passed']);
});

test('every data-API fault is caught by exactly its rules', async () => {
  let caught = 0;
  for (const fault of dataApiFaultNames) {
    const expected = expectedFailures[fault].map((rule) => rule.id).sort();
    const findings = await check([fault]);
    await test.step(`${fault} → ${expected.join(', ')}`, () => expect.soft(raised(findings), `fault "${fault}"`).toEqual(expected));
    if (JSON.stringify(raised(findings)) === JSON.stringify(expected)) caught++;
  }
  console.log(`data-API faults caught: ${caught}/${dataApiFaultNames.length}`);
  expect(caught).toBe(dataApiFaultNames.length);
});

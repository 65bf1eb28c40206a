import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { AnyRule } from '../../checks/finding';
import { invalidTokenRefused, missingTokenRefused } from '../../checks/data-api-refusals';
import { linkClaims } from '../../checks/mock-link';
import { landingFrameAncestors, tamperedLinkRules } from '../../checks/mock-link-landing';
import { collectionScreenShown } from '../../checks/sign-on-collect';
import { foreignHostCannotFrame, fundingSynced, messagesToHostOnly, partnerDataEscaped } from '../../checks/sign-on';
import type { Certification } from '../../reports/certification';
import { FAULTS } from '../../sandbox/harbor/faults';
import { runPlaywright } from '../support/run-playwright';
import { tempDir } from '../support/temp';

/**
 * Harbor (sandbox/harbor), a third platform written from the spec alone by someone who never read the harness,
 * with a profile written from the README (partners/reference-harbor.json): the partner's verdict is what it is
 * through the emulator, Harbor conforms, and each of its faults shows in the platform's section only.
 */

/** The rules each Harbor fault must trip, and no others; every one of them the platform's. */
const expected: Partial<Record<keyof typeof FAULTS, AnyRule[]>> = {
  'targets-any-origin': [messagesToHostOnly],
  'frameable-anywhere': [landingFrameAncestors, foreignHostCannotFrame],
  'reusable-links': [tamperedLinkRules.replay],
  'data-api-open': [missingTokenRefused, invalidTokenRefused],
  'renders-markup': [partnerDataEscaped],
  'skips-collection': [collectionScreenShown],
  'long-lived-links': [linkClaims],
  // Judged through the reference partner's hook (fundingSync.mintUrl), on Harbor's own wallet screen.
  'keeps-removed-sources': [fundingSynced],
};

const read = (out: string, name: string) => JSON.parse(readFileSync(path.join(out, 'certification', name, 'certification.json'), 'utf8')) as Certification;
const partnerOutcomes = (cert: Certification) => cert.rules.filter((rule) => rule.owner === 'partner').map((rule) => `${rule.id}: ${rule.outcome}`);

test('the reference partner through Harbor gets the verdict and findings it gets through the emulator, and Harbor conforms', async () => {
  test.setTimeout(300_000);
  const run = await runPlaywright(['--project=reference', '--project=reference-harbor'], {});
  const [emulator, harbor] = [read(run.out, 'reference'), read(run.out, 'reference-harbor')];
  console.log(`${harbor.summary}\n  Harbor: ${harbor.platform?.summary}`);
  expect(harbor.verdict).toBe('CERTIFIED');
  expect(partnerOutcomes(harbor)).toEqual(partnerOutcomes(emulator));
  expect(harbor.platform?.verdict, harbor.platform?.summary).toBe('CONFORMS');
  // Its own choices stated in the profile (dataApi.idsWithOrganization among them): no warning is left.
  expect(harbor.platform?.counts.warning, harbor.platform?.summary).toBe(0);
  expect(harbor.rules.filter((rule) => rule.owner === 'platform' && rule.outcome === 'failed').map((rule) => rule.id)).toEqual([]);
  // Spec §4.2's removal rule, on a platform the harness did not write: judged, and passed.
  expect(harbor.rules.find((rule) => rule.id === fundingSynced.id)?.outcome).toBe('passed');
  expect(run.code).toBe(0);
});

test("each of Harbor's faults fails exactly its platform rules; the reference partner stays CERTIFIED with the same findings", async () => {
  test.setTimeout(300_000);
  for (const rules of Object.values(expected)) expect(rules.filter((rule) => rule.owner !== 'platform').map((rule) => rule.id)).toEqual([]);
  const base = JSON.parse(readFileSync('partners/reference-harbor.json', 'utf8')) as {
    tokenExchangeUrl: string;
    accountInfoUrl: string;
    fundingSourcesUrl: string;
    clientId: string;
    clientSecret: string;
    platform: { url: string; authUrl: string; apiKey: string; hostOrigin: string };
    dataApi: { baseUrl: string };
  };
  const underFault = (url: string, fault: string) => url.replace(/^(https?:\/\/[^/]+)/, `$1/faults/${fault}`);
  // One run for all the faults, each a project of its own: a partner name each, as two profiles may not share
  // one on a platform, and each fault chosen by the path prefix of its own URLs.
  const dir = tempDir('harbor-faults-');
  const faults = Object.keys(expected);
  for (const fault of faults) {
    // Each partner name configured in Harbor's own admin API, as an integration team would in a platform's admin.
    const configured = await fetch(`${base.platform.url}/v1/sandbox/partners`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': base.platform.apiKey },
      body: JSON.stringify({
        partnerName: `harbor-${fault}`,
        hostOrigins: [base.platform.hostOrigin],
        tokenExchangeUrl: base.tokenExchangeUrl,
        accountInfoUrl: base.accountInfoUrl,
        fundingSourcesUrl: base.fundingSourcesUrl,
        clientId: base.clientId,
        clientSecret: base.clientSecret,
        tokenExchangeEncoding: 'json',
        collectMissingAccountInfo: true,
        apiKey: base.platform.apiKey,
      }),
    });
    expect(configured.status, await configured.text()).toBeLessThan(300);
    const profile = {
      ...base,
      $schema: undefined,
      platform: {
        ...base.platform,
        partnerName: `harbor-${fault}`,
        url: underFault(base.platform.url, fault),
        authUrl: underFault(base.platform.authUrl, fault),
      },
      dataApi: { ...base.dataApi, baseUrl: underFault(base.dataApi.baseUrl, fault) },
    };
    writeFileSync(path.join(dir, `harbor-${fault}.json`), JSON.stringify(profile));
  }
  const run = await runPlaywright([...faults.map((fault) => `--project=harbor-${fault}`), '--workers=2'], { PARTNERS_DIR: dir });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const certs = new Map(faults.map((fault) => [fault, read(run.out, `harbor-${fault}`)]));
  const first = [...certs.values()][0]!;
  for (const [fault, cert] of certs) {
    console.log(`${fault} (${FAULTS[fault as keyof typeof FAULTS]}): ${cert.summary}\n  platform: ${cert.platform?.summary}`);
    expect.soft(cert.verdict, fault).toBe('CERTIFIED');
    expect
      .soft(
        cert.rules
          .filter((rule) => rule.outcome === 'failed')
          .map((rule) => rule.id)
          .sort(),
        fault,
      )
      .toEqual(expected[fault as keyof typeof FAULTS]!.map((rule) => rule.id).sort());
    expect.soft(partnerOutcomes(cert), fault).toEqual(partnerOutcomes(first));
  }
});

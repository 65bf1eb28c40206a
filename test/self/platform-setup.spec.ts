import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Certification } from '../../reports/certification';
import { partnersDir } from '../support/profiles';
import { runPlaywright } from '../support/run-playwright';

/**
 * The platform is judged once for every partner of a run on it, in one partner's tests: only a partner whose
 * own platform credentials work may be that one (issue 40, item 4). A typo in one partner's api key is that
 * partner's set-up to fix; it never changes another partner's report.
 */

const reference = JSON.parse(readFileSync('partners/reference.json', 'utf8')) as { platform: Record<string, string> };
const onEmulator = (partnerName: string, apiKey = reference.platform.apiKey!) => ({
  ...reference,
  $schema: undefined,
  platform: { ...reference.platform, partnerName, apiKey },
});
const read = (out: string, name: string) => JSON.parse(readFileSync(path.join(out, 'certification', name, 'certification.json'), 'utf8')) as Certification;
const platformOutcomes = (cert: Certification) => cert.rules.filter((rule) => rule.owner === 'platform').map((rule) => `${rule.id}: ${rule.outcome}`);

test("a partner with a wrong platform api key, in a run with another: the other's platform section is as it is alone, and the typo is the first one's own set-up failure", async () => {
  test.setTimeout(300_000);
  // "aardvark" comes first by name, so it would have judged the platform for both.
  const dir = partnersDir({ aardvark: onEmulator('aardvark', 'reference-platform-api-kez'), zebra: onEmulator('zebra') });
  const alone = await runPlaywright(['--project=zebra'], { PARTNERS_DIR: dir });
  const both = await runPlaywright(['--project=aardvark', '--project=zebra'], { PARTNERS_DIR: dir });
  const [zebraAlone, zebra, aardvark] = [read(alone.out, 'zebra'), read(both.out, 'zebra'), read(both.out, 'aardvark')];
  expect(zebraAlone.platform?.verdict, zebraAlone.platform?.summary).toBe('CONFORMS');
  expect(platformOutcomes(zebra)).toEqual(platformOutcomes(zebraAlone));
  expect(zebra.platform).toMatchObject({ verdict: 'CONFORMS', judgedBy: null, setupProblems: [] });
  // The partner with the typo: told at once, and in its report; the platform is judged for it in zebra's tests.
  expect(both.stderr).toMatch(
    /preflight: aardvark: "platform\.apiKey": the platform refused it \(401 .*\); correct "platform\.apiKey" .*\(the run goes on: zebra's tests judge the platform/,
  );
  expect(aardvark.platform).toMatchObject({
    verdict: 'CONFORMS',
    judgedBy: 'zebra',
    setupProblems: [expect.stringContaining('"platform.apiKey": the platform refused it (401')],
  });
  // Its own sign-on, which the emulator is configured for with that key, could not be judged: its report says so.
  expect(aardvark.verdict).toBe('INCOMPLETE');
  expect(
    aardvark.tests
      .filter((t) => t.status === 'failed')
      .flatMap((t) => t.errors)
      .join('\n'),
  ).toMatch(/could not be sent to .* \(401 /);
  expect(zebra.verdict).toBe('CERTIFIED');
});

test('alone, a partner whose platform api key is refused is stopped by the preflight, naming the field', async () => {
  const dir = partnersDir({ aardvark: onEmulator('aardvark', 'reference-platform-api-kez') });
  const run = await runPlaywright(['--project=aardvark'], { PARTNERS_DIR: dir });
  expect(run.stderr).toMatch(/preflight: aardvark: "platform\.apiKey": the platform refused it \(401 /);
  expect(run.code).toBe(2);
});

test('a platform that quotes the refused api key back: the preflight line names the field, and the key is masked', async () => {
  const key = 'echoed-platform-key-7f3a9c';
  const server = createServer((request, response) =>
    response
      .writeHead(401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: `api-key ${String(request.headers['api-key'])} is not valid` })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = partnersDir({
      aardvark: {
        ...onEmulator('aardvark', 'env:PARTNER_AARDVARK_KEY'),
        platform: { ...onEmulator('aardvark').platform, url, apiKey: 'env:PARTNER_AARDVARK_KEY' },
        dataApi: undefined,
      },
    });
    const run = await runPlaywright(['--project=aardvark'], { PARTNERS_DIR: dir, PARTNER_AARDVARK_KEY: key });
    expect(run.stderr).toMatch(/preflight: aardvark: "platform\.apiKey": the platform refused it \(401 /);
    // The answer quoted the key (the positive control), and the line shows it masked.
    expect(run.stderr).toContain('api-key [redacted] is not valid');
    expect(run.stderr + run.stdout).not.toContain(key);
    expect(run.code).toBe(2);
  } finally {
    server.close();
  }
});

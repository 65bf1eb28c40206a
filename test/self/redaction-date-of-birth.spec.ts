import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { platformSandbox } from '../../sandbox/platform/server';
import { endpointsOf, partnersDir, referenceProfile } from '../support/profiles';
import { runPlaywright } from '../support/run-playwright';
import { startPlatform, startReferencePartner } from '../support/sandbox';
import { textsUnder } from '../support/leaks';

// A date of birth no other value of a run is made of: its month and day (07-23) are no run date, port or duration.
const dateOfBirth = '1961-07-23';
/** The date whole, in the forms dates are written, and its month and day alone, as digits standing on their own. */
const fullDate = /1961-07-23|19610723|07\/23\/1961|23\/07\/1961|1961\/07\/23|23\.07\.1961/;
const monthAndDay = /(?<![0-9A-Za-z])[*•]*0723(?![0-9A-Za-z])|(?<![0-9A-Za-z])07[-/.]23(?![0-9])/;

test('a date of birth keeps its year only in every file of a run, in every zip, and in its console; the year is shown', async () => {
  test.setTimeout(300_000);
  const [partner, platform] = await Promise.all([startReferencePartner({ dateOfBirth }), startPlatform()]);
  try {
    // The partner sends the date of birth also as a bare number and written the US way, under names no mask knows, and
    // fails a rule of account information, so its evidence is in the report.
    const profile = referenceProfile(partner.origin, ['personal-data-elsewhere', 'first-name-with-digits'], { collectMissingAccountInfo: true });
    const dir = partnersDir({
      'birthday-co': {
        ...endpointsOf(profile),
        collectMissingAccountInfo: true,
        platform: { ...platform.block(), partnerName: 'birthday-co', mockLinkKey: platformSandbox.mockLinkKey },
      },
    });
    const run = await runPlaywright(
      ['--project=birthday-co', '--trace=on'],
      { PARTNERS_DIR: dir },
      { reporters: ['list', 'certification', 'html', 'junit', 'blob'] },
    );
    const texts = [...textsUnder(run.out), { file: 'stdout', text: run.stdout }, { file: 'stderr', text: run.stderr }];
    const found = (shape: RegExp) =>
      texts.flatMap(({ file, text }) => {
        const at = text.search(shape);
        return at < 0 ? [] : [`${file}: …${text.slice(Math.max(0, at - 60), at + 30)}…`];
      });
    expect(found(fullDate)).toEqual([]);
    expect(found(monthAndDay)).toEqual([]);

    // Not vacuous: the run read the account information (its HAR holds it), traced its tests, and wrote every report.
    const partnerFiles = path.join(run.out, 'certification', 'birthday-co');
    const har = readFileSync(path.join(partnerFiles, 'exchanges.har'), 'utf8');
    const html = readFileSync(path.join(partnerFiles, 'certification.html'), 'utf8');
    const files = texts.map((t) => t.file);
    expect(files.filter((file) => /trace\.zip!test\.trace$/.test(file)).length).toBeGreaterThan(5);
    for (const report of ['junit.xml', 'report.json']) expect(files.some((file) => file.endsWith(report))).toBe(true);
    expect(files.some((file) => /html-report.*index\.html!embedded\.zip!/.test(file))).toBe(true);
    expect(files.some((file) => /blob-report.*\.zip!report\.jsonl$/.test(file))).toBe(true);
    // The positive control: the year is shown, in every form the partner sent the date in.
    for (const shown of ['\\"dateOfBirth\\":\\"1961-••-••\\"', '\\"birthDay\\":\\"1961-••-••\\"', '\\"ownerBorn\\":\\"1961-••-••\\"'])
      expect(har).toContain(shown);
    expect(html).toContain('&quot;dateOfBirth&quot;: &quot;1961-••-••&quot;');
    expect(html).toContain('&quot;birthDay&quot;: &quot;1961-••-••&quot;');
  } finally {
    await Promise.all([partner.close(), platform.close()]);
  }
});

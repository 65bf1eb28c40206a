import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { strToU8 } from 'fflate';
import { textsUnder } from '../support/leaks';
import { dateEchoes, startLeakyProxy, type Leaks } from '../support/leaky-proxy';
import { endpointsOf, partnersDir, referenceProfile } from '../support/profiles';
import { hashesUnder } from '../support/reporters/hashing-reporter';
import { readCertification, runPlaywright, runPlaywrightWith, type NestedRun } from '../support/run-playwright';
import { startPlatform, startReferencePartner } from '../support/sandbox';
import { tempDir } from '../support/temp';

/**
 * One egress (issue 50): every byte a run writes passes one masking step, with every value the run can know
 * known first; nothing rewrites Playwright's outputs afterwards, and the final scan only detects. Each break an
 * outside red team found is planted here, through a partner that leaks (test/support/leaky-proxy.ts), and every
 * output of the run, zips opened, and its console are searched for the planted values.
 */

const dateOfBirth = '1985-12-10'; // the reference partner's complete user
const reporters = (extra: string[] = []) => [
  `--reporter=${[path.resolve('reports/certification-reporter.ts'), 'list', 'html', 'junit', 'blob', 'json', ...extra].join(',')}`,
];

/** A leaky partner in front of a reference partner of the test's own, and a PARTNERS_DIR of `names` on it. */
async function leakyPartners(leaks: Leaks, names: readonly string[], { platform }: { platform?: Awaited<ReturnType<typeof startPlatform>> } = {}) {
  const partner = await startReferencePartner();
  const proxy = await startLeakyProxy(partner.origin, leaks);
  const profile = referenceProfile(proxy.origin);
  const dir = partnersDir(
    Object.fromEntries(names.map((name) => [name, { ...endpointsOf(profile), ...(platform ? { platform: { ...platform.block(), partnerName: name } } : {}) }])),
  );
  return { proxy, dir, close: () => Promise.all([proxy.close(), partner.close()]) };
}

/** What a run left that holds any of `values`, in any file under its folder (zips opened) or its console. */
function found(run: NestedRun, values: readonly string[]): string[] {
  const texts = [...textsUnder(run.out), { file: 'stdout', text: run.stdout }, { file: 'stderr', text: run.stderr }];
  return values.flatMap((value) => texts.filter(({ text }) => text.includes(value)).map(({ file }) => `${value} in ${file}`));
}

test("a code issued under one profile and echoed under another, and a date of birth in words, are in no output; a reporter of the user's own, with --trace=on, is handed them masked; nothing is rewritten after the reporters wrote", async () => {
  test.setTimeout(300_000);
  const platform = await startPlatform();
  const leaky = await leakyPartners({ codeEcho: true, dateOfBirth }, ['leaky-a', 'leaky-b'], { platform });
  const out = tempDir('hashes-');
  try {
    const run = await runPlaywrightWith(
      [
        '--project=leaky-a',
        '--project=leaky-b',
        '--trace=on',
        'suites/token-exchange.spec.ts',
        'suites/account-info.spec.ts',
        'suites/sign-on.spec.ts',
        ...reporters([path.resolve('test/support/reporters/hashing-reporter.ts')]),
      ],
      {
        PARTNERS_DIR: leaky.dir,
        HASHES_FILE: path.join(out, 'hashes.json'),
        ATTACHMENTS_FILE: path.join(out, 'attachments.json'),
      },
    );
    // The outputs, hashed by the last reporter as the run ended, and again now: nothing rewrote them as the process exited.
    const dirs = ['html-report', 'test-results', 'blob-report', 'certification'].map((name) => path.join(run.out, name));
    const before = JSON.parse(readFileSync(path.join(out, 'hashes.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(before).length).toBeGreaterThan(10);
    expect(hashesUnder(dirs)).toEqual(before);
    expect(run.stderr).not.toContain('holds a secret of this run');
    expect(readCertification(run, 'leaky-a').findings.length).toBeGreaterThan(0);
    // The positive control: the leaks happened, in the answers the run recorded.
    expect(leaky.proxy.seen.codes.length).toBeGreaterThan(20);
    const planted = [...leaky.proxy.seen.codes, ...leaky.proxy.seen.tokens, ...dateEchoes(dateOfBirth)];
    expect(found(run, planted)).toEqual([]);
    // What the reporter of the user's own was handed when each test ended, traces unzipped.
    const handed = JSON.parse(readFileSync(path.join(out, 'attachments.json'), 'utf8')) as { name: string; copy?: string; body?: string }[];
    expect(handed.some((attachment) => attachment.name === 'trace')).toBe(true);
    const handedDir = tempDir('handed-');
    for (const [i, { copy, body }] of handed.entries()) {
      const bytes = copy ? Buffer.from(copy, 'base64') : strToU8(body ?? '');
      writeFileSync(path.join(handedDir, `attachment-${i}`), bytes);
    }
    const handedTexts = textsUnder(handedDir);
    expect(planted.filter((value) => handedTexts.some(({ text }) => text.includes(value)))).toEqual([]);
  } finally {
    await Promise.all([leaky.close(), platform.close()]);
  }
});

test('token answers that are JSON followed by a comment repeating the token leave no token in the console, JUnit, the HAR or the certification', async () => {
  test.setTimeout(120_000);
  const leaky = await leakyPartners({ tokenComment: true }, ['commented']);
  try {
    const run = await runPlaywright(['--project=commented', 'suites/token-exchange.spec.ts'], { PARTNERS_DIR: leaky.dir }, { reporters: ['junit', 'blob'] });
    expect(leaky.proxy.seen.tokens.length).toBeGreaterThan(5);
    expect(found(run, leaky.proxy.seen.tokens)).toEqual([]);
    expect(readCertification(run, 'commented').verdict).toBe('NOT CERTIFIED');
  } finally {
    await leaky.close();
  }
});

for (const mint of [500, 307] as const)
  test(`a mint hook that answers ${mint} with the code it just minted: every test that could not get a code is INCOMPLETE, and that code is in no output`, async () => {
    test.setTimeout(120_000);
    const leaky = await leakyPartners({ mint }, ['mint-fails']);
    try {
      const run = await runPlaywright(
        ['--project=mint-fails', 'suites/token-exchange.spec.ts', '-g', 'unknown code'],
        { PARTNERS_DIR: leaky.dir, CERTIFY_NO_PREFLIGHT: '1' },
        { reporters: ['html', 'junit', 'blob'] },
      );
      expect(run.stdout, run.stderr).toContain('mint-fails: INCOMPLETE');
      expect(readCertification(run, 'mint-fails').verdict).toBe('INCOMPLETE');
      expect(leaky.proxy.seen.codes.length).toBeGreaterThan(0);
      expect(found(run, leaky.proxy.seen.codes)).toEqual([]);
    } finally {
      await leaky.close();
    }
  });

test("the preflight's own minted code, echoed in the token endpoint's 404 to the preflight, stops the run without being printed", async () => {
  test.setTimeout(120_000);
  const leaky = await leakyPartners({ preflightEcho: true }, ['echoes-to-preflight']);
  try {
    const run = await runPlaywright(['--project=echoes-to-preflight', 'suites/token-exchange.spec.ts'], { PARTNERS_DIR: leaky.dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('preflight: echoes-to-preflight: "tokenExchangeUrl"');
    expect(leaky.proxy.seen.codes.length).toBeGreaterThan(0);
    expect(found(run, leaky.proxy.seen.codes)).toEqual([]);
  } finally {
    await leaky.close();
  }
});

test("a run filtered with -g still knows the user's date of birth: echoed in every form in 401s, it is in no output", async () => {
  test.setTimeout(120_000);
  const leaky = await leakyPartners({ dateOfBirth }, ['filtered']);
  try {
    const run = await runPlaywright(
      ['--project=filtered', '-g', 'refuses a missing or invalid token'],
      { PARTNERS_DIR: leaky.dir },
      { reporters: ['html', 'blob'] },
    );
    expect(found(run, dateEchoes(dateOfBirth))).toEqual([]);
    // The positive control: the 401s echoed the date, in the evidence the run kept.
    expect(readFileSync(path.join(run.out, 'certification', 'filtered', 'exchanges.har'), 'utf8')).toContain('1985-••-••');
  } finally {
    await leaky.close();
  }
});

test("the second run of two, with a history folder, leaves its own exchange's code and token in neither report", async () => {
  test.setTimeout(180_000);
  const leaky = await leakyPartners({ codeEcho: true }, ['twice']);
  const history = tempDir('history-');
  try {
    const env = { PARTNERS_DIR: leaky.dir, CERTIFY_HISTORY_DIR: history };
    const runs = [await runPlaywright(['--project=twice'], env), await runPlaywright(['--project=twice'], env)];
    for (const run of runs) expect(found(run, [...leaky.proxy.seen.codes, ...leaky.proxy.seen.tokens])).toEqual([]);
    // The positive control: the second run compared itself with the first, kept in the history.
    expect(readCertification(runs[1]!, 'twice').comparison).not.toBeNull();
  } finally {
    await leaky.close();
  }
});

test("a secret written around the egress (a plugin of the user's own, writing into the test results) fails the run, naming the file; it is never rewritten", async () => {
  test.setTimeout(120_000);
  const secret = `Pl4nted-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}-Zq9`;
  const dir = partnersDir({ seam: { ...referenceProfile('http://127.0.0.1:4400'), clientSecret: 'env:PARTNER_SEAM_CLIENT_SECRET' } });
  const run = await runPlaywright(
    ['--project=seam', 'suites/token-exchange.spec.ts', '-g', 'unknown code', `--reporter=${path.resolve('test/support/reporters/leaky-reporter.ts')}`],
    { PARTNERS_DIR: dir, PARTNER_SEAM_CLIENT_SECRET: secret, LEAKY_SECRET_VARIABLE: 'PARTNER_SEAM_CLIENT_SECRET' },
  );
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/leaked-by-a-plugin\.txt holds a secret of this run/);
  expect(run.stdout + run.stderr).not.toContain(secret);
  // The detector reads, never rewrites: the file still holds what the plugin wrote.
  expect(readFileSync(path.join(run.out, 'test-results', 'leaked-by-a-plugin.txt'), 'utf8')).toContain(secret);
});

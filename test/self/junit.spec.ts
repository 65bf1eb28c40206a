import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { incompleteExitCode } from '../../run/outcome';
import { endpointsOf, partnersDir, referenceAs, referenceProfile } from '../support/profiles';
import { readCertification, runNode, type NestedRun } from '../support/run-playwright';
import { tempDir } from '../support/temp';

/**
 * CI conventions (issue 43): a CI dashboard counts JUnit failures, so a test that fails a rule is a <failure>
 * and only a test that did not finish is an <error>; and JUnit goes to its file (the configuration's
 * PLAYWRIGHT_JUNIT_OUTPUT_FILE) whatever reporters the command names, never to standard output.
 */

/** `npx partner-certify <args>` (scripts/cli.ts), as a partner's CI runs it, with no JUnit file named: the configuration's. */
async function certify(args: string[], partners: string): Promise<NestedRun> {
  const out = tempDir('ci-');
  const run = await runNode(['--import', 'tsx', 'scripts/cli.ts', ...args, `--output=${path.join(out, 'test-results')}`], {
    PARTNERS_DIR: partners,
    CERTIFICATION_REPORT_DIR: path.join(out, 'certification'),
    CERTIFY_HISTORY_DIR: path.join(out, 'history'),
    PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(out, 'html-report'),
    PLAYWRIGHT_HTML_OPEN: 'never',
    PLAYWRIGHT_BLOB_OUTPUT_DIR: path.join(out, 'blob-report'),
  });
  return { ...run, out };
}

/** `npx playwright merge-reports` of a run's blob report with `reporters`, as the sharded CI's last job runs it, into `<out>/certification`. */
async function mergeReports(run: NestedRun, reporters: string): Promise<NestedRun> {
  const out = tempDir('merged-');
  const merged = await runNode(
    [
      path.resolve('node_modules/@playwright/test/cli.js'),
      'merge-reports',
      '--config=playwright.config.ts',
      `--reporter=${reporters}`,
      path.join(run.out, 'blob-report'),
    ],
    {
      CERTIFICATION_REPORT_DIR: path.join(out, 'certification'),
      CERTIFY_HISTORY_DIR: path.join(out, 'history'),
    },
  );
  return { ...merged, out };
}

/** Each test case of a JUnit file, by its test's own title: how it ended (failure, error, skipped, passed) and its message. */
function junitCases(run: Pick<NestedRun, 'out'>): Record<string, { ended: string; message?: string; text: string }> {
  const xml = readFileSync(path.join(run.out, 'certification', 'junit.xml'), 'utf8');
  const unescape = (text: string) =>
    text.replaceAll('&apos;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  const cases: Record<string, { ended: string; message?: string; text: string }> = {};
  for (const [, name, body] of xml.matchAll(/<testcase name="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g)) {
    const ending = /<(failure|error)(?: message="([^"]*)")?|<(skipped)/.exec(body!);
    const title = unescape(name!).split(' › ').at(-1)!;
    cases[title] = { ended: ending?.[1] ?? ending?.[3] ?? 'passed', ...(ending?.[2] !== undefined ? { message: unescape(ending[2]) } : {}), text: body! };
  }
  return cases;
}

const ofEnding = (cases: ReturnType<typeof junitCases>, ended: string) =>
  Object.entries(cases)
    .filter(([, junitCase]) => junitCase.ended === ended)
    .map(([title]) => title)
    .sort();

test('a partner failing two rules, with --reporter=list,junit,blob, then merged: each failing test is one JUnit <failure> naming its rule, none an <error>, and no XML on standard output', async () => {
  test.setTimeout(120_000);
  const run = await certify(
    ['faulty', 'suites/token-exchange.spec.ts', '--reporter=list,junit,blob'],
    referenceAs('faulty', ['expires-in-string', 'grants-without-credentials']),
  );
  expect(run.code, run.stderr).toBe(1);
  const certification = readCertification(run, 'faulty');
  const failedTests = certification.tests
    .filter((t) => t.status === 'failed')
    .map((t) => t.title)
    .sort();
  const working = "the configured encoding's token exchange issues a working token";
  const grants = 'other grant types are refused, and none yields a token without client credentials';
  expect(failedTests).toEqual([grants, working]);
  // The merge of the sharded CI, with the configuration as docs/FLEETS.md gives it: JUnit goes beside the certification, and says the same.
  const merged = await mergeReports(run, `${path.resolve('reports/certification-reporter.ts')},junit`);
  expect(merged.code, merged.stderr).toBe(1);
  for (const output of [run, merged]) {
    const cases = junitCases(output);
    expect(ofEnding(cases, 'failure')).toEqual(failedTests);
    expect(ofEnding(cases, 'error')).toEqual([]);
    expect(cases[working]).toMatchObject({ message: '1 MUST rule failed:' });
    expect(cases[working]!.text).toContain('✗ token-exchange/expires-in: "expires_in" is a string ("3600"); send a JSON number');
    expect(cases[grants]!.text).toContain('✗ token-exchange/no-token-without-credentials: ');
    expect(output.stdout).toContain('faulty: NOT CERTIFIED: ');
    expect(output.stdout).not.toMatch(/<\?xml|<testsuites/);
  }
});

test('a test that did not finish, with --reporter=junit alone: a JUnit <error>, never a <failure>, INCOMPLETE, and no XML on standard output', async () => {
  test.setTimeout(120_000);
  // A token endpoint that never finishes its answer, and a test deadline far shorter than the partner's.
  const partners = partnersDir({ hanging: { ...endpointsOf(referenceProfile('http://127.0.0.1:4400', ['token-slow-drip'])), requestTimeoutMs: 5_000 } });
  const title = "the configured encoding's token exchange issues a working token";
  // Past the preflight, whose mint request would drip too.
  const run = await certify(['hanging', '--no-preflight', '--timeout=2000', 'suites/token-exchange.spec.ts', '-g', title, '--reporter=junit'], partners);
  const certification = readCertification(run, 'hanging');
  expect(certification.tests.filter((t) => !t.complete).map((t) => t.title)).toEqual([title]);
  expect(certification.counts.failed).toBe(0);
  expect(run.code, run.stderr).toBe(incompleteExitCode);
  const cases = junitCases(run);
  expect(ofEnding(cases, 'error')).toEqual([title]);
  expect(cases[title]!.message).toBe('Test timeout of 2000ms exceeded.');
  expect(ofEnding(cases, 'failure')).toEqual([]);
  expect(run.stdout).not.toMatch(/<\?xml|<testsuites/);
});

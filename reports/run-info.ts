import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Profile } from '../shared/profile-schema';
import type { Certification } from './certification';

/** What a certification says of the run itself: the endpoints certified, and the harness that did it. */

export function targetsOf(profile: Profile | undefined): Record<string, string> {
  if (!profile) return {};
  const targets: Record<string, string | undefined> = {
    'token exchange': profile.tokenExchangeUrl,
    'account information': profile.accountInfoUrl,
    'funding sources': profile.fundingSourcesUrl,
    'mock link': profile.platform && `${profile.platform.url}/v1/auth/providers/standard/create-mock-link`,
    'auth URL': profile.platform && `${profile.platform.url}/${profile.platform.partnerName}/auth`,
    'data API': profile.dataApi?.baseUrl,
  };
  return Object.fromEntries(Object.entries(targets).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export function harnessVersion(rootDir: string): Certification['run']['harness'] {
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(path.join(__dirname, '../package.json'), 'utf8')) as { version?: string }).version ?? version;
  } catch {
    // no package.json beside the harness
  }
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=12'], { cwd: rootDir, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // not a git checkout
  }
  return { version, commit };
}

/** Playwright's options that run some of a project's tests only (`playwright test --help`). */
const choosingOptions = ['--last-failed', '--only-changed', '--grep', '-g', '--grep-invert', '--test-list', '--test-list-invert'];

/** Whether this process is `playwright test`, not `merge-reports`, whose shards chose their own tests. */
export const isTestCommand = (argv: readonly string[] = process.argv) => argv.includes('test');

/** The option of this `playwright test` command that runs only some tests, if any; in merge-reports, none. */
export function choosingOption(argv: readonly string[] = process.argv): string | undefined {
  if (!isTestCommand(argv)) return undefined;
  return argv.find((arg) => choosingOptions.some((option) => arg === option || arg.startsWith(`${option}=`)))?.split('=')[0];
}

/** Playwright's default testMatch; the partner projects keep it. */
const testFile = /\.(spec|test)\.[cm]?[jt]sx?$/;

/** The test files of `testDir` that none of `included` (the files a run loaded) is: left out by a file filter. */
export function testFilesLeftOut(testDir: string, included: readonly string[]): string[] {
  const loaded = new Set(included.map((file) => path.resolve(file)));
  try {
    return readdirSync(testDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => testFile.test(file))
      .map((file) => path.resolve(testDir, file))
      .filter((file) => !loaded.has(file));
  } catch {
    return [];
  }
}

/**
 * Why a partner's run is partial, or null when it is whole: an option or a file filter chose the tests, the
 * run is one shard, or tests that failed or did not finish in the partner's previous run did not run this time.
 */
export function partialOf(ran: readonly { title: string; status: string }[], previous: Certification | undefined, chosenBy: string | undefined, shard: { current: number; total: number } | null): Certification['partial'] {
  const titles = new Set(ran.map((test) => test.title));
  const failedBeforeNotRun = (previous?.tests ?? []).filter((test) => test.status !== 'passed' && test.status !== 'skipped' && !titles.has(test.title)).map((test) => test.title);
  const reason = shard
    ? `shard ${shard.current} of ${shard.total}; merge the shards' blob reports for the certification`
    : chosenBy
      ? `${chosenBy} chose the tests`
      : failedBeforeNotRun.length > 0
        ? 'tests that failed last time were left out'
        : undefined;
  if (reason === undefined) return null;
  return { reason, ran: ran.filter((test) => test.status !== 'not-run' && test.status !== 'skipped').map((test) => test.title), failedBeforeNotRun };
}

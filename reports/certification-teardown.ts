import type { FullConfig, FullResult } from '@playwright/test/reporter';
import { redactTree } from '../redaction/files';
import { attemptsFolder, readAttempts } from '../run/attempt-record';
import { readRunPlan, readSetupProblems, runClock, writeRunJson } from '../run/run-dir';
import { collectAttempt } from './collect-attempt';
import { playwrightOutputs } from './playwright-outputs';
import { partnerOf, reportDirsOf, type Partner, type ReportDirs } from './partner-state';
import { writeRunOutcome } from './run-outcome';
import { failsRun, incompleteOnly, notCertifiedError, writeRun, type RunVerdicts } from './write-run';

/** Where the run's verdicts wait for the certification reporter's end (run/run-dir.ts). */
export const verdictsFile = 'verdicts.json';

/**
 * Playwright's globalTeardown, in the run's main process once every test has ended or the run was stopped:
 * writes each partner's certification from the attempts its workers left in the run's folder
 * (run/attempt-record.ts), whatever reporters the command names. The certification reporter, where it runs,
 * gave the run its plan (the tests it chose, where to write); without it, the tests of a partner that never
 * began were left out, and its report is PARTIAL. Then it masks the test output folders once more, as the
 * second line of defence. Without the certification reporter to fail the run, a partner not certified fails it here.
 */
export default async function certificationTeardown(config: FullConfig): Promise<void> {
  const verdicts = await certifyFromAttempts(config);
  if (verdicts && readRunPlan()?.reporter === undefined && failsRun(verdicts)) throw notCertifiedError(verdicts);
}

/**
 * Writes the run's certification from its attempts, and returns its verdicts (none when no partner's test
 * began). The certification reporter calls it at its end when the teardown did not run: Playwright runs no
 * teardown once the run's global timeout has passed. `result` is the run's, where the caller knows it.
 */
export async function certifyFromAttempts(config: FullConfig, result?: FullResult): Promise<RunVerdicts | undefined> {
  const plan = readRunPlan();
  const dirs: ReportDirs = plan?.reporter ? { compare: undefined, ...plan.reporter } : reportDirsOf();
  const partners = new Map<string, Partner>();
  for (const project of config.projects) {
    const partner = partnerOf(project, plan?.tests?.[project.name] ?? [], dirs);
    if (partner) partners.set(partner.name, partner);
  }
  const unreadable: string[] = [];
  /** Each partner's attempts' own output folders: the project's output folder is every project's. */
  const outputDirs = new Map<string, Set<string>>();
  for (const [name, partner] of partners) {
    const dir = attemptsFolder(name);
    if (!dir) return undefined; // not a run of this configuration's (the folder is the main process's)
    const { attempts, errors } = readAttempts(dir);
    for (const attempt of attempts) collectAttempt(partner, attempt);
    outputDirs.set(name, new Set(attempts.map((attempt) => attempt.outputDir)));
    unreadable.push(...errors.map((error) => `${name}: ${error}`));
  }
  // No report without a run: a partner none of whose tests began keeps its last one.
  for (const [name, partner] of partners) if (!partner.ran) partners.delete(name);
  if (partners.size === 0) return undefined;
  for (const [name, problems] of Object.entries(readSetupProblems())) if (partners.has(name)) partners.get(name)!.setupProblems = problems;
  const clock = runClock();
  const { verdicts, vault } = await writeRun({ partners, result: result ?? resultOf(partners, config, clock), config, dirs });
  if (unreadable.length > 0) verdicts.failed = true;
  for (const line of unreadable) console.error(`${line}; its attempt is not in the report`);
  // The second line of defence: every file a partner's tests left in their own output folders (the project's is
  // every project's), masked once more with that partner's secrets, before the reporters copy them at the run's end.
  for (const name of partners.keys()) {
    const secrets = [vault.secrets(name), vault.runWideSecrets()];
    const failures = [...(outputDirs.get(name) ?? [])].flatMap((dir) => secrets.flatMap((list) => redactTree(dir, list, { since: clock.startedAt })));
    for (const failure of failures) console.error(couldNotMask(failure));
    if (failures.length > 0) verdicts.failed = true;
  }
  writeRunJson(verdictsFile, verdicts satisfies RunVerdicts);
  writeRunOutcome({ incompleteOnly: incompleteOnly(verdicts) });
  // And what Playwright's reporters write after this, every partner's tests in one file: masked as the process
  // exits, with the harness's own secrets, every partner's with a secret's entropy (no partner's words), and by shape.
  const harnessSecrets = [...vault.secrets(''), ...vault.runWideSecrets()];
  process.once('exit', () => {
    const failures = playwrightOutputs(config).flatMap((output) => redactTree(output, harnessSecrets, { since: clock.startedAt }));
    for (const failure of failures) console.error(couldNotMask(failure));
    if (failures.length > 0) {
      process.exitCode = 1;
      writeRunOutcome({ incompleteOnly: false });
    }
  });
  return verdicts;
}

const couldNotMask = (failure: string) => `could not mask ${failure}; it may hold a secret unmasked: delete it before sharing it`;

/** The run as Playwright would state it at its end: stopped by Ctrl-C or its global timeout, or a test of a partner failed. */
function resultOf(partners: ReadonlyMap<string, Partner>, config: FullConfig, { startedAt, interrupted }: ReturnType<typeof runClock>): FullResult {
  const duration = Date.now() - startedAt.getTime();
  const failed = [...partners.values()].some((partner) => [...partner.tests.values()].some((test) => test.status === 'failed' || test.status === 'timedOut'));
  const status = interrupted ? 'interrupted' : config.globalTimeout > 0 && duration >= config.globalTimeout ? 'timedout' : failed ? 'failed' : 'passed';
  return { status, startTime: startedAt, duration };
}

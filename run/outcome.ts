import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { PlatformVerdict, Verdict } from '../checks/finding';
import type { Egress } from './egress';

/**
 * How a run ends, decided in one function (`decideOutcome`) from what the run's coordinator found, and its exit
 * code (`exitCodeOf`): 0 certified; 1 a partner not certified, or a report that could not be written, signed, or was
 * found holding a secret; 2 stopped before any test (an invalid profile, the preflight); 3 nothing failed but a
 * partner was INCOMPLETE (run it again); 130 interrupted. `npx partner-certify` exits with it; a bare `npx playwright
 * test` exits as Playwright does (1 for every failure), which the coordinator makes fail where the outcome does.
 */
export const runOutcomeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('certified') }),
  z.strictObject({ kind: z.literal('not-certified'), uncertified: z.array(z.string()) }),
  z.strictObject({ kind: z.literal('incomplete'), uncertified: z.array(z.string()) }),
  z.strictObject({ kind: z.literal('failed'), problems: z.array(z.string()) }),
  z.strictObject({ kind: z.literal('stopped'), problems: z.array(z.string()) }),
  z.strictObject({ kind: z.literal('interrupted') }),
]);
export type RunOutcome = z.infer<typeof runOutcomeSchema>;

/** What the outcome is decided from. */
export interface RunFacts {
  /** Each partner's verdict, and the bundled emulator's beside it, where it is the platform (the harness's own self-check). */
  verdicts: readonly { partner: string; verdict: Verdict; emulator?: PlatformVerdict }[];
  /** What went wrong with the run itself: a report not written or signed, a record unreadable, a secret found in an output. */
  problems: readonly string[];
  /** Why the run stopped before any test, if it did. */
  stopped?: readonly string[];
  interrupted?: boolean;
}

export function decideOutcome({ verdicts, problems, stopped = [], interrupted = false }: RunFacts): RunOutcome {
  if (stopped.length > 0) return { kind: 'stopped', problems: [...stopped] };
  if (interrupted) return { kind: 'interrupted' };
  if (problems.length > 0) return { kind: 'failed', problems: [...problems] };
  const failed = verdicts.filter((one) => one.verdict === 'NOT CERTIFIED').map((one) => `${one.partner} NOT CERTIFIED`);
  const emulator = verdicts.filter((one) => one.emulator === 'DOES NOT CONFORM').map((one) => `the bundled emulator did not conform (with ${one.partner})`);
  // The emulator's checks could not all be judged: run it again, as for a partner INCOMPLETE; never a failure. A
  // partial run (-g) leaves its checks unjudged as it leaves the partner's: that is PARTIAL's, asked for.
  const incomplete = [
    ...verdicts.filter((one) => one.verdict === 'INCOMPLETE').map((one) => `${one.partner} INCOMPLETE`),
    ...verdicts
      .filter((one) => one.emulator === 'INCOMPLETE' && one.verdict !== 'PARTIAL')
      .map((one) => `the bundled emulator INCOMPLETE (with ${one.partner})`),
  ];
  if (failed.length > 0 || emulator.length > 0) return { kind: 'not-certified', uncertified: [...failed, ...incomplete, ...emulator] };
  if (incomplete.length > 0) return { kind: 'incomplete', uncertified: incomplete };
  return { kind: 'certified' };
}

export const incompleteExitCode = 3;

export function exitCodeOf(outcome: RunOutcome): number {
  switch (outcome.kind) {
    case 'certified':
      return 0;
    case 'not-certified':
    case 'failed':
      return 1;
    case 'stopped':
      return 2;
    case 'incomplete':
      return incompleteExitCode;
    case 'interrupted':
      return 130;
  }
}

/**
 * The exit code of the harness's command: the run's outcome, or Playwright's own code where the run ended before it
 * could say, or where Playwright failed for a reason of its own (a reporter that could not write) on a certified run.
 */
export const commandExitCode = (outcome: RunOutcome | undefined, playwrightCode: number): number =>
  outcome === undefined || (outcome.kind === 'certified' && playwrightCode !== 0) ? playwrightCode : exitCodeOf(outcome);

/** Whether the run failed, in Playwright's terms: any outcome but certified. */
export const fails = (outcome: RunOutcome) => outcome.kind !== 'certified';

/** The line a run that fails without its command says why (`Error: not certified: …`). */
export function failureLine(outcome: RunOutcome): string {
  switch (outcome.kind) {
    case 'certified':
      return '';
    case 'not-certified':
    case 'incomplete':
      return `not certified: ${outcome.uncertified.join(', ')}`;
    case 'failed':
      return `the run failed: ${outcome.problems.join('; ')}`;
    case 'stopped':
      return `the run stopped before any test: ${outcome.problems.join('; ')}`;
    case 'interrupted':
      return 'the run was interrupted';
  }
}

const outcomeFile = (runDir: string) => path.join(runDir, 'outcome.json');

/** Kept in the run's folder for the command that started the run (scripts/certify.ts), through the run's egress. */
export function keepOutcome(runDir: string, outcome: RunOutcome, egress: Pick<Egress, 'writeFile'>): void {
  egress.writeFile(outcomeFile(runDir), outcome, (masked) => JSON.stringify(masked), { private: true });
}

/** The outcome the run kept, or undefined when it ended before it could say (Playwright's own exit code then stands). */
export function keptOutcome(runDir: string): RunOutcome | undefined {
  try {
    const parsed = runOutcomeSchema.safeParse(JSON.parse(readFileSync(outcomeFile(runDir), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

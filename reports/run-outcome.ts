import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Playwright exits 0 or 1 (130 when interrupted), and a reporter cannot change that. The harness's own command
 * (scripts/certify.ts) tells "run it again" from "fix this": it names a file in CERTIFY_OUTCOME_FILE, the
 * certification reporter writes there whether the run's only shortfall was an INCOMPLETE partner, and the
 * command exits 3 instead of Playwright's 1.
 */
export const outcomeFileVariable = 'CERTIFY_OUTCOME_FILE';

/** The exit code of a run that did not finish judging a partner, and failed no rule: INCOMPLETE, never NOT CERTIFIED's 1. */
export const incompleteExitCode = 3;

export interface RunOutcome {
  /** Every partner not certified is INCOMPLETE, no rule failed, and the reports were written and masked. */
  incompleteOnly: boolean;
}

/** Written at the run's end, for the command that asked (no file is written for a plain `npx playwright test`). */
export function writeRunOutcome(outcome: RunOutcome, env: NodeJS.ProcessEnv = process.env): void {
  const file = env[outcomeFileVariable];
  if (file) writeFileSync(file, JSON.stringify(outcome), { mode: 0o600 });
}

/** The exit code of the harness's command: Playwright's, or 3 where its 1 meant only INCOMPLETE. */
export function exitCodeOf(playwrightCode: number, outcomeFile: string): number {
  if (playwrightCode !== 1) return playwrightCode;
  try {
    const outcome = JSON.parse(readFileSync(outcomeFile, 'utf8')) as Partial<RunOutcome>;
    return outcome.incompleteOnly === true ? incompleteExitCode : playwrightCode;
  } catch {
    return playwrightCode; // the run ended before the reporter could say: Playwright's word stands
  }
}

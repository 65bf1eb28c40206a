/** The exit code of a run that did not finish judging a partner, and failed no rule: INCOMPLETE, never NOT CERTIFIED's 1. */
export const incompleteExitCode = 3;

/**
 * Playwright exits 0, 1 or 130, whatever a reporter says, after every reporter's onExit: a run whose only
 * shortfall is an INCOMPLETE partner exits 3 instead of 1, so CI can tell "try again" from "fix this".
 */
export function exitIncomplete() {
  const exit = process.exit.bind(process);
  process.exit = (code?: number | string | null) => exit(code === 1 ? incompleteExitCode : code);
}

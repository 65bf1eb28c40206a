import { failed, type Finding } from './finding';
import { applyWaivers, type Waiver } from './waivers';

/** What a probe's findings come to: each with the waiver in force that covers it, and the MUST rules that failed unwaived. */
export interface Decision {
  findings: Finding[];
  failures: Finding[];
}

/**
 * The one decision of what a probe found, made by the test that ran it (which fails on `failures`) and again
 * by the report from the test's record, on the same masked findings, the same waivers and the clock the test
 * recorded: the two cannot disagree, also when a waiver expires while the run goes on.
 */
export function decide(findings: readonly Finding[], waivers: readonly Waiver[], clock: Date): Decision {
  const decided = applyWaivers(findings, waivers, clock);
  return { findings: decided, failures: failed(decided) };
}

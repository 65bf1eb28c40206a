import { allRules } from '../checks/catalogue';
import type { Finding, Owner } from '../checks/finding';
import type { Certification, RuleOutcome, TestStatus } from './certification-schema';

/** What both verdicts (the partner's, the platform's) count: rules by outcome, tests that did not complete, what kept rules from being judged. */

/** Each rule's owner; a rule the catalogue does not know (a harness bug) counts against the partner, so it shows. */
const ownerOfRule = new Map<string, Owner>(allRules.map((rule) => [rule.id, rule.owner]));
export const ruleOwner = (id: string): Owner => ownerOfRule.get(id) ?? 'partner';

export function countsOf(outcomes: readonly RuleOutcome[]) {
  const of = (wanted: RuleOutcome) => outcomes.filter((o) => o === wanted).length;
  return {
    passed: of('passed'),
    failed: of('failed'),
    warning: of('warning'),
    info: of('info'),
    skipped: of('skipped'),
    notChecked: of('not-checked'),
    waived: of('waived'),
  };
}

/**
 * ` (178 blocked by token-exchange/encoding, 3 judged by no test that ran)`: what kept rules from being
 * judged, most first. A blocker that a waiver covers is named as waived: the rules it blocked stay unjudged;
 * one of the platform's is named as the platform's.
 */
export function blockersOf(rules: Certification['rules'], all: Certification['rules'] = rules, heard: ReadonlySet<string> = new Set()): string {
  const counts = new Map<string, number>();
  let noTest = 0;
  let untrusted = 0;
  for (const { id, outcome, blockedBy } of rules) {
    if (blockedBy !== undefined) counts.set(blockedBy, (counts.get(blockedBy) ?? 0) + 1);
    else if (outcome === 'not-checked' && heard.has(id)) untrusted++;
    else if (outcome === 'not-checked') noTest++;
  }
  const waived = new Set(all.filter((rule) => rule.outcome === 'waived').map((rule) => rule.id));
  const parts = [
    ...[...counts]
      .sort((a, b) => b[1] - a[1])
      .map(
        ([rule, n]) =>
          `${n} blocked by ${ruleOwner(rule) === 'platform' ? "the platform's " : ''}${rule}${waived.has(rule) ? ' (waived, yet what it blocked was not judged)' : ''}`,
      ),
    ...(untrusted > 0 ? [`${untrusted} whose check's own control failed`] : []),
    ...(noTest > 0 ? [`${noTest} judged by no test that ran`] : []),
  ];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** One attempt that stopped before its rules were judged: timed out, interrupted, never run, or failed with no rule failing. */
const stoppedShort = (status: TestStatus, findings: readonly Finding[]) =>
  status !== 'passed' && status !== 'skipped' && !(status === 'failed' && findings.some((f) => f.outcome === 'failed'));

/** What a test's completeness is decided from (a TestRecord is one). */
export interface Attempts {
  status: TestStatus;
  findings: readonly Finding[];
  earlierAttempts?: readonly { status: TestStatus }[];
}

/** A test that did not complete: its last attempt stopped short, or an earlier one did without failing a rule. */
export const incomplete = (test: Attempts) =>
  stoppedShort(test.status, test.findings) || (test.earlierAttempts ?? []).some((attempt) => stoppedShort(attempt.status, test.findings));

import type { ClauseId } from './clauses';

/** Requirement levels of DESIGN.md §4. */
export type Level = 'MUST' | 'SHOULD' | 'INFO';
export type Outcome = 'passed' | 'failed' | 'warning' | 'info' | 'skipped';

/** One verdict of one rule on one piece of evidence: what the suites attach and the reports read. */
export interface Finding {
  rule: string;
  field: string;
  clause: ClauseId;
  level: Level;
  outcome: Outcome;
  message: string;
  /** What the partner's users meet when this is not fixed. */
  impact: string;
}

/** A problem (or, for INFO rules, a note) that a rule found in its input. */
export interface Issue {
  message: string;
  field?: string;
  /** Overrides the outcome that the rule's level implies. */
  outcome?: Outcome;
}

/** A pure rule: no I/O, no clock (time comes in through ctx), never throws on any input. */
export interface Rule<Input, Ctx = void> {
  id: string;
  field: string;
  clause: ClauseId;
  level: Level;
  /** What a conformant endpoint does; the message of a passing finding. */
  requirement: string;
  impact: string;
  check(input: Input, ctx: Ctx): Issue[];
}

const outcomeOfLevel: Record<Level, Outcome> = { MUST: 'failed', SHOULD: 'warning', INFO: 'info' };

function finding(rule: Rule<never, never>, outcome: Outcome, message: string, field = rule.field): Finding {
  return { rule: rule.id, field, clause: rule.clause, level: rule.level, outcome, message, impact: rule.impact };
}

export function evaluate<I, C>(rule: Rule<I, C>, input: I, ctx: C): Finding[] {
  return evaluateAll([rule], input, ctx);
}

export function evaluateAll<I, C>(rules: readonly Rule<I, C>[], input: I, ctx: C): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules) {
    let issues: Issue[];
    try {
      issues = rule.check(input, ctx);
    } catch (error) {
      // A rule that throws is a harness bug; it must still show up, never abort the other rules.
      issues = [{ message: `rule crashed (${String(error)}); please report this harness bug`, outcome: 'failed' }];
    }
    if (issues.length === 0) findings.push(finding(rule, 'passed', rule.requirement));
    for (const issue of issues) findings.push(finding(rule, issue.outcome ?? outcomeOfLevel[rule.level], issue.message, issue.field ?? rule.field));
  }
  return findings;
}

export function skip(rules: readonly Rule<never, never>[], reason: string): Finding[] {
  return rules.map((rule) => finding(rule, 'skipped', reason));
}

export const failed = (findings: readonly Finding[]): Finding[] => findings.filter((f) => f.outcome === 'failed');
export const notPassing = (findings: readonly Finding[]): Finding[] =>
  findings.filter((f) => f.outcome === 'failed' || f.outcome === 'warning');

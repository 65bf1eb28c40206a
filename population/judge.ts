import { accountInfoFieldRules } from '../checks/account-info';
import { fundingSourceRules } from '../checks/funding-sources';
import type { Issue, Outcome } from '../checks/finding';
import type { Endpoint, Locate, Payload, PayloadContext, PayloadRule, Where } from '../checks/payload';

/**
 * The certification's account-information rules (checks/), run for a population: each field is located once for
 * all its rules (PayloadRule.locate, judgeAt), and a passing rule makes nothing, where the certification makes a
 * finding of every rule. Only what a rule found wrong is kept. test/unit/population-judge.spec.ts proves the
 * outcome equal to the platform's decision at sign-on (checks/sign-on-decision.ts) on generated payloads.
 */

/** What one rule found wrong with one payload: its issues that fail or warn (or, for a presence rule, any: a missing no** field is a note), with the outcome each has. */
export interface RuleProblem {
  rule: PayloadRule;
  issues: { issue: Issue; outcome: Outcome }[];
  /** Where the rule found its field, for the shapes of the values at fault. */
  where: Where;
}

/** A rule as the loop below reads it: what it needs, in objects of one shape (rules have many), so reading them stays fast. */
interface Judge {
  rule: PayloadRule;
  judgeAt: PayloadRule['judgeAt'];
  /** The outcome of an issue that names none. */
  outcome: Outcome;
  /** A presence rule keeps its notes: a missing no** field is one. */
  keepsNotes: boolean;
}

interface FieldGroup {
  locate: Locate;
  judges: Judge[];
}

function fieldGroups(rules: readonly PayloadRule[]): FieldGroup[] {
  const groups = new Map<Locate, Judge[]>();
  for (const rule of rules) {
    const judge = { rule, judgeAt: rule.judgeAt, outcome: outcomeOfLevel[rule.level], keepsNotes: rule.judges === 'presence' };
    groups.set(rule.locate, [...(groups.get(rule.locate) ?? []), judge]);
  }
  return [...groups].map(([locate, judges]) => ({ locate, judges }));
}
const outcomeOfLevel = { MUST: 'failed', SHOULD: 'warning', INFO: 'info' } as const;

const groupsOf: Record<Endpoint, FieldGroup[]> = {
  'account-info': fieldGroups(accountInfoFieldRules),
  'funding-sources': fieldGroups(fundingSourceRules),
};

/** The rules of an endpoint's answers that failed or warned on `payload`, as the certification's evaluateAll would find them (a rule that throws fails). */
export function problemsOf(payload: Payload, ctx: PayloadContext, endpoint: Endpoint = 'account-info'): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const { locate, judges } of groupsOf[endpoint]) {
    let where: Where;
    try {
      where = locate(payload);
    } catch (error) {
      where = { unreachable: String(error) };
    }
    for (const { rule, judgeAt, outcome: unnamed, keepsNotes } of judges) {
      let issues: readonly Issue[];
      try {
        issues = judgeAt(where, payload, ctx);
      } catch (error) {
        issues = [{ code: 'rule-crashed', message: `rule crashed (${String(error)}); please report this harness bug`, outcome: 'failed' }];
      }
      if (issues.length === 0) continue;
      let kept: RuleProblem['issues'] | undefined;
      for (const issue of issues) {
        const outcome = issue.outcome ?? unnamed;
        if (outcome !== 'failed' && outcome !== 'warning' && !(keepsNotes && outcome === 'info')) continue;
        (kept ??= []).push({ issue, outcome });
      }
      if (kept) problems.push({ rule, issues: kept, where });
    }
  }
  return problems;
}

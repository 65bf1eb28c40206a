import type { ClauseId } from './clauses';
import type { ToldPart } from './told';

/** Requirement levels of DESIGN.md §4. */
export type Level = 'MUST' | 'SHOULD' | 'INFO';
/**
 * `skipped`: the rule does not apply (the profile has no such endpoint, the payload no such value).
 * `not-checked`: the rule applies but could not be judged, because the rule named in `blockedBy` failed
 * first (no token was issued, no usable response came): one root cause, one failure.
 * `waived`: never a rule's own verdict; a failure or warning the partner's waiver covers (checks/waivers.ts).
 */
export const outcomes = ['passed', 'failed', 'warning', 'info', 'skipped', 'not-checked', 'waived'] as const;
export type Outcome = (typeof outcomes)[number];

/** A partner's verdict (reports/certification.ts decides it), and the platform's beside it: every list of them is these. */
export const verdicts = ['CERTIFIED', 'NOT CERTIFIED', 'PARTIAL', 'INCOMPLETE'] as const;
export type Verdict = (typeof verdicts)[number];
export const platformVerdicts = ['CONFORMS', 'DOES NOT CONFORM', 'INCOMPLETE', 'NOT CHECKED'] as const;
export type PlatformVerdict = (typeof platformVerdicts)[number];

/** One verdict of one rule on one piece of evidence: what the suites attach and the reports read. */
export interface Finding {
  rule: string;
  field: string;
  clause: ClauseId;
  level: Level;
  outcome: Outcome;
  /** For a problem: its kind, stable within the rule (`missing`, `type`, `pattern`), and the values it quotes. */
  code?: string;
  params?: IssueParams;
  message: string;
  /** What the partner's users meet when this is not fixed. */
  impact: string;
  /** For `not-checked`: the id of the failed rule that kept this one from being judged. */
  blockedBy?: string;
  /** The waiver that matched: it waived the finding (outcome `waived`), or it had expired (`expired`). */
  waiver?: WaiverUse;
  /** For `waived`: what the rule found. */
  waivedOutcome?: 'failed' | 'warning';
  /** A field rule's words told apart from the user's (checks/told.ts): set by evaluateAll in its problems-only mode, which the population check reads. */
  advice?: readonly ToldPart[];
}

/** The waiver a finding met, as the finding carries it: its place in the file (1-based) and its terms (checks/waivers.ts). */
export interface WaiverUse {
  waiver: number;
  reason: string;
  approvedBy: string;
  expires: string;
  /** Set when the waiver matched but had expired: the finding keeps its outcome. */
  expired?: true;
}

/** Why a rule could not be judged: the failed rule that came first, and what it left missing. */
export interface Blocker {
  rule: string;
  reason: string;
}

/** The values an issue's message quotes, as data: a report shows them without re-reading the message. */
export type IssueParams = Readonly<Record<string, string | number | boolean>>;

/**
 * A problem (or, for INFO rules, a note) that a rule found in its input, with its `code`: the kind of problem,
 * stable within the rule (`missing`, `pattern`, `screen`), which the report groups failures by; and the values its
 * message quotes as `params`, where a reader may want them as data.
 */
export interface Issue {
  code: string;
  field?: string;
  params?: IssueParams;
  message: string;
  /** The message's advice, the harness's words told apart from the user's value (checks/told.ts). */
  advice?: readonly ToldPart[];
  /** Overrides the outcome that the rule's level implies. */
  outcome?: Outcome;
}

/**
 * Who can make a rule pass (DESIGN §4): the partner (its endpoints, its data, its app) or the platform (the
 * mock link, the embedded app's behaviour, the data API). A partner's verdict rests on its rules alone.
 */
export type Owner = 'partner' | 'platform';

/**
 * DESIGN §4: a rule is MUST when its failure (a) breaks or degrades the platform's sign-on for some user, or
 * (b) lets someone other than the platform obtain a token, a code or a user's data, or (c) the spec marks
 * it required. Each ground a MUST rests on, in a few words (docs/RULES.md shows them). An RFC MUST that
 * does none of these is SHOULD, and its finding quotes the RFC's MUST.
 */
export interface MustGrounds {
  /** (a) How its failure breaks or degrades sign-on. */
  signOn?: string;
  /** (b) Who gets in, and how. No waiver covers such a failure: it is fixed, not accepted. */
  othersIn?: string;
  /** (c) Where the spec requires it. */
  spec?: string;
}

/** Its failure lets someone other than the platform obtain a token, a code or a user's data (DESIGN §4 (b)). */
export const letsOthersIn = (rule: Pick<AnyRule, 'must'>): boolean => rule.must?.othersIn !== undefined;

/** A pure rule: no I/O, no clock (time comes in through ctx), never throws on any input. */
export interface Rule<Input, Ctx = void> {
  id: string;
  owner: Owner;
  field: string;
  clause: ClauseId;
  level: Level;
  /** What a conformant endpoint does; the message of a passing finding. */
  requirement: string;
  /** Why the rule has its level, where that was a decision rather than the clause's own word (docs/RULES.md shows it). */
  levelWhy?: string;
  /** For a MUST, and only for one: what makes it a MUST (test/unit/catalogue.spec.ts). */
  must?: MustGrounds;
  /**
   * Where the rule rests on a choice of the bundled emulator's that the spec leaves open ("not shown"): the
   * profile field that states the choice of another platform. Against a platform the harness did not write
   * whose profile leaves that field out, a failure of the rule is a note, not a requirement.
   */
  emulatorChoice?: { field?: string; what: string };
  /** For a rule below MUST judged by effect (DESIGN §5 (iii)): what a browser or client suffers without it. */
  effect?: string;
  impact: string;
  check(input: Input, ctx: Ctx): readonly Issue[];
  /**
   * `check` in two steps, for a rule that first finds what it judges in its input (a payload's field, checks/payload.ts):
   * `check(input, ctx)` is `judgeAt(locate(input), input, ctx)`. Rules listed one after another with the same `locate`
   * share what it found: evaluateAll calls it once for them all.
   */
  locate?(this: void, input: Input): unknown;
  judgeAt?(this: void, where: unknown, input: Input, ctx: Ctx): readonly Issue[];
}

/** Any rule, whatever it reads: what lists of rules (a probe's, the catalogue) hold. */
export type AnyRule = Rule<never, never>;

/** Issues of one rule listed one by one; past this, one more finding counts the rest (a flood stays linear). */
export const issuesPerRule = 20;

/** `a, b, c … and 61,980 more`: a list in a message, cut at `max` items. */
export function listed(items: readonly string[], max = issuesPerRule): string {
  const more = items.length - max;
  return more > 0 ? `${items.slice(0, max).join(', ')} … and ${more.toLocaleString('en-US')} more` : items.join(', ');
}

const outcomeOfLevel: Record<Level, Outcome> = { MUST: 'failed', SHOULD: 'warning', INFO: 'info' };

function finding(rule: AnyRule, outcome: Outcome, message: string, field = rule.field): Finding {
  return { rule: rule.id, field, clause: rule.clause, level: rule.level, outcome, message, impact: rule.impact };
}

/** An issue as a finding: one object literal per shape, since most findings are made in evaluateAll's loop. */
function issueFinding(rule: AnyRule, issue: Issue, outcome: Outcome): Finding {
  const { id, clause, level, impact } = rule;
  const { code, params, message, field = rule.field } = issue;
  return params
    ? { rule: id, field, clause, level, outcome, message, impact, code, params }
    : { rule: id, field, clause, level, outcome, message, impact, code };
}

/** The same, with the issue's advice (problems-only mode: a certification's findings never carry it). */
function adviceFinding(rule: AnyRule, issue: Issue, outcome: Outcome): Finding {
  const { id, clause, level, impact } = rule;
  const { code, params, message, field = rule.field, advice } = issue;
  return { rule: id, field, clause, level, outcome, message, impact, code, params, advice };
}

export function evaluate<I, C>(rule: Rule<I, C>, input: I, ctx: C): Finding[] {
  return evaluateAll([rule], input, ctx);
}

/** What evaluateAll returns: every rule's verdict (the default), or only what did not pass. */
export interface Evaluation {
  /**
   * Only the findings that say something is wrong or worth a note (failed, warning, info): none for a rule that
   * passed or does not apply (skipped), and every issue listed, none counted under "more": the findings a decision
   * or a count reads (checks/sign-on-decision.ts, the population check), not the rows of a report.
   */
  problemsOnly?: boolean;
}

/** Each rule's findings on `input`, in the order of `rules`: a rule that throws fails, and the others are still judged. */
export function evaluateAll<I, C>(rules: readonly Rule<I, C>[], input: I, ctx: C, { problemsOnly = false }: Evaluation = {}): Finding[] {
  const findings: Finding[] = [];
  let located: Rule<I, C>['locate'];
  let where: unknown;
  for (let r = 0; r < rules.length; r++) {
    const rule = rules[r]!;
    let issues: readonly Issue[];
    try {
      const { locate, judgeAt } = rule;
      if (locate === undefined || judgeAt === undefined) issues = rule.check(input, ctx);
      else {
        // Kept only once found: when locate throws, the next rule sharing it calls it again, and crashes as its check would.
        if (locate !== located) {
          where = locate(input);
          located = locate;
        }
        issues = judgeAt(where, input, ctx);
      }
    } catch (error) {
      // A rule that throws is a harness bug; it must still show up, never abort the other rules.
      issues = [{ code: 'rule-crashed', message: `rule crashed (${String(error)}); please report this harness bug`, outcome: 'failed' }];
    }
    if (issues.length === 0) {
      if (!problemsOnly) findings.push(finding(rule, 'passed', rule.requirement));
      continue;
    }
    const unnamed = outcomeOfLevel[rule.level];
    if (problemsOnly) {
      for (let i = 0; i < issues.length; i++) {
        const issue = issues[i]!;
        const outcome = issue.outcome ?? unnamed;
        if (outcome !== 'passed' && outcome !== 'skipped') findings.push(adviceFinding(rule, issue, outcome));
      }
      continue;
    }
    // Indexed, not sliced: no array made per rule and payload, and no slow path when a rule's shared list is frozen.
    const listed = Math.min(issues.length, issuesPerRule);
    for (let i = 0; i < listed; i++) findings.push(issueFinding(rule, issues[i]!, issues[i]!.outcome ?? unnamed));
    const more = issues.length - issuesPerRule;
    if (more > 0) {
      const last = issues[issuesPerRule]!;
      const message = `and ${more.toLocaleString('en-US')} more like these, not listed one by one (the first ${issuesPerRule} are)`;
      findings.push(finding(rule, last.outcome ?? unnamed, message));
    }
  }
  return findings;
}

export function skip(rules: readonly AnyRule[], reason: string): Finding[] {
  return rules.map((rule) => finding(rule, 'skipped', reason));
}

/** Rules that apply but cannot be judged because `blocker.rule` failed first: not checked, never "not applicable". */
export function blocked(rules: readonly AnyRule[], { rule, reason }: Blocker): Finding[] {
  return rules.map((judged) => ({ ...finding(judged, 'not-checked', `not checked: blocked by ${rule} (${reason})`), blockedBy: rule }));
}

/**
 * Rules that apply but whose check could not be trusted to judge them: its positive control failed (a
 * frame that never rendered cannot show it refuses to be framed). Not checked, saying why; never passed.
 */
export function notChecked(rules: readonly AnyRule[], reason: string): Finding[] {
  return rules.map((rule) => finding(rule, 'not-checked', `not checked: ${reason}`));
}

/** The rules of `rules` that `findings` holds no verdict of yet. */
export const notYetJudged = (rules: readonly AnyRule[], findings: readonly Finding[]): AnyRule[] => {
  const judged = new Set(findings.map((f) => f.rule));
  return rules.filter((rule) => !judged.has(rule.id));
};

/** The blocker a set of findings holds: its first failed rule, or undefined when none failed. */
export function firstFailure(findings: readonly Finding[], reason: string): Blocker | undefined {
  const first = findings.find((f) => f.outcome === 'failed');
  return first && { rule: first.rule, reason };
}

export const failed = (findings: readonly Finding[]): Finding[] => findings.filter((f) => f.outcome === 'failed');
export const notPassing = (findings: readonly Finding[]): Finding[] => findings.filter((f) => f.outcome === 'failed' || f.outcome === 'warning');

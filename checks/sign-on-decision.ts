import { setAt } from './paths';
import { accountInfoFieldRules } from './account-info';
import { isObject } from './evidence';
import { evaluateAll, failed, type Finding } from './finding';
import type { Field, Payload, PayloadContext, PayloadRule } from './payload';

/**
 * What the platform does with account information at sign-on (spec §7), decided by the same field
 * rules the harness certifies with: the platform emulator shows the screen this names, and the browser
 * suites predict it the same way.
 */
export type SignOnDecision =
  | { screen: 'error'; reason: SignOnErrorReason; problems: Finding[] }
  /** Spec §7.2: the Yes* fields the user types, as leaf string fields (a missing address becomes its parts). */
  | { screen: 'collect'; fields: Field[] }
  | { screen: 'app' };

export type SignOnErrorReason = 'MISSING_REQUIRED_ACCOUNT_INFO' | 'INVALID_ACCOUNT_INFO';

const isPresence = (rule: PayloadRule) => rule.judges === 'presence';
const collectable = accountInfoFieldRules.filter((rule) => isPresence(rule) && rule.subject.marker === 'Yes*');
const presenceRuleIds = new Set(accountInfoFieldRules.filter(isPresence).map((rule) => rule.id));

/** A missing Yes* object is typed as its Yes* string parts: `company.address` → line1, city, state, postalcode. */
export function typedFieldsOf(field: Field): Field[] {
  if (field.kind === 'string') return [field];
  return collectable.map((rule) => rule.subject).filter((part) => part.kind === 'string' && part.path.startsWith(`${field.path}.`));
}

export function signOnDecision(accountInfo: unknown, ctx: PayloadContext): SignOnDecision {
  if (!isObject(accountInfo)) return { screen: 'error', reason: 'MISSING_REQUIRED_ACCOUNT_INFO', problems: [] };
  const findings = evaluateAll(accountInfoFieldRules, accountInfo, ctx);
  const problems = findings.filter((finding) => finding.outcome === 'failed');
  if (problems.length > 0) {
    const missing = problems.some((problem) => presenceRuleIds.has(problem.rule));
    return { screen: 'error', reason: missing ? 'MISSING_REQUIRED_ACCOUNT_INFO' : 'INVALID_ACCOUNT_INFO', problems };
  }
  const asked = new Set(findings.filter((finding) => finding.outcome === 'warning').map((finding) => finding.rule));
  const fields = collectable.filter((rule) => asked.has(rule.id)).flatMap((rule) => typedFieldsOf(rule.subject));
  return fields.length > 0 ? { screen: 'collect', fields } : { screen: 'app' };
}

/** The account information with the values the user typed on the collection screen; blanks stay missing. */
export function withTypedValues(accountInfo: Payload, fields: readonly Field[], typed: Readonly<Record<string, string>>): Payload {
  const merged = structuredClone(accountInfo);
  for (const field of fields) {
    const value = typed[field.path]?.trim();
    if (!value) continue;
    setAt(merged, field.path, value);
  }
  return merged;
}

/**
 * Judges what the user typed with the same rules: the problem per typed field (a blank is "required"),
 * none when sign-on can go on to the app.
 */
export function typedValueProblems(accountInfo: Payload, fields: readonly Field[], typed: Readonly<Record<string, string>>, ctx: PayloadContext) {
  const merged = withTypedValues(accountInfo, fields, typed);
  const problems: Record<string, string> = {};
  for (const { path } of fields) if (!typed[path]?.trim()) problems[path] = 'required';
  const paths = new Set(fields.map((field) => field.path));
  for (const finding of failed(evaluateAll(accountInfoFieldRules, merged, ctx))) {
    if (paths.has(finding.field) && !(finding.field in problems)) problems[finding.field] = finding.message;
  }
  return { merged, problems };
}

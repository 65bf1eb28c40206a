import { setAt } from './paths';
import { accountInfoFieldRules } from './account-info';
import { isObject } from './evidence';
import { evaluateAll, failed, type Finding } from './finding';
import type { Field, Payload, PayloadContext, PayloadRule } from './payload';

/**
 * What the platform does with account information at sign-on (spec §7), decided by the same field rules the harness
 * certifies with: the platform emulator shows the screen this names, the browser suites predict it the same way, and
 * the population check counts it for every user, under the settings it is given.
 */
export type SignOnDecision =
  /** `problems`: the findings that show the error screen. */
  | { screen: 'error'; reason: SignOnErrorReason; problems: Finding[] }
  /** Spec §7.2: the Yes* fields the user types, as leaf string fields (a missing address becomes its parts). */
  | { screen: 'collect'; fields: Field[]; beforePayment: readonly string[] }
  /** `beforePayment`, here and above: the no** fields the user is asked for before their first payment, sorted. */
  | { screen: 'app'; beforePayment: readonly string[] };

export type SignOnErrorReason = 'MISSING_REQUIRED_ACCOUNT_INFO' | 'INVALID_ACCOUNT_INFO';

/** What the spec leaves open about a value that is present but invalid: the platform's choice (DESIGN §7). */
export const invalidRequiredChoices = ['error-screen', 'typed-again'] as const;
export const invalidOptionalChoices = ['error-screen', 'dropped'] as const;
export interface SignOnChoices {
  /** A Yes* value: the error screen (the emulator), or the user types it again at sign-on. */
  invalidRequired: (typeof invalidRequiredChoices)[number];
  /** A no**, no* or optional value: sign-on is refused (the emulator), or the value is dropped (a no** one is then asked for before the first payment). */
  invalidOptional: (typeof invalidOptionalChoices)[number];
}
export const emulatorChoices: Readonly<SignOnChoices> = { invalidRequired: 'error-screen', invalidOptional: 'error-screen' };
/** The choices, and collectMissingAccountInfo, the platform's configuration for the partner (spec §7.2). */
export type SignOnSettings = SignOnChoices & Pick<PayloadContext, 'collectMissingAccountInfo'>;

const isPresence = (rule: PayloadRule) => rule.judges === 'presence';
const collectable = accountInfoFieldRules.filter((rule) => isPresence(rule) && rule.subject.marker === 'Yes*');
const ruleById = new Map(accountInfoFieldRules.map((rule) => [rule.id, rule]));
const problemsOnly = { problemsOnly: true };

/** A missing Yes* object is typed as its Yes* string parts: `company.address` → line1, city, state, postalcode. */
export function typedFieldsOf(field: Field): readonly Field[] {
  let parts = typedParts.get(field);
  if (parts) return parts;
  parts =
    field.kind === 'string'
      ? [field]
      : collectable.map((rule) => rule.subject).filter((part) => part.kind === 'string' && part.path.startsWith(`${field.path}.`));
  typedParts.set(field, parts);
  return parts;
}
// Made once per field: the population check decides every user four times.
const typedParts = new Map<Field, readonly Field[]>();

export function signOnDecision(accountInfo: unknown, ctx: PayloadContext, choices: SignOnChoices = emulatorChoices): SignOnDecision {
  if (!isObject(accountInfo)) return { screen: 'error', reason: 'MISSING_REQUIRED_ACCOUNT_INFO', problems: [] };
  const problems = evaluateAll(accountInfoFieldRules, accountInfo, ctx, problemsOnly);
  return decideSignOn(problems, { ...choices, collectMissingAccountInfo: ctx.collectMissingAccountInfo });
}

/**
 * The decision from what the account-information field rules found (evaluateAll's problems only). A missing Yes*
 * field is told by its presence rule's code, not its outcome, so problems found under either collectMissingAccountInfo
 * give the decision under `settings`: the population check decides each user under four settings from one evaluation.
 */
export function decideSignOn(problems: readonly Finding[], settings: SignOnSettings): SignOnDecision {
  let causes: Finding[] | undefined;
  let missing = false;
  let typed: Map<string, Field> | undefined;
  let beforePayment: Set<string> | undefined;
  for (const problem of problems) {
    const rule = ruleById.get(problem.rule);
    // A failure of no field rule refuses the account information as an invalid value of a Yes field would.
    const effect = rule ? effectOf(problem, rule, settings) : problem.outcome === 'failed' ? 'invalid' : undefined;
    if (effect === 'missing' || effect === 'invalid') {
      (causes ??= []).push(problem);
      missing ||= effect === 'missing';
    } else if (effect === 'typed') for (const part of typedFieldsOf(rule!.subject)) (typed ??= new Map()).set(part.path, part);
    else if (effect === 'before-payment') (beforePayment ??= new Set()).add(rule!.subject.path);
  }
  if (causes) return { screen: 'error', reason: missing ? 'MISSING_REQUIRED_ACCOUNT_INFO' : 'INVALID_ACCOUNT_INFO', problems: causes };
  const asked = beforePayment ? [...beforePayment].sort() : [];
  if (typed) return { screen: 'collect', fields: [...typed.values()], beforePayment: asked };
  return asked.length > 0 ? { screen: 'app', beforePayment: asked } : straightIn;
}
// Most users' decision, made once (frozen: it is everyone's).
const straightIn: SignOnDecision = Object.freeze({ screen: 'app', beforePayment: Object.freeze([]) });

/**
 * The rules whose findings made the decision under `settings`, each once, in the rules' order: the error screen's
 * causes; else the fields the user types at sign-on and the no** fields asked before the first payment; none for a
 * user who signs straight in.
 */
export function decidingRules(problems: readonly Finding[], settings: SignOnSettings): string[] {
  const made = new Set<string>();
  let error = false;
  for (const problem of problems) {
    const rule = ruleById.get(problem.rule);
    const effect = rule ? effectOf(problem, rule, settings) : problem.outcome === 'failed' ? 'invalid' : undefined;
    if (effect === 'missing' || effect === 'invalid') {
      if (!error) made.clear();
      error = true;
      made.add(problem.rule);
    } else if (effect !== undefined && !error) made.add(problem.rule);
  }
  return [...made];
}

/** What one problem does at sign-on under `settings` (spec §7; the legend of §2.3's "Required" column): nothing when undefined. */
function effectOf(problem: Finding, rule: PayloadRule, settings: SignOnSettings) {
  const { marker } = rule.subject;
  if (rule.judges === 'presence') {
    const omitted = problem.code === 'missing' || problem.code === 'null';
    if (omitted && marker === 'Yes*') return settings.collectMissingAccountInfo ? 'typed' : 'missing';
    if (omitted && marker === 'no**') return 'before-payment';
    return problem.outcome === 'failed' ? 'missing' : undefined;
  }
  if (problem.outcome !== 'failed') return undefined;
  // A value present but invalid.
  if (marker === 'Yes*' && settings.invalidRequired === 'typed-again') return 'typed';
  if (marker !== 'Yes' && marker !== 'Yes*' && settings.invalidOptional === 'dropped') return marker === 'no**' ? 'before-payment' : undefined;
  return 'invalid';
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
  for (const finding of failed(evaluateAll(accountInfoFieldRules, merged, ctx, problemsOnly))) {
    if (paths.has(finding.field) && !(finding.field in problems)) problems[finding.field] = finding.message;
  }
  return { merged, problems };
}

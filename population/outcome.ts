import type { Field, PayloadRule } from '../checks/payload';
import { typedFieldsOf } from '../checks/sign-on-decision';
import type { RuleProblem } from './judge';
import type { AlternativeSetting, OutcomeKey, Settings } from './summary-schema';

/**
 * The outcome a user meets at sign-on, from what the rules found (population/judge.ts), under the settings that
 * decide what the spec leaves open. With the emulator's settings it is the platform's decision at sign-on
 * (checks/sign-on-decision.ts, spec §7): any failed rule shows the error screen, MISSING_REQUIRED_ACCOUNT_INFO when
 * a presence rule failed; else the Yes* fields missing are typed at sign-on (collectMissingAccountInfo, §7.2).
 */
export interface UserOutcome {
  outcome: OutcomeKey;
  /** For the error screen: the platform's reason. */
  reason?: 'MISSING_REQUIRED_ACCOUNT_INFO' | 'INVALID_ACCOUNT_INFO';
  /** The fields typed at sign-on (a missing address: its four parts). */
  typed: number;
  /** The no** fields asked for before the first payment, when the user gets in. */
  beforePayment: string[];
}

export type OutcomeSettings = Pick<Settings, AlternativeSetting>;

/** What the user types for a field, as the collection screen asks for it (a missing address: its four parts). */
const typedPaths = (field: Field): string[] => typedFieldsOf(field).map((part) => part.path);

const isYesStarPresence = (rule: PayloadRule) => rule.judges === 'presence' && rule.subject.marker === 'Yes*';
const isOptional = (rule: PayloadRule) => rule.subject.marker === 'no**' || rule.subject.marker === 'no*' || rule.subject.marker === 'no';

export function userOutcome(problems: readonly RuleProblem[], settings: OutcomeSettings): UserOutcome {
  let missing = false;
  let invalid = false;
  const typed = new Set<string>();
  const beforePayment = new Set<string>();
  for (const { rule, issues } of problems) {
    if (isYesStarPresence(rule)) {
      // The only outcome collectMissingAccountInfo changes (checks/payload-rules.ts omission).
      if (settings.collectMissingAccountInfo) for (const path of typedPaths(rule.subject)) typed.add(path);
      else missing = true;
      continue;
    }
    if (rule.judges === 'presence' && rule.subject.marker === 'no**') {
      beforePayment.add(rule.subject.path);
      continue;
    }
    if (!issues.some(({ outcome }) => outcome === 'failed')) continue;
    if (rule.judges === 'presence') missing = true;
    else if (settings.invalidRequired === 'typed-again' && rule.subject.marker === 'Yes*') for (const path of typedPaths(rule.subject)) typed.add(path);
    else if (settings.invalidOptional === 'dropped' && isOptional(rule)) {
      if (rule.subject.marker === 'no**') beforePayment.add(rule.subject.path);
    } else invalid = true;
  }
  if (missing || invalid) {
    return { outcome: 'error-screen', reason: missing ? 'MISSING_REQUIRED_ACCOUNT_INFO' : 'INVALID_ACCOUNT_INFO', typed: 0, beforePayment: [] };
  }
  const asked = [...beforePayment].sort();
  if (typed.size > 0) return { outcome: 'typed-at-sign-on', typed: typed.size, beforePayment: asked };
  return { outcome: asked.length > 0 ? 'asked-before-payment' : 'signs-in', typed: 0, beforePayment: asked };
}

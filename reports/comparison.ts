import type { Certification } from './certification-schema';

/** The partner's rules against a previous run's: what was fixed, what regressed, what fails for the first time. */
export function compare(rules: Certification['rules'], previous: Certification): NonNullable<Certification['comparison']> {
  const before = new Map(previous.rules.map((rule) => [rule.id, rule.outcome]));
  const failedBefore = (id: string) => before.get(id) === 'failed';
  const checkedBefore = (id: string) => !['not-checked', 'skipped', undefined].includes(before.get(id));
  return {
    previous: { finishedAt: previous.run.finishedAt, verdict: previous.verdict },
    fixed: rules.filter((rule) => failedBefore(rule.id) && ['passed', 'warning', 'info'].includes(rule.outcome)).map((rule) => rule.id),
    // A rule waived before and failing now (its waiver expired or was withdrawn) regressed.
    regressed: rules.filter((rule) => rule.outcome === 'failed' && checkedBefore(rule.id) && !failedBefore(rule.id)).map((rule) => rule.id),
    new: rules.filter((rule) => rule.outcome === 'failed' && !checkedBefore(rule.id)).map((rule) => rule.id),
  };
}

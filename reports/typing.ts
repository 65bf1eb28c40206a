import { allRules } from '../checks/catalogue';
import type { Finding, Outcome, Rule } from '../checks/finding';
import { markerLegend, type Marker, type PayloadRule } from '../checks/payload';
import type { Certification } from './certification-schema';

/** What the partner's users will be asked to type: the fields the platform must collect because the payload lacks them. */

/** The spec marker (Yes*, no**…) of each field's presence rule, by rule id. */
const markerOfPresenceRule = new Map(
  (allRules as readonly (Rule<never, never> & Partial<Pick<PayloadRule, 'subject' | 'judges'>>)[])
    .filter((rule) => rule.judges === 'presence' && rule.subject)
    .map((rule) => [rule.id, rule.subject!.marker]),
);

/** When the user types a missing field: a failed Yes* field is never typed, since without collection sign-on stops at the error screen. */
const when = (marker: Marker, outcome: Outcome) =>
  marker === 'Yes*' && outcome === 'failed'
    ? 'never: without collectMissingAccountInfo, sign-on shows them the error screen instead'
    : markerLegend[marker].typed;

/** The omissions the platform makes the user make up for: Yes*, no** and no* fields missing from the payload. */
export function typingOf(findings: readonly Finding[]): Certification['typing'] {
  const rows = new Map<string, Certification['typing'][number]>();
  for (const finding of findings) {
    const marker = markerOfPresenceRule.get(finding.rule);
    // A waiver changes the verdict, not what the platform does: a waived omission is still typed (or not).
    const outcome = finding.waivedOutcome ?? finding.outcome;
    if ((marker === 'Yes*' || marker === 'no**' || marker === 'no*') && ['failed', 'warning', 'info'].includes(outcome)) {
      rows.set(finding.field, { field: finding.field, marker, when: when(marker, outcome) });
    }
  }
  return [...rows.values()];
}

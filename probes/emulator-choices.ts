import { allRules } from '../checks/catalogue';
import type { Finding } from '../checks/finding';
import { valueAt } from '../checks/paths';
import { dataApiKind, platformKind } from '../profile/platform-kind';
import type { Profile } from '../profile/profile-schema';

const rulesById = new Map(allRules.map((rule) => [rule.id, rule]));

/**
 * Against a platform the harness did not write, a rule that rests only on a choice of the bundled emulator's
 * (Rule.emulatorChoice: what the spec leaves "not shown") is a note, not a failure, unless the profile states
 * that platform's own choice, which then is its requirement.
 */
export function gradeEmulatorChoices(findings: readonly Finding[], profile: Profile): Finding[] {
  return findings.map((finding) => {
    const rule = rulesById.get(finding.rule);
    const choice = rule?.emulatorChoice;
    if (!choice || (finding.outcome !== 'failed' && finding.outcome !== 'warning')) return finding;
    const kind = finding.rule.startsWith('data-api/') ? dataApiKind(profile) : profile.platform && platformKind(profile.platform);
    if (kind !== 'external' || (choice.field !== undefined && valueAt(profile, choice.field) !== undefined)) return finding;
    const state = choice.field ? `; state this platform's in "${choice.field}" to make it a requirement` : '';
    return { ...finding, outcome: 'info', message: `${finding.message} (${choice.what} is the bundled emulator's choice, which the spec leaves open${state})` };
  });
}

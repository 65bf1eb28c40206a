import type { Finding } from '../checks/finding';
import { isExpired, type Waiver } from '../checks/waivers';
import type { Certification } from './certification-schema';

/**
 * What each waiver did this run. The findings carry the waiver that matched them, as their tests decided on
 * their own clocks (checks/outcome.ts): one that waived a finding was used, even if it has expired since.
 */
export function waiversOf(waivers: readonly Waiver[], findings: readonly Finding[], rules: Certification['rules'], now: Date): Certification['waivers'] {
  const judged = new Set(rules.filter((rule) => rule.outcome !== 'not-checked').map((rule) => rule.id));
  return waivers.map((waiver, index) => {
    const number = index + 1;
    const matched = findings.filter((f) => f.waiver?.waiver === number);
    const waived = matched.some((f) => f.outcome === 'waived');
    const status = waived ? 'used' : isExpired(waiver, now) ? 'expired' : matched.length > 0 ? 'used' : judged.has(waiver.rule) ? 'stale' : 'unjudged';
    return { waiver: number, ...waiver, status, findings: matched.length };
  });
}

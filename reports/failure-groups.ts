import type { Certification } from './certification-schema';

type Finding = Certification['findings'][number];

export interface FailureGroup {
  /** The first finding's message: what the others like it say too, with their own values. */
  message: string;
  /** How many findings of the rule went wrong this way. */
  count: number;
}

/**
 * A rule's findings by what went wrong: their `code` (missing, pattern, status…), or, for a finding without one,
 * its message. Most frequent first, then in the order met: a report names each kind of problem once, with how
 * many more like it, however many values a partner got wrong the same way.
 */
export function failureGroups(findings: readonly Pick<Finding, 'code' | 'message'>[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const finding of findings) {
    const key = finding.code === undefined ? `message ${finding.message}` : `code ${finding.code}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { message: finding.message, count: 1 });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

/** "(and 3 more like it)", or nothing for a problem met once. */
export const moreLikeIt = (group: FailureGroup): string => (group.count > 1 ? ` (and ${group.count - 1} more like it)` : '');

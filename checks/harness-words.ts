import { allRules } from './catalogue';

/**
 * The harness's own words, which a report shows whatever a secret holds (rule ids, field names, requirements,
 * impacts): ordinary text to redaction, so a fragment of a secret that occurs in one is no leak (DESIGN §5).
 */
export const harnessWords: readonly string[] = allRules.flatMap((rule) => [
  rule.id,
  rule.field,
  rule.requirement,
  rule.impact,
  ...(rule.levelWhy ? [rule.levelWhy] : []),
]);

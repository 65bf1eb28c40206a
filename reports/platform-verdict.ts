import type { Certification } from './certification-schema';
import { blockersOf, countsOf, incomplete, plural, type Attempts } from './verdict-counts';

/** The platform's verdict, from its own rules: never the partner's to fix. */
export function platformSection(
  rules: Certification['rules'],
  tests: readonly Attempts[],
  { judgedBy, emulator, heard, setupProblems }: { judgedBy: string; emulator: boolean; heard: ReadonlySet<string>; setupProblems: readonly string[] },
): NonNullable<Certification['platform']> {
  const counts = countsOf(rules.map((rule) => rule.outcome));
  const notCompleted = tests.filter(incomplete);
  const judged = rules.length - counts.skipped - counts.notChecked;
  const verdict =
    judged === 0 && notCompleted.length === 0
      ? 'NOT CHECKED'
      : counts.failed > 0
        ? 'DOES NOT CONFORM'
        : counts.notChecked > 0 || notCompleted.length > 0
          ? 'INCOMPLETE'
          : 'CONFORMS';
  const notes = [
    verdict === 'NOT CHECKED'
      ? `none of its ${plural(rules.length, 'rule')} was judged${rules[0]?.outcome === 'skipped' ? ' (the profile names no platform to sign on through, or no data API)' : ''}`
      : `${counts.passed} of ${plural(rules.length, 'rule')} passed`,
    counts.failed > 0 && `${plural(counts.failed, 'rule')} failed`,
    notCompleted.length > 0 && `${plural(notCompleted.length, 'test')} did not complete`,
    counts.waived > 0 && `${plural(counts.waived, 'rule')} waived`,
    verdict !== 'NOT CHECKED' && plural(counts.warning, 'warning'),
    verdict !== 'NOT CHECKED' && counts.skipped > 0 && `${counts.skipped} not applicable`,
    verdict !== 'NOT CHECKED' && counts.notChecked > 0 && `${counts.notChecked} not checked${blockersOf(rules, rules, heard)}`,
  ].filter(Boolean);
  const where = [
    emulator && "the bundled emulator: this is the harness's own self-check",
    judgedBy && `judged once for every partner on this platform, in ${judgedBy}'s tests`,
  ].filter(Boolean);
  // This partner's own credentials, which the platform refused: its set-up to fix, not the platform's failure.
  const setup = setupProblems.length > 0 ? `; this profile's own platform set-up failed: ${setupProblems.join('; ')}` : '';
  return {
    verdict,
    summary: `${verdict}: ${notes.join(', ')}${where.length > 0 ? ` (${where.join('; ')})` : ''}${setup}`,
    counts: { rules: rules.length, ...counts },
    judgedBy: judgedBy || null,
    emulator,
    setupProblems: [...setupProblems],
  };
}

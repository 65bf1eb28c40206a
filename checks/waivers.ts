import type { Finding, WaiverUse } from './finding';

/**
 * A deviation the platform accepts from one partner for a time (`partners/<name>.waivers.json`): a failed
 * or warned finding it matches is shown as waived, with why, who approved it and until when, and no longer
 * blocks CERTIFIED. Pure: the clock is passed in.
 */
export interface Waiver {
  rule: string;
  /** The finding's field; `*` stands for any characters (`fundingSources[*].routingNumber`). */
  field?: string;
  /** The finding's whole message, in any case; `*` stands for any characters. */
  message?: string;
  reason: string;
  approvedBy: string;
  /** `YYYY-MM-DD`: the last day (UTC) the waiver applies. */
  expires: string;
}

const dayMs = 24 * 60 * 60 * 1000;

export const isExpired = (waiver: Pick<Waiver, 'expires'>, now: Date) => now.getTime() >= Date.parse(`${waiver.expires}T00:00:00Z`) + dayMs;

/**
 * Whether `text` matches `pattern`, where `*` is any run of characters: the pattern's pieces found in
 * order, leftmost first, which is linear in the text (no backtracking, whatever a partner's body holds).
 */
export function globMatches(pattern: string, text: string, { anchored }: { anchored: boolean }): boolean {
  const pieces = pattern.split('*');
  if (!anchored) return pieces.length === 1 ? text.includes(pattern) : globMatches(`*${pattern}*`, text, { anchored: true });
  if (pieces.length === 1) return text === pattern;
  const first = pieces[0]!;
  const last = pieces.at(-1)!;
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = text.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

export const waiverMatches = (waiver: Waiver, finding: Pick<Finding, 'rule' | 'field' | 'message'>) =>
  waiver.rule === finding.rule &&
  (waiver.field === undefined || globMatches(waiver.field, finding.field, { anchored: true })) &&
  // The whole message: "o'brien" waives the finding about O'Brien, not one about O'Brien<script>….
  (waiver.message === undefined || globMatches(waiver.message.toLowerCase(), finding.message.toLowerCase(), { anchored: true }));

/**
 * Each failed or warned finding that a waiver matches: waived under the first waiver in force that matches
 * it; one that only an expired waiver matches keeps its outcome and names that waiver, so the report can
 * say why it is no longer waived. Every other finding is returned as it is.
 */
export function applyWaivers(findings: readonly Finding[], waivers: readonly Waiver[], now: Date): Finding[] {
  if (waivers.length === 0) return [...findings];
  const numbered = waivers.map((waiver, index) => ({ waiver, number: index + 1, expired: isExpired(waiver, now) }));
  return findings.map((finding) => {
    if (finding.outcome !== 'failed' && finding.outcome !== 'warning') return finding;
    const matching = numbered.filter(({ waiver }) => waiverMatches(waiver, finding));
    const used = matching.find((candidate) => !candidate.expired) ?? matching[0];
    if (!used) return finding;
    const { reason, approvedBy, expires } = used.waiver;
    const waiver: WaiverUse = { waiver: used.number, reason, approvedBy, expires, ...(used.expired ? { expired: true as const } : {}) };
    return used.expired ? { ...finding, waiver } : { ...finding, outcome: 'waived', waivedOutcome: finding.outcome, waiver };
  });
}

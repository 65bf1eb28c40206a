import { isObject } from '../../checks/evidence';
import { evaluateAll, failed } from '../../checks/finding';
import { fundingSourceRules } from '../../checks/funding-sources';

/** A funding source as the platform keeps it: never the full account number. */
export interface KnownSource {
  id: string;
  nickname?: string;
  last4?: string;
}

export interface Sync {
  added: string[];
  removed: string[];
  notice?: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Spec §2.4: `accountNumberLast4Digits`, or when omitted the last 4 of `bankAccountNumber`. */
function keptOf(source: Record<string, unknown>): KnownSource {
  const nickname = text(source.nickname) ?? text(source.nickName);
  const last4 = text(source.accountNumberLast4Digits) ?? text(source.bankAccountNumber)?.slice(-4);
  return { id: String(source.id), ...(nickname ? { nickname } : {}), ...(last4 ? { last4 } : {}) };
}

/**
 * Spec §4.2: every funding source found is added to the user's sources, and a known source whose id is
 * no longer listed is removed. A list that fails the §2.4 rules changes nothing.
 */
export function syncFundingSources(known: Map<string, KnownSource>, payload: unknown, now: Date): Sync {
  const problems = isObject(payload) ? failed(evaluateAll(fundingSourceRules, payload, { now, collectMissingAccountInfo: false }, { problemsOnly: true })) : [];
  const listed = isObject(payload) && Array.isArray(payload.fundingSources) ? payload.fundingSources.filter(isObject) : undefined;
  if (!listed || problems.length > 0) {
    const why = problems[0]?.message ?? 'the answer was not a funding-source list';
    return { added: [], removed: [], notice: `Funding sources were not updated: ${why}.` };
  }
  const sources = listed.map(keptOf);
  const ids = new Set(sources.map((source) => source.id));
  const removed = [...known.keys()].filter((id) => !ids.has(id));
  for (const id of removed) known.delete(id);
  const added = sources.filter((source) => !known.has(source.id)).map((source) => source.id);
  for (const source of sources) known.set(source.id, source);
  return { added, removed };
}

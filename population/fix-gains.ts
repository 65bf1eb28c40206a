/**
 * What each fix gains (issue 52): a user at the error screen gets in once every rule that sent them there is fixed,
 * and not before. The summary counts users by that set of rules (their causes, `causes`: rule ids joined by a space,
 * in the rules' order), so the figures are exact, on one machine and after a merge, while the distinct sets number
 * at most `causeSetsKept`; past it, a new set's users are counted as `uncounted`, and every figure below is at most
 * that many users short.
 */
export const causeSetsKept = 20_000;

/** Adds users at the error screen, by the rules that sent them there (a summary's `causes`). */
export function addCauses(summary: { causes: Record<string, number>; causesUncounted: number }, key: string, users = 1): void {
  const { causes } = summary;
  if (key in causes) causes[key]! += users;
  else if (setsIn(causes) < causeSetsKept) {
    causes[key] = users;
    sets.set(causes, setsIn(causes) + 1);
  } else summary.causesUncounted += users;
}
// The sets a summary holds, counted once (a summary copied from a worker is a new object) and then kept: counting its
// keys at every new set made a run whose users each had a set of their own quadratic (an hour for a million).
const sets = new WeakMap<object, number>();
const setsIn = (causes: Record<string, number>) => sets.get(causes) ?? sets.set(causes, Object.keys(causes).length).get(causes)!;

export interface FixGains {
  /** Per rule: the users who get in if that rule alone is fixed. */
  alone: Record<string, number>;
  /** Fix this first, then this, …: each step the rule that lets in the most users not yet in, with how many. */
  plan: { rule: string; users: number }[];
  /** Users at the error screen for two or more rules: none of them gets in by one fix. */
  severalRules: number;
  /** Users at the error screen the plan does not let in (they need rules past its last step, together). */
  leftOut: number;
  /** Users whose set of rules was past the bound: the figures may each be short by this many. */
  uncounted: number;
}

/** The gains, from the users at the error screen counted by their set of rules; a plan of at most `steps` fixes. */
export function fixGains(causes: Readonly<Record<string, number>>, uncounted: number, steps = 10): FixGains {
  const sets = Object.entries(causes).map(([key, users]) => {
    const rules = key.split(' ');
    return { rules, users, missing: rules.length };
  });
  const alone: Record<string, number> = {};
  for (const set of sets) if (set.rules.length === 1) alone[set.rules[0]!] = (alone[set.rules[0]!] ?? 0) + set.users;
  const severalRules = sets.filter((set) => set.rules.length > 1).reduce((sum, set) => sum + set.users, 0);
  const plan: FixGains['plan'] = [];
  const fixed = new Set<string>();
  for (let step = 0; step < steps; step++) {
    // A set with one rule left unfixed lets its users in when that rule is fixed.
    const gains = new Map<string, number>();
    for (const set of sets) {
      if (set.missing !== 1) continue;
      const rule = set.rules.find((one) => !fixed.has(one))!;
      gains.set(rule, (gains.get(rule) ?? 0) + set.users);
    }
    const [best] = [...gains].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    if (!best) break;
    fixed.add(best[0]);
    for (const set of sets) if (set.rules.includes(best[0])) set.missing--;
    plan.push({ rule: best[0], users: best[1] });
  }
  const leftOut = sets.filter((set) => set.missing > 0).reduce((sum, set) => sum + set.users, 0);
  return { alone, plan, severalRules, leftOut, uncounted };
}

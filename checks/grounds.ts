import type { AnyRule } from './finding';

/**
 * What a platform rule rests on (DESIGN §5): (i) the spec's words, (ii) a value the profile states, or (iii) an
 * effect a browser or client suffers. A rule that rests on none of these judges only our emulator's shape.
 */
export type GroundKind = 'spec' | 'profile' | 'effect';
export interface Ground {
  kind: GroundKind;
  words: string;
}

/**
 * Read from what the rule already states: a MUST's grounds (DESIGN §4: (a) and (b) are effects, (c) the spec),
 * the profile field that states a platform's own choice, and the effect a rule below MUST is judged by.
 */
export function groundsOf(rule: Pick<AnyRule, 'must' | 'emulatorChoice' | 'effect'>): Ground[] {
  const grounds: Ground[] = [];
  if (rule.must?.spec) grounds.push({ kind: 'spec', words: rule.must.spec });
  if (rule.emulatorChoice?.field) grounds.push({ kind: 'profile', words: `\`${rule.emulatorChoice.field}\`: ${rule.emulatorChoice.what}` });
  for (const words of [rule.must?.signOn, rule.must?.othersIn, rule.effect]) if (words) grounds.push({ kind: 'effect', words });
  return grounds;
}

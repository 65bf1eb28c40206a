/**
 * A rule's words about a value, told apart from the value: the harness's own text, and what came from the user's
 * value (`said`). The certification shows both; the population check shows the harness's words as they are and
 * only the shape of what was said (population/tally.ts), so its advice keeps "a 10-digit US number" whole and holds
 * no one's data.
 */

/** Text of the harness's own, or what came from the user's value. */
export type ToldPart = string | { readonly said: string };

export interface Told {
  readonly text: string;
  readonly parts: readonly ToldPart[];
}

/** The harness's own words inside `told`: a setting, a list, the run's date; what no user wrote. */
export interface Ours {
  readonly ours: string;
}
export const ours = (text: string | number): Ours => ({ ours: String(text) });

const isOurs = (value: unknown): value is Ours => typeof value === 'object' && value !== null && 'ours' in value;

/**
 * A rule's words, as a template: the literal text is the harness's, and every value put in it is the user's
 * unless it is wrapped in `ours`. What is not marked is taken for the user's: a forgotten mark hides a word of the
 * harness's, never shows one of the user's.
 */
export function told(strings: TemplateStringsArray, ...values: unknown[]): Told {
  const parts: ToldPart[] = [];
  const add = (part: ToldPart) => {
    const last = parts[parts.length - 1];
    if (typeof part === 'string' && typeof last === 'string') parts[parts.length - 1] = last + part;
    else if (part !== '') parts.push(part);
  };
  strings.forEach((literal, i) => {
    add(literal);
    if (i < values.length) {
      const value = values[i];
      add(isOurs(value) ? value.ours : { said: String(value) });
    }
  });
  return { text: textOf(parts), parts };
}

export const textOf = (parts: readonly ToldPart[]) => parts.map((part) => (typeof part === 'string' ? part : part.said)).join('');

/** Words with nothing of a user's: a requirement, a message about a missing field. */
export const ourWords = (text: string): Told => ({ text, parts: [text] });

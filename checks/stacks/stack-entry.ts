/**
 * The partner's OAuth server, told from what its token endpoint answered (issue 53): a library is named only when
 * every mark of its entry holds in this run's answers, and no other entry's does; otherwise "not recognised", with why.
 * Each entry is data (checks/stacks/*.ts, one a library, with the versions its marks were observed on); the marks are
 * the library's own words, which no other library of the catalogue gives (a self-test holds each entry's recorded
 * answers against every other entry).
 */

/** One answer of the token endpoint: what a mark is held against. */
export interface StackAnswer {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** The token endpoint's answers to each probe of this run, by probe id (`token-exchange/unknown-code`). */
export type StackAnswers = ReadonlyMap<string, readonly StackAnswer[]>;

export interface StackMark {
  probe: string;
  /** The mark in words, for the report's evidence: `an unknown code is answered "grant request is invalid"`. */
  said: string;
  status?: number;
  /** The body exactly as sent (spacing is evidence: Python's json.dumps puts a space after ':'). */
  body?: string;
  /** The JSON body's "error_description". */
  description?: string;
  /** The JSON body's keys, in their order. */
  keys?: readonly string[];
  /** A header (lower-case name) and how its value starts. */
  header?: { name: string; startsWith: string };
  /** Text the body holds, as sent (a library's wording inside a body of the application's own shape). */
  contains?: string;
  /** The mark holds when no answer of the probe is like this one (and the probe was answered). */
  absent?: true;
}

export interface StackFix {
  /** The setting or the few lines that fix the rule on this library, in its own terms. */
  fix: string;
  /** That library's documentation of it. */
  docs: string;
  /** Only for a failure whose message says this: a rule failed for several causes has a fix for each. */
  when?: string;
}

/** Marks that name a library together; an entry has one for each way its server can be met (answering, or refusing the platform). */
export type StackSignature = readonly StackMark[];

export interface StackEntry {
  library: string;
  /** The versions whose answers the marks were taken from. */
  observedOn: readonly string[];
  /** The library's documentation. */
  docs: string;
  signatures: readonly StackSignature[];
  /** By rule id: the fix of that rule on this library, or one for each cause (the first whose `when` fits). */
  fixes: Readonly<Record<string, StackFix | readonly StackFix[]>>;
}

export type StackRecognition = { library: string; observedOn: string[]; docs: string; evidence: string[] } | { notRecognised: string };

function jsonOf(body: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(body);
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function like(mark: StackMark, answer: StackAnswer): boolean {
  if (mark.status !== undefined && answer.status !== mark.status) return false;
  if (mark.body !== undefined && answer.body !== mark.body) return false;
  if (mark.contains !== undefined && !answer.body.includes(mark.contains)) return false;
  if (mark.header && !(answer.headers[mark.header.name] ?? '').startsWith(mark.header.startsWith)) return false;
  if (mark.description === undefined && mark.keys === undefined) return true;
  const json = jsonOf(answer.body);
  if (!json) return false;
  if (mark.description !== undefined && json.error_description !== mark.description) return false;
  return mark.keys === undefined || Object.keys(json).join('\n') === mark.keys.join('\n');
}

/** Whether `mark` holds in `answers`: never for a probe that was not answered. */
export function markHolds(mark: StackMark, answers: StackAnswers): boolean {
  const given = answers.get(mark.probe) ?? [];
  if (given.length === 0) return false;
  return mark.absent ? !given.some((answer) => like(mark, answer)) : given.some((answer) => like(mark, answer));
}

const holding = (entry: StackEntry, answers: StackAnswers) => entry.signatures.find((marks) => marks.every((mark) => markHolds(mark, answers)));

export function recogniseStack(answers: StackAnswers, catalogue: readonly StackEntry[]): StackRecognition {
  const fits = catalogue.filter((entry) => holding(entry, answers));
  if (fits.length === 1) {
    const [{ library, observedOn, docs }] = fits as [StackEntry];
    return { library, observedOn: [...observedOn], docs, evidence: holding(fits[0]!, answers)!.map((mark) => mark.said) };
  }
  if (fits.length === 0) return { notRecognised: 'its answers carry the marks of no library in the catalogue (docs/STACKS.md lists them and how to add one)' };
  return { notRecognised: `its answers fit ${fits.map((entry) => entry.library).join(' and ')} alike, so neither is named` };
}

/** The fix of `rule`, failed with `messages`, on the recognised library, if the catalogue has one for that cause. */
export function stackFixFor(
  recognition: StackRecognition,
  rule: string,
  catalogue: readonly StackEntry[],
  messages: readonly string[] = [],
): { library: string; fix: string; docs: string } | undefined {
  if (!('library' in recognition)) return undefined;
  const fixes = catalogue.find((entry) => entry.library === recognition.library)?.fixes[rule];
  const found = (Array.isArray(fixes) ? fixes : fixes ? [fixes] : []).find(
    ({ when }: StackFix) => when === undefined || messages.some((message) => message.includes(when)),
  ) as StackFix | undefined;
  return found ? { library: recognition.library, fix: found.fix, docs: found.docs } : undefined;
}

/**
 * Finds secrets in text in any form a partner, a browser or a serializer may write them: any letter
 * case; percent-encoded once or twice; form-encoded (`+` for a space); JSON-escaped (`\"`, `\/`, any
 * character as `\u00XX`, at any depth of escaping); HTML-escaped (`&quot;`, `&#47;`, `&#x2F;`); and in
 * base64 or base64url. It also finds long fragments: 40% of a secret, at least 10 characters (a secret cut by a
 * preview, split across two fields, one character escaped differently); and, near such a fragment, a run of as
 * little as a seed (8 characters) of another part of the same secret: the smaller share of a secret split in two.
 * Never a fragment that also occurs in ordinary text of the run (DESIGN §5).
 *
 * How: text and secrets are both brought to one canonical form (each encoded character decoded to its
 * UTF-8 bytes, letters lower-cased, `+` read as a space), remembering where each canonical byte came
 * from. Every 8-byte window of every secret is indexed by a rolling hash; one pass over the text finds
 * the windows, and each hit is extended to the longest common run. Linear in the text, whatever it holds.
 */

import { canonical } from './canonical';
import { hashAt, roll, seedLength, WindowIndex, WindowTable } from './rolling-hash';

export interface MatchableSecret {
  value: string;
  /** Forms of the value to find as well, such as base64 of `client_id:secret`. */
  forms?: readonly string[];
  /** Found whole only, never a fragment: a date's forms (`July 23, 19` begins other dates as well). */
  whole?: boolean;
}

interface Form {
  units: Uint8Array;
  /** The shortest run of this form that counts as the secret. */
  minRun: number;
  owner: number;
}

/** Where a run of a secret sits in the secret (`offset`, `length`, canonical) and in the text (`from`). */
interface Run {
  form: number;
  offset: number;
  length: number;
  from: number;
}

/** How far apart, in the text, two parts of one secret may sit and still be read as one secret split. */
const splitReach = 256;

/**
 * The short runs that are the rest of a secret split in two: a fragment of the same form within `splitReach`
 * holds another part of it (the two do not overlap in the secret). A whole secret found beside a word it
 * contains leaves the word alone. Both lists, sorted by their place in the text, are walked once together, and the
 * fragments of one form near a run are a bounded few: linear in the runs found, after their sort.
 */
function restOfSplitSecrets<R extends Run>(shortRuns: readonly R[], fragments: ReadonlyMap<number, readonly Run[]>): R[] {
  // Found in the order of the scan, a run may start before the last one (it is extended backwards): sorted by place first.
  const byPlace = (a: Run, b: Run) => a.from - b.from;
  const sorted = new Map([...fragments].map(([form, list]) => [form, [...list].sort(byPlace)]));
  const next = new Map<number, number>();
  return [...shortRuns].sort(byPlace).filter((run) => {
    const list = sorted.get(run.form);
    if (!list) return false;
    let i = next.get(run.form) ?? 0;
    while (i < list.length && list[i]!.from < run.from - splitReach) i++;
    next.set(run.form, i);
    for (let j = i; j < list.length && list[j]!.from <= run.from + splitReach; j++) {
      const part = list[j]!;
      if (run.offset + run.length <= part.offset || part.offset + part.length <= run.offset) return true;
    }
    return false;
  });
}

/**
 * The encodings of `value` a partner may echo it in: base64 and base64url wherever it sits in a longer encoded
 * string, and hexadecimal (matched in any case).
 */
export function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value);
  const forms: string[] = [];
  for (const shift of [0, 1, 2]) {
    // Shifted by 1 or 2 bytes, the first 2 or 3 characters also encode the unknown bytes before; drop them.
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const fullGroups = Math.floor((shift + bytes.length) / 3) * 4;
    const body = encoded.slice(shift === 0 ? 0 : 4, shift === 0 ? encoded.replace(/=+$/, '').length : fullGroups);
    if (body.length >= 8) forms.push(body, body.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...forms, Buffer.from(value).toString('hex')];
}

/**
 * 40% of the secret, at least 10 characters; a secret shorter than that only whole. Below half, so that
 * half of an escaped or encoded form, which decodes to a little less than half the secret, is found too.
 */
export const shortestRun = (length: number) => Math.min(length, Math.max(10, Math.floor(length * 0.4)));

export class SecretMatcher {
  private readonly forms: Form[] = [];
  /** Each window's hash to where it sits: a form's index and an offset in it. */
  private readonly seeds = new WindowTable();
  /** Secrets shorter than a seed, found whole. */
  private readonly short: Form[] = [];

  /**
   * Ordinary text of the run (the harness's words, a profile's values that are no secret), canonical: a
   * fragment of a secret that also occurs in it is no leak. Evidence, never the fragment's letters: a random
   * lower-case password is a secret in every fragment.
   */
  private readonly ordinary: Uint8Array[] = [];
  /** The ordinary text's windows, indexed on the first fragment found; and per form with a fragment, its runs that occur there. */
  private ordinaryIndex: WindowIndex | undefined;
  private readonly ordinaryRuns = new Map<number, Int32Array>();

  /** How many secrets it finds; the owner of a hit is its index among them. */
  private count = 0;

  constructor(secrets: readonly MatchableSecret[] = [], ordinary: readonly string[] = []) {
    this.add(secrets, ordinary);
  }

  /** Finds these secrets too, owned from the current count on: the cost is theirs alone, not all the secrets'. */
  add(secrets: readonly MatchableSecret[], ordinary: readonly string[] = []): void {
    if (ordinary.length > 0) {
      this.ordinary.push(...ordinary.map((text) => canonical(text).units));
      this.ordinaryIndex = undefined;
      this.ordinaryRuns.clear();
    }
    for (const secret of secrets) {
      const owner = this.count++;
      for (const text of new Set([secret.value, ...(secret.forms ?? [])])) {
        const units = canonical(text).units;
        if (units.length === 0) continue;
        // Backslashes are dropped as escapes, so a fragment holding some is shorter in canonical bytes than
        // in characters: the run needed is shorter by as many, down to a seed, so that half of a secret with
        // backslashes, split across two fields, is found as half of one without.
        const backslashes = text.split('\\').length - 1;
        const minRun = secret.whole ? units.length : Math.max(Math.min(units.length, seedLength), shortestRun(units.length) - backslashes);
        const form: Form = { units, minRun, owner };
        if (units.length < seedLength) {
          this.short.push(form);
          continue;
        }
        const index = this.forms.push(form) - 1;
        let hash = hashAt(units, 0);
        for (let offset = 0; offset + seedLength <= units.length; offset++) {
          if (offset > 0) hash = roll(hash, units[offset - 1]!, units[offset + seedLength - 1]!);
          this.seeds.add(hash, index, offset);
        }
      }
    }
  }

  get size(): number {
    return this.count;
  }

  get empty(): boolean {
    return this.forms.length === 0 && this.short.length === 0;
  }

  /** Every range of `text` that holds a secret or a long fragment of one, merged, with the owning secret. */
  find(text: string): { from: number; to: number; owner: number }[] {
    if (this.empty || text.length === 0) return [];
    const { units, start, end } = canonical(text);
    const hits: { from: number; to: number; owner: number }[] = [];
    // Fragments (part of a secret, not all of it) and runs too short to be one, by form, in the text's order: a
    // short run is the rest of a split secret when a fragment of the same form, near it, holds another part.
    const fragments = new Map<number, Run[]>();
    const shortRuns: (Run & { owner: number; to: number })[] = [];
    // Per form with a hit only: an array of every form, made for each of a report's thousands of short strings, cost more than the search.
    const covered = new Map<number, number>();
    if (units.length >= seedLength && this.forms.length > 0) {
      let hash = hashAt(units, 0);
      for (let at = 0; at + seedLength <= units.length; at++) {
        if (at > 0) hash = roll(hash, units[at - 1]!, units[at + seedLength - 1]!);
        for (let seed = this.seeds.find(hash); seed !== -1; seed = this.seeds.next(seed, hash)) {
          const index = this.seeds.first(seed);
          const offset = this.seeds.second(seed);
          if (at + seedLength <= (covered.get(index) ?? -1)) continue; // inside a run already found for this form
          const form = this.forms[index]!;
          let left = 0;
          while (left < seedLength && units[at + left] === form.units[offset + left]) left++;
          if (left < seedLength) continue; // a hash collision
          let back = 0;
          while (offset - back > 0 && at - back > 0 && units[at - back - 1] === form.units[offset - back - 1]) back++;
          let ahead = seedLength;
          while (offset + ahead < form.units.length && at + ahead < units.length && units[at + ahead] === form.units[offset + ahead]) ahead++;
          const from = at - back;
          const to = at + ahead;
          covered.set(index, to);
          if (to - from < form.units.length && this.ordinaryFragment(index, offset - back, to - from)) continue;
          const run = { form: index, offset: offset - back, length: to - from, from: start[from]!, to: end[to - 1]!, owner: form.owner };
          if (run.length < form.minRun) shortRuns.push(run);
          else {
            hits.push(run);
            // Pushed in place: a text dense with fragments would make copying the list quadratic.
            const list = fragments.get(index);
            if (run.length < form.units.length) {
              if (list) list.push(run);
              else fragments.set(index, [run]);
            }
          }
        }
      }
    }
    for (const form of this.short) {
      const needle = Buffer.from(form.units);
      const haystack = Buffer.from(units.buffer, units.byteOffset, units.length);
      for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
        hits.push({ from: start[at]!, to: end[at + needle.length - 1]!, owner: form.owner });
      }
    }
    hits.push(...restOfSplitSecrets(shortRuns, fragments));
    hits.sort((a, b) => a.from - b.from || b.to - a.to);
    const merged: typeof hits = [];
    for (const hit of hits) {
      const last = merged.at(-1);
      if (last && hit.from <= last.to) last.to = Math.max(last.to, hit.to);
      else merged.push({ ...hit });
    }
    return merged;
  }

  /** Whether the run of `length` from `offset` of a form occurs in ordinary text; asked of fragments only, which are rare. */
  private ordinaryFragment(index: number, offset: number, length: number): boolean {
    if (this.ordinary.length === 0) return false;
    let runs = this.ordinaryRuns.get(index);
    if (!runs) {
      this.ordinaryIndex ??= new WindowIndex(this.ordinary);
      this.ordinaryRuns.set(index, (runs = this.ordinaryIndex.longestRuns(this.forms[index]!.units)));
    }
    return runs[offset]! >= length;
  }
}

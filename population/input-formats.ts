import { ReaderNote, type Batch, type Batcher } from './batches';
import type { Chunks } from './input-chunks';

/** The formats of a population input (population/input.ts), read into batches of JSON texts, one a line: JSON Lines
 * and a JSON array here, CSV in population/input-csv.ts. */

/** A problem of the input's content, said as it is. */
export class InputProblem extends Error {}

export const isBlank = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

export interface Position {
  /** The last line (for a JSON array, element) read in full. */
  line: number;
}
export type Parser = (
  chunks: Chunks,
  batcher: Batcher,
  at: Position,
  settings: {
    max: number;
    numberColumns: ReadonlySet<string>;
    columns?: ReadonlySet<string> | undefined;
    columnMap?: ReadonlyMap<string, string> | undefined;
    note?: (text: string) => void;
    /** The format was given (--format), not detected: a refusal says so. */
    formatGiven?: boolean;
  },
) => AsyncGenerator<{ batch: Batch }>;

export const tooLong = (what: string, max: number) => new ReaderNote('too-large', `${what} is longer than ${max} bytes`);

/** Lines passed through as they are, but for a '\r' at the end; blank lines skipped. */
export const jsonLines: Parser = async function* (chunks, batcher, at, { max }) {
  let carry: Buffer[] = [];
  let carried = 0;
  const line = (text: Buffer | undefined, start: number, end: number): Batch | undefined => {
    at.line++;
    // A CRLF's CR is no part of the record: the bound is on what is left.
    if (text && end > start && text[end - 1] === 0x0d) end--;
    if (!text || end - start > max) return batcher.add(at.line, tooLong('jsonl: the line', max));
    let first = start;
    while (first < end && isBlank(text[first]!)) first++;
    return first === end ? undefined : batcher.add(at.line, text, start, end);
  };
  // A line over several chunks: undefined when too long (its last byte may be a CR, judged without it by line()).
  const joined = (last: Buffer) => {
    const text = carried + last.length > max + 1 ? undefined : Buffer.concat([...carry, last]);
    [carry, carried] = [[], 0];
    return text;
  };
  for (let chunk = await chunks.next(); chunk; chunk = await chunks.next()) {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end >= 0; start = end + 1, end = chunk.indexOf(0x0a, start)) {
      const text = carried > 0 ? joined(chunk.subarray(0, end)) : chunk;
      const full = text === chunk ? line(chunk, start, end) : line(text, 0, text?.length ?? 0);
      if (full) yield { batch: full };
    }
    if (start === chunk.length) continue;
    carried += chunk.length - start;
    if (carried <= max + 1) carry.push(chunk.subarray(start));
  }
  if (carried === 0) return;
  const text = joined(Buffer.alloc(0));
  const full = line(text, 0, text?.length ?? 0);
  if (full) yield { batch: full };
};

/**
 * The array's elements, found by a scan of its bytes that follows strings, escapes and nesting. Each is written on
 * one line: a newline or carriage return becomes a space outside strings, a tab inside (where it was invalid anyway).
 */
export const jsonArray: Parser = async function* (chunks, batcher, at, { max }) {
  const [before, between, inside, after] = [0, 1, 2, 3];
  let [state, depth, inString, escaped, length, overlong, element] = [before, 0, false, false, 0, false, Buffer.allocUnsafe(64 * 1024)];
  // An element's object or array is closed: only a comma or the array's end may follow it.
  let closed = false;
  // Between elements, whether a comma was the last thing read (else the array has just begun).
  let afterComma = false;
  for (let chunk = await chunks.next(); chunk; chunk = await chunks.next()) {
    if (length + chunk.length > element.length) {
      const bigger = Buffer.allocUnsafe(Math.max(2 * element.length, length + chunk.length));
      element.copy(bigger, 0, 0, length);
      element = bigger;
    }
    for (let i = 0; i < chunk.length; i++) {
      let byte = chunk[i]!;
      if (state === inside) {
        if (inString) {
          if (escaped) escaped = false;
          else if (byte === 0x5c) escaped = true;
          else if (byte === 0x22) inString = false;
          if (byte === 0x0a || byte === 0x0d) byte = 0x09;
        } else if (closed && !isBlank(byte) && byte !== 0x2c && byte !== 0x5d)
          throw new InputProblem(`a comma is missing after element ${at.line + 1} of the JSON array: another value follows it`);
        else if (byte === 0x22) inString = true;
        else if (byte === 0x7b || byte === 0x5b) depth++;
        else if (depth === 0 && (byte === 0x2c || byte === 0x5d)) {
          while (length > 0 && isBlank(element[length - 1]!)) length--;
          at.line++;
          const full = batcher.add(at.line, overlong || length > max ? tooLong('json: the element', max) : Buffer.from(element.subarray(0, length)));
          [state, length, afterComma] = [byte === 0x2c ? between : after, 0, byte === 0x2c];
          if (full) yield { batch: full };
          continue;
        } else if ((byte === 0x7d || byte === 0x5d) && depth > 0) closed = --depth === 0;
        else if (byte === 0x0a || byte === 0x0d) byte = 0x20;
        element[length++] = byte;
      } else if (isBlank(byte)) continue;
      // JSON has no empty place: two commas, a comma first or last would misnumber every element after it.
      else if (state === between && (byte === 0x2c || (byte === 0x5d && afterComma)))
        throw new InputProblem(
          `the JSON array has ${byte === 0x5d ? 'a comma before its end' : 'an empty place (a comma with no element before it)'} after element ${at.line}`,
        );
      else if (state === between && byte === 0x5d) state = after;
      else if (state === between) [state, depth, overlong, closed, i] = [inside, 0, false, false, i - 1];
      else if (state === before && byte === 0x5b) state = between;
      else throw new InputProblem(state === before ? 'not a JSON array: it does not start with "["' : 'text after the end of the JSON array');
    }
    // Past the limit, the element is no longer kept, only scanned to its end.
    if (length > max) [overlong, length] = [true, 0];
  }
  if (state === between || state === inside) throw new InputProblem(`the JSON array is not closed: the input ends after element ${at.line}`);
};

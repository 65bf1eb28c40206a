import { isUtf8 } from 'node:buffer';
import { ReaderNote, type Batch, type Batcher } from './batches';
import type { Chunks } from './input-chunks';
import { headerProblem, unreadColumns } from './input-gate';

/** The three formats of a population input (population/input.ts), read into batches of JSON texts, one a line. */

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

const tooLong = (what: string, max: number) => new ReaderNote('too-large', `${what} is longer than ${max} bytes`);

/** Lines passed through as they are, but for a '\r' at the end; blank lines skipped. */
const jsonLines: Parser = async function* (chunks, batcher, at, { max }) {
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
const jsonArray: Parser = async function* (chunks, batcher, at, { max }) {
  const [before, between, inside, after] = [0, 1, 2, 3];
  let [state, depth, inString, escaped, length, overlong, element] = [before, 0, false, false, 0, false, Buffer.allocUnsafe(64 * 1024)];
  // An element's object or array is closed: only a comma or the array's end may follow it.
  let closed = false;
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
          [state, length] = [byte === 0x2c ? between : after, 0];
          if (full) yield { batch: full };
          continue;
        } else if ((byte === 0x7d || byte === 0x5d) && depth > 0) closed = --depth === 0;
        else if (byte === 0x0a || byte === 0x0d) byte = 0x20;
        element[length++] = byte;
      } else if (isBlank(byte) || (state === between && byte === 0x2c)) continue;
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

const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
type Node = Record<string, unknown>;
interface Column {
  path: string[];
  number: boolean;
}

/** A CSV row as the object its header's spec paths describe (an empty cell is an absent field), or a line the worker reports. */
function rowText(header: Column[], cells: string[]): string | ReaderNote {
  if (cells.length !== header.length) return new ReaderNote('csv-cells', `row has ${cells.length} cells, the header has ${header.length}`);
  const object = Object.create(null) as Node;
  cells.forEach((cell, k) => {
    const { path, number } = header[k]!;
    if (cell === '') return;
    let node = object;
    for (const key of path.slice(0, -1)) {
      const next = node[key];
      node = typeof next === 'object' && next !== null ? (next as Node) : (node[key] = Object.create(null) as Node);
    }
    node[path.at(-1)!] = number && jsonNumber.test(cell) && Number.isFinite(Number(cell)) ? Number(cell) : cell;
  });
  return JSON.stringify(object);
}

/**
 * A header the column map makes ambiguous: a mapped column the header does not name, or two columns of one spec path
 * (a record would keep the last). Only the user's own option and spec paths are quoted, never another header cell.
 */
function mappingProblem(
  raw: readonly string[],
  names: readonly string[],
  columnMap: ReadonlyMap<string, string> | undefined,
  columns: ReadonlySet<string> | undefined,
) {
  const named = new Set(raw);
  const missing = [...(columnMap?.keys() ?? [])].find((column) => !named.has(column));
  if (missing !== undefined)
    return `the column map names ${missing} (for ${columnMap!.get(missing)!}), which the CSV's header does not; check its spelling (names are case-sensitive)`;
  const first = new Map<string, number>();
  for (const [i, name] of names.entries()) {
    const earlier = first.get(name);
    if (earlier !== undefined && columns?.has(name))
      return `columns ${earlier + 1} and ${i + 1} are both ${name}, and a record would keep only the last; give each spec path one column`;
    if (earlier === undefined) first.set(name, i);
  }
  return undefined;
}

const stops = (c: number) => c === 0x2c || c === 0x0a || c === 0x0d;

/** RFC 4180 rows under a header row of spec paths (a name that is not a dotted path is one top-level key); lines of white space skipped. */
const csv: Parser = async function* (chunks, batcher, at, { max, numberColumns, columns, columnMap, note, formatGiven }) {
  const [start, unquoted, quoted, quote] = [0, 1, 2, 3];
  const decoder = new TextDecoder();
  let header: Column[] | undefined;
  let row: string[] = [];
  let [field, state, line, rowLine, rowChars, overlong] = ['', start, 1, 1, 0, false];
  // Whether the chunk in hand, and any the row in hand was read from, are not UTF-8 (decoded, a bad byte is U+FFFD).
  let [brokenChunk, brokenRow] = [false, false];
  // The header row again (exports joined with their headers, `cat a.csv b.csv`): no user's, skipped and counted.
  let [rawHeader, repeatedHeaders, firstRepeat] = [[] as string[], 0, 0];
  const endRow = (): Buffer | ReaderNote | undefined => {
    row.push(field);
    const [cells, wasLong, wasBroken] = [row, overlong || rowChars + field.length > max, brokenRow];
    [row, field, state, rowChars, overlong, at.line, brokenRow] = [[], '', start, 0, false, line, brokenChunk];
    if (wasLong && !header) {
      at.line = 0;
      throw new InputProblem(`the CSV header row is longer than ${max} bytes; the first row names the columns`);
    }
    if (wasLong) return tooLong('csv: the row', max);
    if (cells.length === 1 && cells[0]!.trim() === '') return undefined;
    if (header && cells.length === rawHeader.length && cells.every((cell, i) => cell.trim() === rawHeader[i])) {
      firstRepeat ||= rowLine;
      repeatedHeaders++;
      return undefined;
    }
    if (header && wasBroken && cells.some((cell) => cell.includes('\uFFFD')))
      return new ReaderNote('not-utf8', 'the row is not UTF-8 (each bad byte read as U+FFFD)');
    if (header) {
      const text = rowText(header, cells);
      return typeof text === 'string' ? Buffer.from(text) : text;
    }
    const raw = (rawHeader = cells.map((name) => name.trim()));
    const names = raw.map((name) => columnMap?.get(name) ?? name);
    const problem = mappingProblem(raw, names, columnMap, columns) ?? (columns && headerProblem(names, columns, formatGiven));
    if (problem) {
      at.line = 0;
      throw new InputProblem(problem);
    }
    const unread = columns ? unreadColumns(names, columns) : undefined;
    if (unread) note?.(unread);
    // Only a spec path is nested: a column of another dotted name stays one key, read by no rule (a name of 5,000
    // dots nested 5,000 deep overflowed the stack).
    const nested = (name: string) => /^[^.]+(\.[^.]+)*$/.test(name) && (columns?.has(name) ?? true);
    header = names.map((name) => ({ path: nested(name) ? name.split('.') : [name], number: numberColumns.has(name) }));
    return undefined;
  };
  for (let done = false; !done;) {
    const chunk = await chunks.next();
    done = !chunk;
    const text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    // A chunk cut inside a character reads as not UTF-8 too: a row it flags is named only if it holds U+FFFD.
    brokenChunk = chunk !== undefined && !isUtf8(chunk);
    brokenRow ||= brokenChunk;
    for (let i = 0; i < text.length;) {
      if (state === quoted) {
        const close = text.indexOf('"', i);
        const part = text.slice(i, close < 0 ? text.length : close);
        for (let nl = part.indexOf('\n'); nl >= 0; nl = part.indexOf('\n', nl + 1)) line++;
        [field, i] = [field + part, i + part.length + 1];
        if (close >= 0) state = quote;
        continue;
      }
      const c = text.charCodeAt(i++);
      if (c === 0x22 && state === quote) [field, state] = [field + '"', quoted];
      else if (c === 0x22 && state === start) state = quoted;
      else if (c === 0x2c) {
        rowChars += field.length + 1;
        row.push(field);
        [field, state] = ['', start];
      } else if (c === 0x0a) {
        const text = endRow();
        const full = text && batcher.add(rowLine, text);
        rowLine = ++line;
        if (full) yield { batch: full };
      } else if (c !== 0x0d) {
        let j = i;
        while (j < text.length && !stops(text.charCodeAt(j))) j++;
        [field, state, i] = [field + text.slice(i - 1, j), unquoted, j];
      }
    }
    if (rowChars + field.length <= max) continue;
    // A quoted cell past the bound over several lines is a stray quote: every row after it would fold into one.
    if (state === quoted && line > rowLine) {
      throw new InputProblem(
        `the CSV row that starts on line ${rowLine} has a quoted cell longer than ${max} bytes over lines ${rowLine}-${line}: a stray quote`,
      );
    }
    [row, field, rowChars, overlong] = [[], '', 0, true];
  }
  if (state === quoted) throw new InputProblem(`the CSV row that starts on line ${rowLine} has an unclosed quote`);
  const text = row.length > 0 || field !== '' || state !== start || overlong ? endRow() : undefined;
  const full = text && batcher.add(rowLine, text);
  if (full) yield { batch: full };
  if (repeatedHeaders > 0)
    note?.(
      `${repeatedHeaders === 1 ? '1 row repeats' : `${repeatedHeaders.toLocaleString('en-US')} rows repeat`} the header row (first at line ${firstRepeat}), as where exports are joined with their headers: not judged, as no user's`,
    );
};

export const parsers = { jsonl: jsonLines, 'json-array': jsonArray, csv };

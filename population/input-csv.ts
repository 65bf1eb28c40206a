import { ReaderNote } from './batches';
import { InputProblem, tooLong, type Parser } from './input-formats';
import { headerProblem, unreadColumns } from './input-gate';
import { Utf8Lines } from './utf8-lines';

/** CSV, one of the three formats of a population input (population/input-formats.ts): RFC 4180 rows under a header row. */

const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
type Node = Record<string, unknown>;
interface Column {
  /** Undefined for a column that names no spec path: read by no rule, it is kept out of the record. */
  path: string[] | undefined;
  number: boolean;
}

/** A CSV row as the object its header's spec paths describe (an empty cell is an absent field), or a line the worker reports. */
function rowText(header: Column[], cells: string[]): string | ReaderNote {
  if (cells.length !== header.length) return new ReaderNote('csv-cells', `row has ${cells.length} cells, the header has ${header.length}`);
  const object = Object.create(null) as Node;
  cells.forEach((cell, k) => {
    const { path, number } = header[k]!;
    if (cell === '' || !path) return;
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
export const csv: Parser = async function* (chunks, batcher, at, { max, numberColumns, columns, columnMap, note, formatGiven }) {
  const [start, unquoted, quoted, quote] = [0, 1, 2, 3];
  const decoder = new TextDecoder();
  let header: Column[] | undefined;
  let row: string[] = [];
  let [field, state, line, rowLine, rowChars, overlong] = ['', start, 1, 1, 0, false];
  // The lines whose bytes are not UTF-8: decoded, a bad byte is U+FFFD.
  const utf8 = new Utf8Lines();
  // The header row again (exports joined with their headers, `cat a.csv b.csv`), its columns in any order: no user's,
  // counted; the rows after it are read by it.
  let [rawHeader, sortedHeader, repeatedHeaders, firstRepeat] = [new Set<string>(), [] as string[], 0, 0];
  // The same names, each as often (a header may name a column twice, or leave two unnamed).
  const isHeader = (raw: string[]) => raw.length === sortedHeader.length && [...raw].sort().every((name, i) => name === sortedHeader[i]);
  const columnsOf = (raw: string[]): Column[] => {
    rawHeader = new Set(raw);
    sortedHeader = [...raw].sort();
    // Only a spec path is read, and nested: a column of another name is kept out of the record (a column "company"
    // would have put a string where the company's object is; one of 5,000 dots, nested, overflowed the stack).
    return raw
      .map((name) => columnMap?.get(name) ?? name)
      .map((name) => ({
        path: columns && !columns.has(name) ? undefined : /^[^.]+(\.[^.]+)*$/.test(name) ? name.split('.') : [name],
        number: numberColumns.has(name),
      }));
  };
  const endRow = (): Buffer | ReaderNote | undefined => {
    row.push(field);
    const [cells, wasLong, notUtf8] = [row, overlong || rowChars + field.length > max, utf8.within(rowLine, line)];
    [row, field, state, rowChars, overlong, at.line] = [[], '', start, 0, false, line];
    if (wasLong && !header) {
      at.line = 0;
      throw new InputProblem(`the CSV header row is longer than ${max} bytes; the first row names the columns`);
    }
    if (wasLong) return tooLong('csv: the row', max);
    // A row of nothing (a blank line, or a spreadsheet's empty row of commas) is no one.
    if (cells.every((cell) => cell.trim() === '')) return undefined;
    if (header && rawHeader.has(cells[0]!.trim()) && isHeader(cells.map((cell) => cell.trim()))) {
      firstRepeat ||= rowLine;
      repeatedHeaders++;
      header = columnsOf(cells.map((cell) => cell.trim()));
      return undefined;
    }
    if (header && notUtf8) return new ReaderNote('not-utf8', 'the row is not UTF-8 (each bad byte read as U+FFFD)');
    if (header) {
      const text = rowText(header, cells);
      return typeof text === 'string' ? Buffer.from(text) : text;
    }
    const raw = cells.map((name) => name.trim());
    const names = raw.map((name) => columnMap?.get(name) ?? name);
    const problem = mappingProblem(raw, names, columnMap, columns) ?? (columns && headerProblem(names, columns, formatGiven));
    if (problem) {
      at.line = 0;
      throw new InputProblem(problem);
    }
    const unread = columns ? unreadColumns(names, columns) : undefined;
    if (unread) note?.(unread);
    header = columnsOf(raw);
    return undefined;
  };
  // A CR ends a line only before a LF (CRLF); one alone is its cell's, as quoted (`a\rb` was read as `ab`). A CR that
  // ends what was read is told by the next read's first character.
  let crLast = false;
  for (let done = false; !done;) {
    const chunk = await chunks.next();
    done = !chunk;
    const text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    if (chunk) utf8.read(chunk, line);
    else utf8.end(line);
    if (crLast && text.length > 0 && text.charCodeAt(0) !== 0x0a) [field, state] = [field + '\r', unquoted];
    crLast &&= text.length === 0 && !done;
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
      } else if (c === 0x0d) {
        if (i === text.length) crLast = true;
        else if (text.charCodeAt(i) !== 0x0a) [field, state] = [field + '\r', unquoted];
      } else {
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
      `${repeatedHeaders === 1 ? '1 row repeats' : `${repeatedHeaders.toLocaleString('en-US')} rows repeat`} the header row, its columns in this or another order (first at line ${firstRepeat}), as where exports are joined with their headers: not judged, as no user's; the rows after each are read by it`,
    );
};

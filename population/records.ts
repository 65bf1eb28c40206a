import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { besideItsName, WriteProblem } from './whole-file';

/**
 * `--records-out <file>`: the partner's own list of which users to fix, one row a record, written for the partner
 * alone (never into the report, a shard's summary or a merge): the record's line, its `user.id` and `company.id` as
 * given, the outcome, and the rules that decided it. Nothing else of the payload.
 */
export type RecordsFormat = 'csv' | 'jsonl';

/** The format a records file's name asks for, or undefined for a name that asks for none. */
export const recordsFormatOf = (file: string): RecordsFormat | undefined =>
  ({ '.csv': 'csv' as const, '.jsonl': 'jsonl' as const, '.ndjson': 'jsonl' as const })[path.extname(file).toLowerCase()];

export const recordsHeader = (format: RecordsFormat) => (format === 'csv' ? 'line,user.id,company.id,outcome,rules\n' : '');

/**
 * An id as given: a string as it is, a whole number as JSON readers read it (one past 2^53, or with a fraction, which
 * JSON parsing may have rounded, by that fact), absent as empty; an object or array by its type only (it is
 * no id, and may hold anything). A control, bidirectional or line-separator character is written as `\uXXXX`, never
 * raw: raw, it could make one id read as another.
 */
const idOf = (value: unknown): string | number | boolean | null =>
  value === undefined || value === null
    ? null
    : typeof value === 'string'
      ? value
      : typeof value === 'number'
        ? Number.isSafeInteger(value)
          ? value
          : !Number.isFinite(value)
            ? '(a number too large for JSON readers to keep)'
            : Number.isInteger(value)
              ? '(a number past 2^53, which JSON readers cannot keep exact)'
              : '(a number with a fraction, which JSON readers may round)'
        : typeof value === 'boolean'
          ? value
          : `(${Array.isArray(value) ? 'an array' : 'an object'})`;
// A lone surrogate too: written raw, a CSV's UTF-8 makes each of them U+FFFD, so that two ids read as one.
const unseen = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;
/**
 * Text with its control, bidirectional, line-separator and lone surrogate characters written as `\uXXXX`, as UTF-16 units, as JSON
 * writes a character past U+FFFF (a surrogate pair): \uDB40\uDC41. Ids in the records file, and file names the
 * command prints (the user's own, which may hold an escape sequence or a bidirectional mark).
 */
export const escaped = (text: string) =>
  text.replace(unseen, (char) =>
    Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`).join(''),
  );
// A backslash of the id written twice, so that a `\uXXXX` in the file is always an escape, never an id's own text.
const idText = (value: unknown): string => escaped(String(idOf(value) ?? '').replace(/\\/g, '\\\\'));

/**
 * A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break; one that a spreadsheet would run as a
 * formula (`=`, `+`, `-`, `@` first) is kept from running by a leading `'`, as OWASP advises, and so is one that
 * begins with `'`, so that one `'` taken from any cell that begins with it gives the id: `'=1` and `=1` stay two ids.
 */
function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r']/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const idIn = (payload: Record<string, unknown> | undefined, key: 'user' | 'company'): unknown => {
  const node = payload?.[key];
  return typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>).id : undefined;
};

/** One record's row: `outcome` is an outcome key, or `unreadable` with the problem as its rule. */
export function recordRow(
  format: RecordsFormat,
  line: number,
  payload: Record<string, unknown> | undefined,
  outcome: string,
  rules: readonly string[],
): string {
  const [userId, companyId] = [idIn(payload, 'user'), idIn(payload, 'company')];
  // JSON escapes what JSON.stringify leaves raw (bidirectional marks, U+2028): the same \uXXXX, valid JSON.
  if (format === 'jsonl') return `${escaped(JSON.stringify({ line, 'user.id': idOf(userId), 'company.id': idOf(companyId), outcome, rules }))}\n`;
  return `${line},${csvCell(idText(userId))},${csvCell(idText(companyId))},${outcome},${rules.join(' ')}\n`;
}

/**
 * The records file, written from the start (its header first) to a file of its own beside it, its folder made if need
 * be: `keep` puts it in place at once (a rename), so a run that is interrupted, refused or racing another leaves the
 * last complete file as it was; `drop` removes it, and the folder made for it. An interrupted run removes it on its
 * way out (population/whole-file.ts besideItsName).
 */
export interface RecordsFile {
  /** Appends rows; a write that fails (a full disk) stops the writing, and `failure` says why. */
  write: (rows: string) => void;
  failure: () => WriteProblem | undefined;
  keep: () => void;
  drop: () => void;
}

export function openRecords(file: string, format: RecordsFormat): RecordsFile {
  // Pending before the file exists: a signal that comes once it is there always finds it.
  const beside = besideItsName(path.resolve(file));
  const fd = openSync(beside.partial, 'wx');
  let failed: WriteProblem | undefined;
  const write = (rows: string) => {
    if (failed) return;
    try {
      writeSync(fd, rows);
    } catch (error) {
      failed = new WriteProblem(file, error, '--records-out');
    }
  };
  write(recordsHeader(format));
  let closed = false;
  const closing = (end: () => void) => () => {
    if (!closed) closeSync(fd);
    closed = true;
    end();
  };
  return { write, failure: () => failed, keep: closing(beside.keep), drop: closing(beside.drop) };
}

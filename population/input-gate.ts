import { isUtf8 } from 'node:buffer';
import type { Share } from './fail-if';
import type { PopulationSummary } from './summary-schema';
import { heapFix } from './worker-pool';

/**
 * What keeps an input from being judged as users: a file that is no export of account information (a database, a
 * spreadsheet, an archive, bytes that are no text), a CSV whose columns name no spec path, and a run that read too
 * little to count. Each said in one line with its fix, and never with the input's own content: a first line may be
 * a log line holding someone's data.
 */

const magics: [string, number[]][] = [
  ['a SQLite database', [...Buffer.from('SQLite format 3\0')]],
  ['a Parquet file', [...Buffer.from('PAR1')]],
  ['a zip archive (or an .xlsx workbook)', [0x50, 0x4b, 0x03, 0x04]],
  ['a PDF document', [...Buffer.from('%PDF-')]],
  ['a bzip2 archive', [...Buffer.from('BZh')]],
  ['an xz archive', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['a zstd archive', [0x28, 0xb5, 0x2f, 0xfd]],
  ['a 7z archive', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['an Excel 97 workbook', [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]],
  ['an Avro file', [...Buffer.from('Obj'), 0x01]],
];

/** What `head` (the first bytes of an input, decompressed) is when it cannot be a text export, or undefined. */
export function binaryKind(head: Uint8Array): string | undefined {
  const known = magics.find(([, bytes]) => bytes.every((byte, i) => head[i] === byte));
  if (known) return known[0];
  // No text format of the three holds a NUL byte. Text in UTF-16 does, one byte in two or four; binary data does on most of
  // its lines, and is not UTF-8. A NUL in a record or two of a text export is that record's problem, counted by its line.
  const bytes = head.subarray(0, 4096);
  const nuls = bytes.reduce((count, byte) => count + (byte === 0 ? 1 : 0), 0);
  if (nuls === 0) return undefined;
  return nuls * 10 > bytes.length || (!utf8Head(bytes) && mostLinesHoldNul(bytes)) ? 'binary data (or text in UTF-16)' : undefined;
}

/** Whether `bytes` are UTF-8, but for a character the end of the head cuts. */
const utf8Head = (bytes: Uint8Array) => [0, 1, 2, 3].some((cut) => isUtf8(bytes.subarray(0, bytes.length - cut)));

function mostLinesHoldNul(bytes: Uint8Array): boolean {
  let [lines, withNul, nul] = [0, 0, false];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0) nul = true;
    if (bytes[i] !== 0x0a && i < bytes.length - 1) continue;
    lines++;
    if (nul) withNul++;
    nul = false;
  }
  return 2 * withNul > lines;
}

export const binaryProblem = (kind: string) =>
  `this is ${kind}, not JSON Lines, a JSON array or CSV: export what your account-information endpoint answers for each user in one of those (gzip or not)`;

/** A header compared with the spec paths: an ASCII identifier or dotted path (columnLike decides whether it is quoted). */
const nameable = /^[A-Za-z_][A-Za-z0-9_.\-[\]]{0,63}$/;
const normal = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Edit distance, bounded: past `most`, any number above it. */
function distance(a: string, b: string, most: number): number {
  if (Math.abs(a.length - b.length) > most) return most + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** The spec path a column name most likely means (`first_name` → `user.firstName`), or undefined. */
export function nearestPath(name: string, paths: readonly string[]): string | undefined {
  const wanted = normal(name);
  if (wanted.length < 2) return undefined;
  const most = Math.max(1, Math.floor(wanted.length / 4));
  let best: [string, number] | undefined;
  for (const path of paths) {
    const d = Math.min(distance(wanted, normal(path.slice(path.lastIndexOf('.') + 1)), most), distance(wanted, normal(path), most));
    if (d <= most && (!best || d < best[1])) best = [path, d];
  }
  return best?.[0];
}

// A name quoted in a hint is one no person's value is: joined words (first_name, legal-name, firstName), or a spec
// field's own name as the spec writes it or in lower case (phone, id; not ID, Idaho's code). A first row that is a
// person's record (a CSV without a header) holds Ida, tate, il: named by their place (column 2), never quoted.
const joinedWords = /^[A-Za-z][a-z0-9]*(?:[_.-][A-Za-z0-9]+|[A-Z][a-z0-9]+)+$/;
const columnLike = (name: string, paths: ReadonlySet<string>) =>
  joinedWords.test(name) ||
  [...paths].some((path) => {
    const field = path.slice(path.lastIndexOf('.') + 1);
    return name === field || name === field.toLowerCase();
  });

/** Each column that is a near miss of a spec path, with the path: by its name when written as a column's, else by its place. */
function hintsFor(names: readonly string[], paths: ReadonlySet<string>, between = ' → ', after = '', all = names): string[] {
  const place = new Map<string, number>();
  all.forEach((name, i) => place.has(name) || place.set(name, i + 1));
  const pathList = [...paths];
  return names.flatMap((name) => {
    const path = nameable.test(name) ? nearestPath(name, pathList) : undefined;
    if (!path) return [];
    return [`${columnLike(name, paths) ? name : `column ${place.get(name)}`}${between}${path}${after}`];
  });
}

/** Why a CSV with these column names cannot be read as account information (none of them a spec path), or undefined. */
export function headerProblem(names: readonly string[], paths: ReadonlySet<string>, formatGiven = false): string | undefined {
  if (names.some((name) => paths.has(name))) return undefined;
  const first = names.join(',');
  const separated = first.includes('\t') ? 'tabs' : first.includes(';') ? 'semicolons' : undefined;
  if (separated && names.length === 1)
    return `the CSV header has one column, its names separated by ${separated}: a CSV's columns are separated by commas (RFC 4180); export it so, or convert it`;
  // A column is named only as a spec path's near miss (first_name → user.firstName): a first line that is a
  // person's record (a CSV without a header) has names that resemble no field.
  const hints = hintsFor(names, paths);
  const read =
    hints.length > 0
      ? ''
      : formatGiven
        ? ' (read as CSV, as --format says; a CSV needs a header)'
        : ' (read as CSV, since it starts with neither "{", JSON Lines, nor "[", a JSON array; a CSV needs a header)';
  return `none of the CSV's ${names.length} column${names.length === 1 ? '' : 's'} is a spec path${read}; name each column by the field it holds (user.firstName, company.address.line1, …)${hints.length > 0 ? `; did you mean ${hints.slice(0, 6).join(', ')}` : ''}`;
}

/**
 * The columns of a CSV that name no spec path, with the path each most likely means: read as fields no rule knows,
 * so a partner learns of them (a column of their own name is mapped with `--column <name>=<spec path>`).
 */
export function unreadColumns(names: readonly string[], paths: ReadonlySet<string>): string | undefined {
  const unread = names.filter((name) => name !== '' && !paths.has(name));
  if (unread.length === 0) return undefined;
  const shown = hintsFor(unread, paths, ' (did you mean ', '?)', names);
  const others = unread.length - shown.length;
  const named = shown.length > 0 ? `: ${shown.slice(0, 10).join(', ')}${others > 0 || shown.length > 10 ? ', and others not named' : ''}` : '';
  return `${unread.length} CSV column${unread.length === 1 ? ' names' : 's name'} no spec path, so no rule reads ${unread.length === 1 ? 'it' : 'them'}${named}; map a column of your own name with --column <name>=<spec path>`;
}

/** The object every answer of each endpoint holds: a record without it is no answer of that endpoint. */
const answerKeys = { 'account-info': ['user', 'company'], 'funding-sources': ['fundingSources'] } as const;

/**
 * Why records that were JSON objects are no answers of the endpoint at all (a log, another export): none of them holds
 * every object each answer holds (spec §2.3, §2.4): a log in Elastic's common schema has a "user" object, and never a
 * "company". Read from the presence rules' tallies.
 */
export function foreignRecords(payloads: number, rules: Readonly<Record<string, { failed: number }>>, endpoint: keyof typeof answerKeys): string | undefined {
  const keys = answerKeys[endpoint];
  // Absent or of another type (a log's "user": "alice"), a key is no answer's object.
  const without = (key: string) => (rules[`${endpoint}/${key}/present`]?.failed ?? 0) + (rules[`${endpoint}/${key}/type`]?.failed ?? 0);
  const absent = keys.filter((key) => without(key) === payloads);
  if (payloads === 0 || absent.length === 0) return undefined;
  const what = endpoint === 'account-info' ? 'account-information' : 'funding-sources';
  return `no record judged: none of its ${payloads.toLocaleString('en-US')} records holds ${absent.map((key) => `"${key}"`).join(' or ')} as ${endpoint === 'account-info' ? 'an object' : 'a list'}, which every ${what} answer does (spec ${endpoint === 'account-info' ? '§2.3' : '§2.4'}), so this is no export of them; export what your ${what} endpoint answers for each user`;
}

/**
 * Why a run's input was not what it claims, once read: no record judged, or more than `maxUnreadable` (a share) of its
 * records unreadable. Undefined when the run can stand.
 */
export function inputRefusal(input: PopulationSummary['input'], maxUnreadable: Share): string | undefined {
  const unreadable = Object.values(input.unreadable).reduce((sum, n) => sum + n, 0);
  const records = input.payloads + unreadable;
  const [worst] = Object.entries(input.unreadable).sort((a, b) => b[1] - a[1]);
  const firstLine = worst ? input.unreadableLines[worst[0]]?.[0] : undefined;
  const why = worst ? `${worst[0]}${firstLine === undefined ? '' : `, first at line ${firstLine}`}` : '';
  // A record that ends a worker is ours to handle, not the export's to fix: its fix is a larger heap.
  const died = input.unreadable['worker-died'] ?? 0;
  const heap = died > 0 ? `; ${died.toLocaleString('en-US')} ended a worker, which no record should: ${heapFix}` : '';
  if (input.payloads === 0) {
    if (input.problems.length > 0) return `no record judged: ${input.problems[0]}`;
    if (records === 0) return 'no record judged: the input is empty; export one account-information object a user';
    if (worst?.[0] === 'not-utf8' && worst[1] === records)
      return `no record judged: none of its ${records.toLocaleString('en-US')} records is UTF-8 (${why}); export the file as UTF-8 (from Windows-1252 or Latin-1: iconv -f windows-1252 -t utf-8)`;
    if (died === records) return `no record judged: each of its ${records.toLocaleString('en-US')} records ended a worker (${why}): ${heapFix}`;
    return `no record judged: none of its ${records.toLocaleString('en-US')} records is a JSON object (${why}); export one account-information object a user${heap}`;
  }
  // Cut short (a truncated gzip, an unclosed quote): the records after it were never judged, however few the unreadable.
  if (input.problems.length > 0) return `the input was cut short, so only the records before it were judged: ${input.problems[0]}`;
  if (!maxUnreadable.exceededBy(unreadable, records)) return undefined;
  const share = (value: number) => `${(100 * value).toFixed(value < 0.01 ? 2 : 1).replace(/\.0+$/, '')}%`;
  const encoding = worst?.[0] === 'not-utf8' ? ' (export it as UTF-8: iconv -f windows-1252 -t utf-8)' : '';
  return `${unreadable.toLocaleString('en-US')} of ${records.toLocaleString('en-US')} records (${share(unreadable / records)}) could not be judged (${why}), more than --max-unreadable ${maxUnreadable.percent}%: fix the export${encoding}, or raise --max-unreadable${heap}`;
}

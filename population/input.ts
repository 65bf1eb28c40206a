import type { Readable } from 'node:stream';
import { Chunks, MiB, fileStream, gather, isGzipped } from './input-chunks';
import { gunzipped } from './gunzip';
import { escaped } from './records';
import { Batcher, type Batch, type BatchMemory } from './batches';
import { InputProblem, isBlank, jsonArray, jsonLines, type Position } from './input-formats';
import { csv } from './input-csv';
import { binaryKind, binaryProblem } from './input-gate';

/** Each format's reader. */
const parsers = { jsonl: jsonLines, 'json-array': jsonArray, csv };

/**
 * The input of `partner-certify population <input>`: one account-information payload per user, as JSON Lines, a JSON
 * array or CSV, gzipped or not, read from a file or standard input ('-') in batches of JSON texts that workers parse
 * (population/run.ts). Memory stays bounded whatever the input's size: nothing holds more than a batch, a few
 * chunks read ahead, and one JSON text (at most maxTextBytes).
 */
export type InputFormat = 'jsonl' | 'json-array' | 'csv';
export type { Batch };
export { isGzipped };
export interface ReadOptions {
  /** Detected by default from the first byte that is not white space (detectedFormat). */
  format?: InputFormat;
  /** CSV columns, named as in the header, whose cells that are JSON numbers become numbers. */
  numberColumns?: ReadonlySet<string>;
  /** About this many bytes a batch (a longer text makes a batch of its own): 1 MiB by default. */
  batchBytes?: number;
  /** Where batches are written: the run gives each back once judged (population/worker-pool.ts). */
  memory?: BatchMemory;
  /** What '-' reads: process.stdin by default. */
  stdin?: NodeJS.ReadableStream;
  /** A longer line, element or CSV row (a row counted in UTF-16 code units) is passed as a JSON string saying so: 64 MiB by default. */
  maxTextBytes?: number;
  /** The spec paths a CSV column may name: a CSV none of whose columns is one is refused (population/input-gate.ts). */
  columns?: ReadonlySet<string>;
  /** Why CSV cannot be this input, when it cannot (funding answers). */
  csv?: string;
  /** The user's own CSV column names, each to the spec path it holds (`--column first_name=user.firstName`). */
  columnMap?: ReadonlyMap<string, string>;
}
export type PopulationItem = { batch: Batch } | { problem: string; afterLine: number } | { note: string };

const bom = [0xef, 0xbb, 0xbf];

/** The format of an input whose text, decompressed, begins with `head`: '[' a JSON array, '{' JSON Lines, anything else CSV; undefined while `head` holds only white space or part of a byte order mark. */
export function detectedFormat(head: Uint8Array, source?: string): InputFormat | undefined {
  let i = 0;
  while (i < 3 && i < head.length && head[i] === bom[i]) i++;
  if (i > 0 && i < 3 && i === head.length) return undefined;
  for (i = i === 3 ? 3 : 0; i < head.length; i++) if (!isBlank(head[i]!)) break;
  if (i === head.length) return undefined;
  if (head[i] === 0x5b || head[i] === 0x7b) return head[i] === 0x5b ? 'json-array' : 'jsonl';
  // JSON Lines whose first record is no object (a null, a log line): one bad record, not a CSV of unknown columns.
  if (source !== undefined && /\.(jsonl|ndjson|json)(\.gz)?$/i.test(source)) return 'jsonl';
  const end = head.indexOf(0x0a, i);
  return jsonScalar(Buffer.from(head.subarray(i, end < 0 ? head.length : end)).toString()) ? 'jsonl' : 'csv';
}

/** Whether `text` is a JSON null, number or boolean: a string is not told, as a CSV header of one quoted column is one. */
const jsonScalar = (text: string) => {
  try {
    return typeof JSON.parse(text) !== 'string';
  } catch {
    return false;
  }
};

const crOnly =
  "its lines end in a carriage return alone (the line ends of classic Mac OS, or of Excel for Mac's \"CSV (Macintosh)\"), so it reads as one line; save it with LF or CRLF line ends (Excel: \"CSV UTF-8\"), or convert it: tr '\\r' '\\n' < export.csv > export-lf.csv";

/**
 * Whether the input's lines end in CR alone: its first 64 KiB hold no LF, and a CR with something after it. What
 * was read is put back.
 */
async function crOnlyLines(chunks: Chunks): Promise<boolean> {
  const start = await gather(chunks, (last, total) => last.includes(0x0a) || total > 64 * 1024);
  chunks.unshift(start);
  const cr = start.indexOf(0x0d);
  return !start.includes(0x0a) && cr >= 0 && cr + 1 < start.length;
}

/** Batches in input order, then, if the input was cut short (truncated or corrupt gzip, JSON array never closed, CSV quote never closed, read error), the problem; throws only when the file cannot be opened. */
export async function* readPopulation(source: string, options: ReadOptions = {}): AsyncGenerator<PopulationItem, void, undefined> {
  // The name goes into the report: its control and bidirectional characters as \uXXXX (population/records.ts).
  const name = source === '-' ? 'standard input' : escaped(source);
  const input = source === '-' ? (options.stdin ?? process.stdin) : await fileStream(source);
  const batcher = new Batcher(options.batchBytes ?? MiB, options.memory);
  const at: Position = { line: 0 };
  let chunks = Chunks.of(input, true, () => (input as Partial<Readable>).destroy?.());
  let problem: string | undefined;
  const notes: string[] = [];
  try {
    const magic = await gather(chunks, (_, total) => total >= 2);
    chunks.unshift(magic);
    if (isGzipped(magic)) chunks = gunzipped(chunks, (text) => notes.push(`${name}: ${text}`));
    // Past a MiB of white space, the format is JSON Lines (blank lines are skipped) rather than more held to decide.
    const head = await gather(chunks, (last, total) => total > MiB || last.some((byte) => !isBlank(byte) && !bom.includes(byte)));
    const binary = binaryKind(head);
    if (binary) throw new InputProblem(binaryProblem(binary));
    chunks.unshift(bom.every((byte, i) => head[i] === byte) ? head.subarray(3) : head);
    const settings = {
      max: options.maxTextBytes ?? 64 * MiB,
      numberColumns: options.numberColumns ?? new Set<string>(),
      columns: options.columns,
      columnMap: options.columnMap,
      note: (text: string) => notes.push(text),
      formatGiven: options.format !== undefined,
    };
    const format = options.format ?? detectedFormat(head, source === '-' ? undefined : source) ?? 'jsonl';
    if (format === 'csv' && options.csv) throw new InputProblem(options.csv);
    // A map of CSV columns would be dropped unsaid: a JSON record's keys are its own.
    if (format !== 'csv' && options.columnMap)
      throw new InputProblem(
        `--column and --columns map a CSV's columns, and this input is ${format === 'jsonl' ? 'JSON Lines' : 'a JSON array'}, whose keys no map renames: export them under their spec paths (user.firstName), or export CSV`,
      );
    if (format !== 'json-array' && (await crOnlyLines(chunks))) throw new InputProblem(crOnly);
    yield* parsers[format](chunks, batcher, at, settings);
  } catch (error) {
    problem = `${name}: ${problemOf(error)}`;
  } finally {
    chunks.close();
  }
  const last = batcher.take();
  if (last) yield { batch: last };
  for (const note of notes) yield { note };
  if (problem !== undefined) yield { problem, afterLine: at.line };
}

function problemOf(error: unknown): string {
  if (error instanceof InputProblem) return error.message;
  const { code, message } = error instanceof Error ? (error as NodeJS.ErrnoException) : { code: undefined, message: String(error) };
  if (code === 'Z_BUF_ERROR') return 'the gzip data ends early: the file is truncated';
  if (code?.startsWith('Z_')) return `the gzip data is corrupt (${message})`;
  return `reading failed (${message})`;
}

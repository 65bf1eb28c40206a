import { availableParallelism } from 'node:os';
import { createHash, randomBytes } from 'node:crypto';
import type { Endpoint } from '../checks/payload';
import { readPopulation, type InputFormat } from './input';
import { BatchMemory } from './batches';
import { MiB } from './input-chunks';
import { recordBytesMost } from './record-bounds';
import type { RecordsFormat } from './records';
import { IdCounter } from './shared-ids';
import { accountInfoFieldRules } from '../checks/account-info';
import { mergeSummaries } from './merge';
import type { PopulationSummary, Settings } from './summary-schema';
import type { WorkerSetup } from './worker';
import { heapFix, WorkerPool } from './worker-pool';

/**
 * The population check over one input: this thread reads it in batches (population/input.ts) and hands them to a
 * worker per core, at most two batches waiting on each, so memory stays bounded whatever the input's size; the
 * workers' summaries are added at the end.
 */
export interface PopulationRun {
  settings: Settings;
  /** Whose answers the input holds (population/worker.ts). */
  endpoint?: Endpoint;
  shard?: { index: number; count: number };
  format?: InputFormat;
  workers?: number;
  numberColumns?: ReadonlySet<string>;
  /** Called as batches are judged: records so far, and the bytes of the (decompressed) input read so far. */
  onProgress?: (records: number, bytesRead: number) => void;
  /** The user's own CSV column names, each to the spec path it holds. */
  columnMap?: ReadonlyMap<string, string>;
  /** The partner's records file (population/records.ts): its rows handed to `write` in input order. */
  records?: { format: RecordsFormat; write: (rows: string) => void };
}

const fundingIsNoCsv = 'a funding answer is a list of sources, which a CSV cell cannot hold: give JSON Lines or a JSON array ({"fundingSources": […]} a user)';

/** Every path of account information, in each spelling. */
const everyPath = new Set(
  accountInfoFieldRules.flatMap(({ subject: { path, spellings = [] } }) => [
    path,
    ...spellings.map((name) => `${path.slice(0, path.lastIndexOf('.') + 1)}${name}`),
  ]),
);
// What a CSV column may name: leaves only, as a column named "company" or "user" holds a text where an object must be, so it is no field of a CSV.
export const accountInfoPaths: ReadonlySet<string> = new Set([...everyPath].filter((path) => ![...everyPath].some((other) => other.startsWith(`${path}.`))));

export async function judgePopulation(source: string, run: PopulationRun): Promise<PopulationSummary> {
  const count = Math.max(1, run.workers ?? availableParallelism());
  const setup: WorkerSetup = {
    settings: run.settings,
    ...(run.endpoint ? { endpoint: run.endpoint } : {}),
    ...(run.shard ? { shard: run.shard } : {}),
    ...(run.records ? { records: run.records.format } : {}),
    idKey: randomBytes(4).readUInt32LE(0),
  };
  const idCounter = new IdCounter();
  // The records file's rows come back batch by batch from any worker: each batch is numbered as it is handed out, and
  // rows are written in that order, held only while an earlier batch is still being judged (a few a worker).
  const held = new Map<number, string>();
  let [numbered, written] = [0, 0];
  const hold = (batch: number, rows: string) => {
    held.set(batch, rows);
    for (let next = held.get(written); next !== undefined; next = held.get(written)) {
      held.delete(written++);
      run.records!.write(next);
    }
  };
  let records = 0;
  let bytesRead = 0;
  let lastLine = 0;
  // What the input is, so a merge knows its shards read one input (population/shard-file.ts): only a shard needs it.
  const digest = run.shard ? createHash('sha256') : undefined;
  const memory = new BatchMemory(MiB);
  const pool = new WorkerPool(count, setup, {
    answered: (answer, batch) => {
      if (run.records) hold(batch, answer.rows ?? '');
      if (answer.ids) idCounter.add(answer.ids);
      run.onProgress?.((records += answer.judged), bytesRead);
    },
    done: (batch) => memory.giveBack(batch.bytes),
  });
  const problems: string[] = [];
  const notes: string[] = [];
  try {
    for await (const item of readPopulation(source, {
      ...(run.format ? { format: run.format } : {}),
      ...(run.numberColumns ? { numberColumns: run.numberColumns } : {}),
      maxTextBytes: recordBytesMost,
      memory,
      ...(run.columnMap ? { columnMap: run.columnMap } : {}),
      ...((run.endpoint ?? 'account-info') === 'account-info' ? { columns: accountInfoPaths } : { csv: fundingIsNoCsv }),
    })) {
      if ('note' in item) {
        notes.push(item.note);
        continue;
      }
      if ('problem' in item) {
        problems.push(item.afterLine > 0 ? `${item.problem} (after line ${item.afterLine}; the records before it are judged)` : item.problem);
        continue;
      }
      bytesRead += item.batch.bytes.length;
      digest?.update(item.batch.bytes);
      // Which line each record was on too: two exports of the same records on other lines are two inputs.
      digest?.update(new Uint8Array(item.batch.lines.buffer, item.batch.lines.byteOffset, item.batch.lines.byteLength));
      lastLine = Math.abs(item.batch.lines[item.batch.lines.length - 1] ?? lastLine);
      // Shared memory (population/batches.ts BatchMemory): handed to the worker without a copy.
      await pool.send(numbered++, item.batch);
    }
    const summary = mergeSummaries(await pool.end());
    const judged = summary.funding?.input ?? summary.input;
    if (pool.deaths.length > 0) judged.notes.push(workerDied(pool.deaths, judged.unreadable['worker-died'] ?? 0));
    judged.problems.push(...problems);
    judged.notes.push(...notes);
    summary.sharedIds = idCounter.summary();
    summary.seen = { bytes: bytesRead, lines: lastLine, digest: digest?.digest('base64url') ?? '' };
    // Shards read with other column maps count other things: a merge names that, not "other inputs".
    if (run.shard && run.columnMap)
      summary.seen.columns = createHash('sha256')
        .update(JSON.stringify([...run.columnMap].sort()))
        .digest('base64url');
    return run.shard ? { ...summary, shard: run.shard, parts: 1 } : { ...summary, parts: 1 };
  } finally {
    await pool.terminate();
  }
}

const workerDied = (deaths: readonly string[], died: number) =>
  `${deaths.length === 1 ? 'a worker' : `${deaths.length} workers`} stopped (${[...new Set(deaths)].join(', ')}) and ${deaths.length === 1 ? 'was' : 'were'} replaced; ` +
  `${died === 1 ? '1 record' : `${died} records`} a worker died on again when judged alone ${died === 1 ? 'is' : 'are'} counted as worker-died, every other record judged: ${heapFix}`;

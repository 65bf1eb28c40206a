import { availableParallelism } from 'node:os';
import { createHash } from 'node:crypto';
import type { Endpoint } from '../checks/payload';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { readPopulation, type InputFormat } from './input';
import { recordBytesMost } from './record-bounds';
import type { RecordsFormat } from './records';
import { IdCounter } from './shared-ids';
import { accountInfoFieldRules } from '../checks/account-info';
import { mergeSummaries } from './merge';
import type { PopulationSummary, Settings } from './summary-schema';
import type { FromWorker, ToWorker, WorkerSetup } from './worker';

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

// The worker is this folder's worker.js once built. In a clone it is worker.ts with what it imports, bundled by
// esbuild (tsx's own compiler) into one script: under tsx's loader, each imported function is read through a
// getter, which made a clone's run about a quarter slower than the built one.
const built = path.extname(__filename) === '.js';
const workerFile = path.join(__dirname, `worker${path.extname(__filename)}`);
let workerBundle: string | undefined;
function bundledWorker(): string {
  // Required here, not imported: esbuild is a tool of a clone (a dependency of tsx), not of the installed package.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildSync } = require('esbuild') as typeof import('esbuild');
  const options: import('esbuild').BuildOptions & { write: false } = {
    entryPoints: [workerFile],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    write: false,
  };
  return (workerBundle ??= buildSync(options).outputFiles[0]!.text);
}
// Each worker's heap is kept small (its summary is bounded: population/tally.ts), so the run's memory stays low.
const resourceLimits = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };
const startWorker = (workerData: WorkerSetup) =>
  built ? new Worker(workerFile, { workerData, resourceLimits }) : new Worker(bundledWorker(), { eval: true, workerData, resourceLimits });

/** Every path of account information, in each spelling: what a CSV column may name. */
const fundingIsNoCsv = 'a funding answer is a list of sources, which a CSV cell cannot hold: give JSON Lines or a JSON array ({"fundingSources": […]} a user)';

export const accountInfoPaths: ReadonlySet<string> = new Set(
  accountInfoFieldRules.flatMap(({ subject: { path, spellings = [] } }) => [
    path,
    ...spellings.map((name) => `${path.slice(0, path.lastIndexOf('.') + 1)}${name}`),
  ]),
);

export async function judgePopulation(source: string, run: PopulationRun): Promise<PopulationSummary> {
  const count = Math.max(1, run.workers ?? availableParallelism());
  const setup: WorkerSetup = {
    settings: run.settings,
    ...(run.endpoint ? { endpoint: run.endpoint } : {}),
    ...(run.shard ? { shard: run.shard } : {}),
    ...(run.records ? { records: run.records.format } : {}),
  };
  const workers = Array.from({ length: count }, () => startWorker(setup));
  const waiting = workers.map(() => 0);
  const idCounter = new IdCounter();
  // The records file's rows come back batch by batch from any worker: each batch is numbered as it is handed out, and
  // rows are written in that order, held only while an earlier batch is still being judged (at most two a worker).
  const handedOut = workers.map((): number[] => []);
  const held = new Map<number, string>();
  let [numbered, written] = [0, 0];
  const hold = (batch: number, rows: string) => {
    held.set(batch, rows);
    for (let next = held.get(written); next !== undefined; next = held.get(written)) {
      held.delete(written++);
      run.records!.write(next);
    }
  };
  const failures: Error[] = [];
  let records = 0;
  let bytesRead = 0;
  let lastLine = 0;
  // What the input is, so a merge knows its shards read one input (population/shard-file.ts): only a shard needs it.
  const digest = run.shard ? createHash('sha256') : undefined;
  let wake: (() => void) | undefined;
  const summaries = workers.map(
    (worker, i) =>
      new Promise<PopulationSummary>((resolve, reject) => {
        worker.on('message', (message: FromWorker) => {
          if ('summary' in message) return resolve(message.summary);
          waiting[i]!--;
          const batch = handedOut[i]!.shift()!;
          if (run.records) hold(batch, message.rows ?? '');
          if (message.ids) idCounter.add(message.ids);
          run.onProgress?.((records += message.judged), bytesRead);
          wake?.();
        });
        worker.on('error', (error) => {
          failures.push(error);
          reject(error);
          wake?.();
        });
      }),
  );
  const problems: string[] = [];
  const notes: string[] = [];
  try {
    for await (const item of readPopulation(source, {
      ...(run.format ? { format: run.format } : {}),
      ...(run.numberColumns ? { numberColumns: run.numberColumns } : {}),
      maxTextBytes: recordBytesMost,
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
      let free = waiting.findIndex((n) => n < 2);
      while (free < 0 && failures.length === 0) {
        await new Promise<void>((resolve) => (wake = resolve));
        free = waiting.findIndex((n) => n < 2);
      }
      if (failures.length > 0) throw failures[0]!;
      waiting[free]!++;
      handedOut[free]!.push(numbered++);
      bytesRead += item.batch.bytes.length;
      digest?.update(item.batch.bytes);
      lastLine = item.batch.lines[item.batch.lines.length - 1] ?? lastLine;
      // Handed over, not copied: a view of a larger buffer (Node's pool) is copied first, so nothing else loses its bytes.
      const bytes = whole(item.batch.bytes);
      const lines = whole(item.batch.lines);
      workers[free]!.postMessage({ batch: { bytes, lines } } satisfies ToWorker, [bytes.buffer as ArrayBuffer, lines.buffer as ArrayBuffer]);
    }
    for (const worker of workers) worker.postMessage({ end: true } satisfies ToWorker);
    const summary = mergeSummaries(await Promise.all(summaries));
    (summary.funding?.input ?? summary.input).problems.push(...problems);
    (summary.funding?.input ?? summary.input).notes.push(...notes);
    summary.sharedIds = idCounter.summary();
    summary.seen = { bytes: bytesRead, lines: lastLine, digest: digest?.digest('base64url') ?? '' };
    return run.shard ? { ...summary, shard: run.shard, parts: 1 } : { ...summary, parts: 1 };
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

const whole = <T extends Uint8Array | Int32Array>(view: T): T =>
  view.byteOffset === 0 && view.byteLength === view.buffer.byteLength ? view : (view.slice() as T);

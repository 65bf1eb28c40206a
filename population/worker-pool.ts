import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PopulationSummary } from './summary-schema';
import type { Batch } from './batches';
import type { Ack, FromWorker, ToWorker, WorkerSetup } from './worker';

/**
 * The workers of one population run (population/run.ts). Each judges the batches it is handed, in order. A worker that
 * dies (its heap's bound, a bug of ours) is replaced, and nothing it judged is lost: every `checkpointEvery` batches it
 * hands back its summary so far, the pool keeps each batch handed out since, and the replacement starts from that
 * summary, judges again in silence what was already answered, and is handed the batch it died on in halves, until the
 * one record that kills a worker is counted as `worker-died` by line number. Each death so halves a batch or blames a
 * record, so a run always ends, with its report.
 */
// The halves of one batch share their `parts`, and are answered to the run as one.
type Parts = { left: number; acks: Ack[] };
type Sent = { seq: number; batch: Batch; answered: boolean; died: boolean; doneBy?: Worker; parts?: Parts };
type Kept = Sent | { checkpoint: true };

export const checkpointEvery = 4;
export const inFlightMost = 2;
// Each worker's heap is kept small (its summary is bounded: population/tally.ts), so the run's memory stays low.
// At least 24 MB (scripts/population.ts refuses less): below it a worker dies on ordinary batches, and the records it
// dies on are no one's fault.
const heapMb = Math.max(24, Number(process.env.PARTNER_CERTIFY_WORKER_HEAP_MB) || 64);
const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(16, heapMb) };
const deathsWithNothingToBlame = 3;
/** What to do about records that end a worker: a record no worker survives is ours to handle, not the export's to fix. */
export const heapFix = 'raise PARTNER_CERTIFY_WORKER_HEAP_MB (64 MB unless set), and report it to us if that does not help';

// The worker is this folder's worker.js once built. In a clone it is worker.ts with what it imports, bundled by
// esbuild (tsx's own compiler) into one script: under tsx's loader, each imported function is read through a
// getter, which made a clone's run about a quarter slower than the built one.
const built = path.extname(__filename) === '.js';
const workerFile = path.join(__dirname, `worker${path.extname(__filename)}`);
let workerBundle: string | undefined;
function bundledWorker(): string {
  if (workerBundle !== undefined) return workerBundle;
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
  // Its packages are required from the worker's own folder, not from wherever the user runs the command.
  const bundle = buildSync(options).outputFiles[0]!.text;
  return (workerBundle = `(function (require) {\n${bundle}\n})(require('node:module').createRequire(${JSON.stringify(workerFile)}));`);
}
const startWorker = (workerData: WorkerSetup) =>
  built ? new Worker(workerFile, { workerData, resourceLimits }) : new Worker(bundledWorker(), { eval: true, workerData, resourceLimits });

class Slot {
  worker!: Worker;
  from?: PopulationSummary;
  kept: Kept[] = [];
  sinceCheckpoint = 0;
  ending = false;
  idleDeaths = 0;
  constructor(
    private readonly pool: WorkerPool,
    private readonly setup: WorkerSetup,
    readonly done: (summary: PopulationSummary) => void,
  ) {
    this.start();
  }

  get inFlight(): number {
    return this.kept.filter((entry) => 'seq' in entry && !entry.answered).length;
  }

  send(seq: number, batch: Batch): void {
    this.kept.push({ seq, batch, answered: false, died: false });
    this.worker.postMessage({ batch } satisfies ToWorker);
    if (++this.sinceCheckpoint < checkpointEvery) return;
    this.sinceCheckpoint = 0;
    this.kept.push({ checkpoint: true });
    this.worker.postMessage({ checkpoint: true } satisfies ToWorker);
  }

  end(): void {
    this.ending = true;
    this.worker.postMessage({ end: true } satisfies ToWorker);
  }

  private start(): void {
    const worker = (this.worker = startWorker(this.from ? { ...this.setup, from: this.from } : this.setup));
    let error: Error | undefined;
    let finished = false;
    worker.on('message', (message: FromWorker) => {
      if ('summary' in message) {
        if (!message.checkpoint) return ((finished = true), this.done(message.summary));
        this.from = message.summary;
        for (const entry of this.kept.splice(0, this.kept.findIndex((kept) => 'checkpoint' in kept) + 1))
          if ('seq' in entry) this.pool.events.done(entry.batch);
        return;
      }
      const entry = this.kept.find((kept) => 'seq' in kept && kept.doneBy !== worker) as Sent;
      entry.doneBy = worker;
      if ('replayed' in message) return;
      entry.answered = true;
      const whole = entry.parts ? joined(entry.parts, message) : message;
      if (whole) this.pool.events.answered(whole, entry.seq);
      this.pool.nudge();
    });
    worker.on('error', (thrown) => (error = thrown));
    worker.on('exit', () => {
      if (!finished && !this.pool.stopping) this.replace(worker, error);
    });
  }

  /** A new worker in place of `dead`, from the last checkpoint; the batch it was judging is halved, or, one record, counted. */
  private replace(dead: Worker, error: Error | undefined): void {
    const blamed = this.kept.find((entry) => 'seq' in entry && entry.doneBy !== dead) as Sent | undefined;
    // A batch already counted as died cannot be what killed it: that is a death with nothing to blame.
    if (blamed && blamed.batch.lines.length > 1) this.kept.splice(this.kept.indexOf(blamed), 1, ...halves(blamed));
    else if (blamed && !blamed.died) blamed.died = true;
    else if (++this.idleDeaths > deathsWithNothingToBlame) return this.pool.fail(error ?? new Error('a population worker stopped'));
    // Its kind only: a message could quote the record it was judging.
    const code = error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
    this.pool.deaths.push(code ?? error?.name ?? 'exited');
    this.start();
    for (const entry of this.kept) {
      if ('checkpoint' in entry) this.worker.postMessage({ checkpoint: true } satisfies ToWorker);
      else
        this.worker.postMessage({ batch: entry.batch, ...(entry.answered ? { replay: true } : {}), ...(entry.died ? { died: true } : {}) } satisfies ToWorker);
    }
    if (this.ending) this.worker.postMessage({ end: true } satisfies ToWorker);
  }
}

function halves(sent: Sent): Sent[] {
  const { bytes, lines } = sent.batch;
  const middle = lines.length >> 1;
  let cut = -1;
  for (let n = 0; n < middle; n++) cut = bytes.indexOf(0x0a, cut + 1);
  const parts = sent.parts ?? (sent.answered ? undefined : { left: 1, acks: [] });
  if (parts) parts.left++;
  const half = (batch: Batch): Sent => ({ seq: sent.seq, batch, answered: sent.answered, died: false, ...(parts ? { parts } : {}) });
  return [half({ bytes: bytes.slice(0, cut), lines: lines.slice(0, middle) }), half({ bytes: bytes.slice(cut + 1), lines: lines.slice(middle) })];
}

/** The answer of a batch handed out in parts, once its last part is answered. */
function joined(parts: Parts, ack: Ack): Ack | undefined {
  parts.acks.push(ack);
  if (--parts.left > 0) return undefined;
  const ids = parts.acks.flatMap((part) => [...(part.ids ?? [])]);
  return {
    judged: parts.acks.reduce((sum, part) => sum + part.judged, 0),
    ...(ack.rows === undefined ? {} : { rows: parts.acks.map((part) => part.rows).join('') }),
    ids: Float64Array.from(ids),
  };
}

export class WorkerPool {
  private readonly slots: Slot[];
  readonly summaries: Promise<PopulationSummary[]>;
  /** Why each worker that died stopped, in order. */
  readonly deaths: string[] = [];
  stopping = false;
  private failure?: Error;
  private wake?: () => void;

  constructor(
    count: number,
    setup: WorkerSetup,
    readonly events: {
      /** Each batch's answer, once. */
      answered: (ack: Ack, seq: number) => void;
      /** A batch no worker will judge again: its memory may be used again. */
      done: (batch: Batch) => void;
    },
  ) {
    const summaries: Promise<PopulationSummary>[] = [];
    this.slots = Array.from({ length: count }, () => {
      let done!: (summary: PopulationSummary) => void;
      summaries.push(new Promise<PopulationSummary>((resolve) => (done = resolve)));
      return new Slot(this, setup, (summary) => (done(summary), this.wake?.()));
    });
    const failed = new Promise<never>((_, reject) => (this.rejectAll = reject));
    this.summaries = Promise.race([Promise.all(summaries), failed]);
    // Awaited by end() only; a failure while reading is thrown by send() instead.
    this.summaries.catch(() => undefined);
  }

  private rejectAll!: (error: Error) => void;

  fail(error: Error): void {
    this.failure = error;
    this.rejectAll(error);
    this.wake?.();
  }

  /** Hands `batch` to a worker with room for it, once one has. */
  async send(seq: number, batch: Batch): Promise<void> {
    let slot = this.slots.find((candidate) => candidate.inFlight < inFlightMost);
    while (!slot && !this.failure) {
      await new Promise<void>((resolve) => (this.wake = resolve));
      slot = this.slots.find((candidate) => candidate.inFlight < inFlightMost);
    }
    if (this.failure) throw this.failure;
    slot!.send(seq, batch);
  }

  /** Called as each batch is answered; wakes a sender waiting for room. */
  nudge(): void {
    this.wake?.();
  }

  end(): Promise<PopulationSummary[]> {
    for (const slot of this.slots) slot.end();
    return this.summaries;
  }

  async terminate(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}

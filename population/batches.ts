/** The batches a population input is read into (population/input-formats.ts) and handed to workers (population/worker-pool.ts). */

export interface Batch {
  /** UTF-8 JSON texts, one a line, separated by '\n' (no trailing newline); in shared memory (BatchMemory). */
  bytes: Uint8Array;
  /**
   * The input's line number (1-based; for a JSON array, the element's 1-based index; for CSV, the row's first line) of
   * each JSON text of `bytes`, in order; negated for a reader's note (ReaderNote) in place of the record.
   */
  lines: Float64Array;
}

/** A record the reader cannot pass on (too large, a CSV row of another length), said in its place: `kind: why`. */
export class ReaderNote {
  readonly text: Buffer;
  constructor(
    readonly kind: string,
    why: string,
  ) {
    this.text = Buffer.from(`${kind}: ${why}`.replace(/\n/g, ' '));
  }
}

/**
 * The memory batches are written into: shared with the worker that judges one, so the run keeps it, without a copy, to
 * hand out again should that worker die (population/worker-pool.ts), and used again once no worker can need it. Not
 * left to the collector: shared memory is freed only when every thread has let go of it, which raised the run's peak
 * by an eighth.
 */
export class BatchMemory {
  // A set: the halves of a batch (a worker died on it) share its memory and are each given back; kept twice, it was
  // handed out twice, and one batch was written over another that a worker was reading.
  private readonly spare = new Set<SharedArrayBuffer>();
  constructor(private readonly size: number) {}
  take(length: number): Buffer {
    const spare = length <= this.size ? this.spare.values().next().value : undefined;
    if (spare) this.spare.delete(spare);
    return Buffer.from(spare ?? new SharedArrayBuffer(Math.max(length, this.size)), 0, length);
  }
  giveBack(bytes: Uint8Array): void {
    if (bytes.buffer instanceof SharedArrayBuffer && bytes.buffer.byteLength === this.size) this.spare.add(bytes.buffer);
  }
}

/** JSON texts gathered into batches of about `size` bytes, cut between texts, copied once when a batch is taken. */
/**
 * The most records a batch holds, whatever their size: a worker's answer for a batch (its records file rows too)
 * grows with its records, and a megabyte of `{}` is 350,000 of them, which exhausted a worker's heap (at 24 MB, 16,384 still did).
 */
export const batchLinesMost = 4096;

export class Batcher {
  private sources: Buffer[] = [];
  private starts: number[] = [];
  private ends: number[] = [];
  private lines: number[] = [];
  private length = 0;
  constructor(
    private readonly size: number,
    private readonly memory = new BatchMemory(size),
  ) {}

  /**
   * Adds text[start, end), which must not change until taken, as the text of `line`; returns the batch it completed,
   * if any. A reader's note goes in under its line number negated, which no record of the input can give itself.
   */
  add(line: number, given: Buffer | ReaderNote, start = 0, end = given instanceof ReaderNote ? given.text.length : given.length): Batch | undefined {
    const text = given instanceof ReaderNote ? given.text : given;
    if (given instanceof ReaderNote) line = -line;
    const full = this.lines.length > 0 && (this.length + 1 + end - start > this.size || this.lines.length >= batchLinesMost) ? this.take() : undefined;
    const last = this.ends.length - 1;
    // Lines next to each other in one chunk are copied together.
    if (last >= 0 && this.sources[last] === text && this.ends[last] === start - 1 && text[start - 1] === 0x0a) this.ends[last] = end;
    else {
      this.sources.push(text);
      this.starts.push(start);
      this.ends.push(end);
    }
    this.length += (this.lines.length > 0 ? 1 : 0) + end - start;
    this.lines.push(line);
    return full;
  }

  take(): Batch | undefined {
    if (this.lines.length === 0) return undefined;
    const bytes = this.memory.take(this.length);
    let at = 0;
    for (let i = 0; i < this.sources.length; i++) {
      if (i > 0) bytes[at++] = 0x0a;
      at += this.sources[i]!.copy(bytes, at, this.starts[i], this.ends[i]);
    }
    // Float64: a line number past 2^31 wrapped negative in 32 bits, and a negative one is a reader's note.
    const lines = new Float64Array(new SharedArrayBuffer(8 * this.lines.length));
    lines.set(this.lines);
    const batch = { bytes, lines };
    [this.sources, this.starts, this.ends, this.lines, this.length] = [[], [], [], [], 0];
    return batch;
  }
}

import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/** The bytes of a population input (population/input.ts): a file or standard input, inflated when gzipped. */

export const MiB = 1024 * 1024;

/** Whether bytes begin as gzip data does (its magic number), whatever the file is named. */
export const isGzipped = (head: Uint8Array) => head[0] === 0x1f && head[1] === 0x8b;

export async function fileStream(path: string): Promise<Readable> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    const why = error.code === 'ENOENT' || error.code === 'ENOTDIR' ? 'no such file' : error.code === 'EACCES' ? 'permission denied' : error.message;
    throw new Error(`${path}: ${why}`);
  });
  if ((await handle.stat()).isDirectory()) {
    await handle.close();
    throw new Error(`${path}: is a folder, not a file`);
  }
  return handle.createReadStream({ highWaterMark: MiB });
}

const queueLimit = 2 * MiB;

/** A stream's chunks, pulled one at a time; its error comes after every chunk it emitted before failing. */
export class Chunks {
  private readonly queue: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private failure: Error | undefined;
  private wake = () => {};
  private roomy = () => {};

  /** `paused`, when given, is a stream paused while much waits; a gunzip is not (see population/gunzip.ts). */
  constructor(
    readonly close: () => void,
    private readonly paused?: NodeJS.ReadableStream,
  ) {}

  static of(stream: NodeJS.ReadableStream, pauses: boolean, close: () => void): Chunks {
    const chunks = new Chunks(close, pauses ? stream : undefined);
    stream.on('data', (chunk: Buffer | string) => chunks.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    stream.on('end', () => chunks.stop());
    stream.on('close', () => chunks.stop());
    stream.on('error', (error: Error) => chunks.stop(error));
    return chunks;
  }

  add(bytes: Buffer): void {
    this.queue.push(bytes);
    this.queued += bytes.length;
    if (this.paused && this.queued > queueLimit) this.paused.pause();
    this.wake();
  }

  /** No more chunks; `error`, if any, comes after those queued. */
  stop(error?: Error): void {
    this.failure ??= error;
    this.ended = true;
    this.wake();
    this.roomy();
  }

  async next(): Promise<Buffer | undefined> {
    for (;;) {
      const chunk = this.queue.shift();
      if (chunk) {
        if ((this.queued -= chunk.length) <= queueLimit) this.roomy();
        return chunk;
      }
      if (this.failure) throw this.failure;
      if (this.ended) return undefined;
      this.paused?.resume();
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Resolves once little waits to be pulled. */
  async room(): Promise<void> {
    while (this.queued > queueLimit && !this.ended) await new Promise<void>((resolve) => (this.roomy = resolve));
  }

  unshift(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.queue.unshift(chunk);
    this.queued += chunk.length;
  }
}

/** Reads chunks until `enough` says the last one completes the input's start; the caller puts it back. */
export async function gather(chunks: Chunks, enough: (last: Buffer, total: number) => boolean): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let total = 0;
  for (let chunk = await chunks.next(); chunk; chunk = await chunks.next()) {
    pieces.push(chunk);
    if (enough(chunk, (total += chunk.length))) break;
  }
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}

import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

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

  /** A stream that `pauses` is paused while much waits; gunzipped's gunzip is not. */
  constructor(
    private readonly stream: NodeJS.ReadableStream,
    private readonly pauses: boolean,
    readonly close: () => void,
  ) {
    stream.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      this.queue.push(bytes);
      this.queued += bytes.length;
      if (pauses && this.queued > queueLimit) stream.pause();
      this.wake();
    });
    const stop = (error?: Error) => {
      this.failure ??= error;
      this.ended = true;
      this.wake();
      this.roomy();
    };
    stream.on('end', () => stop());
    stream.on('close', () => stop());
    stream.on('error', (error: Error) => stop(error));
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
      if (this.pauses) this.stream.resume();
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

const piece = 64 * 1024;

/**
 * `raw`, inflated. The gunzip is never paused, since one that fails while paused drops the output it holds: its input
 * goes in a piece at a time while little output waits, which also bounds what a gzip bomb inflates to at once.
 */
export function gunzipped(raw: Chunks): Chunks {
  const gunzip = createGunzip({ chunkSize: piece });
  const out = new Chunks(gunzip, false, () => {
    gunzip.destroy();
    raw.close();
  });
  let settle: (error?: Error | null) => void = () => {};
  gunzip.on('close', () => settle(new Error('closed')));
  const pump = async () => {
    for (let chunk = await raw.next(); chunk; chunk = await raw.next())
      for (let at = 0; at < chunk.length; at += piece) {
        const part = chunk.subarray(at, at + piece);
        await out.room();
        await new Promise<void>((resolve, reject) => gunzip.write(part, (settle = (error) => (error ? reject(error) : resolve()))));
      }
    gunzip.end();
  };
  void pump().catch((error: Error) => gunzip.destroy(error));
  return out;
}

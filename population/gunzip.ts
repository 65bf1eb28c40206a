import { createInflateRaw, crc32, type InflateRaw } from 'node:zlib';
import { Chunks, MiB } from './input-chunks';
import { InputProblem } from './input-formats';

/**
 * A gzip input, inflated member by member (RFC 1952). Node's gunzip drops the output of a write in which a member
 * ends and bytes that are not gzip follow; here each member's deflate data goes to its own raw inflate, which stops
 * where that data ends, so every record before such bytes is read, and the bytes are counted in a note.
 */

const piece = 64 * 1024;
const zlibError = (code: string, message: string) => Object.assign(new Error(message), { code });
const truncated = () => zlibError('Z_BUF_ERROR', 'unexpected end of file');

/** The length of the member header `bytes` begin with, or undefined while they hold only part of it. */
export function headerLength(bytes: Buffer): number | undefined {
  if (bytes.length < 10) return undefined;
  if (bytes[2] !== 8) throw zlibError('Z_DATA_ERROR', 'unknown compression method');
  const flags = bytes[3]!;
  if (flags & 0xe0) throw zlibError('Z_DATA_ERROR', 'unknown header flags set');
  let at = 10;
  if (flags & 4) {
    if (bytes.length < 12) return undefined;
    at = 12 + bytes.readUInt16LE(10);
  }
  // A name or a comment that begins past the bytes read (the field before it ended at their edge) is still to come.
  for (const flag of [8, 16])
    if (flags & flag) {
      const zero = at < bytes.length ? bytes.indexOf(0, at) : -1;
      if (zero < 0) return undefined;
      at = zero + 1;
    }
  if (flags & 2) at += 2;
  return at <= bytes.length ? at : undefined;
}

/** The next `wanted` bytes, or fewer if the input ends first. */
async function take(raw: Chunks, wanted: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let total = 0;
  for (let chunk = total < wanted ? await raw.next() : undefined; chunk; chunk = total < wanted ? await raw.next() : undefined) {
    pieces.push(chunk);
    total += chunk.length;
  }
  const bytes = Buffer.concat(pieces);
  raw.unshift(bytes.subarray(wanted));
  return bytes.subarray(0, wanted);
}

/** A member's header, read in doubling steps so a long name or comment costs linear time; refused past a MiB. */
async function skipHeader(raw: Chunks): Promise<void> {
  for (let wanted = 64; ; wanted *= 2) {
    const bytes = await take(raw, wanted);
    const length = headerLength(bytes);
    if (length !== undefined) return raw.unshift(bytes.subarray(length));
    raw.unshift(bytes);
    if (bytes.length < wanted) throw truncated();
    if (wanted > MiB) throw new InputProblem('a gzip member header is longer than 1 MiB');
  }
}

/**
 * Whether another member follows: zero bytes of padding are skipped (trailing ones, as every gzip reader does), and
 * other bytes are counted and said. A member after padding is read, as Python's gzip reads it, and said: GNU gzip
 * stops at the padding, so `zcat` would give fewer records than this run judged.
 */
async function anotherMember(raw: Chunks, note: (text: string) => void): Promise<boolean> {
  let padding = 0;
  for (let chunk = await raw.next(); chunk; chunk = await raw.next()) {
    const start = chunk.findIndex((byte) => byte !== 0);
    if (start < 0) {
      padding += chunk.length;
      continue;
    }
    padding += start;
    raw.unshift(chunk.subarray(start));
    const magic = await take(raw, 2);
    raw.unshift(magic);
    if (magic[0] === 0x1f) {
      // Bytes that begin as a member does but go on otherwise are a member whose header is damaged, whose records
      // would be lost in silence: the input is cut there, as gzip itself fails it.
      if (magic[1] !== 0x8b) throw zlibError('Z_DATA_ERROR', 'a member after the first has a damaged header; its records were not read');
      if (padding > 0)
        note(
          `${padding} zero bytes between gzip members were skipped and the members after them read, as Python's gzip does; GNU gzip (zcat) stops at them, and would give fewer records`,
        );
      return true;
    }
    let extra = 0;
    for (let rest = await raw.next(); rest; rest = await raw.next()) extra += rest.length;
    note(`the gzip data ends before the file does: the ${extra} bytes after it are not gzip and were not read, as gzip itself leaves them`);
    return false;
  }
  return false;
}

/** `raw`, inflated, the gunzip never paused (its input goes in a piece at a time while little output waits, which also bounds what a gzip bomb inflates to at once). */
export function gunzipped(raw: Chunks, note: (text: string) => void): Chunks {
  let inflate: InflateRaw | undefined;
  const out = new Chunks(() => {
    inflate?.destroy(new Error('closed'));
    raw.close();
    out.stop();
  });
  const member = async () => {
    await skipHeader(raw);
    const current = (inflate = createInflateRaw({ chunkSize: piece }));
    let crc = 0;
    let size = 0;
    current.on('data', (bytes: Buffer) => {
      crc = crc32(bytes, crc);
      size += bytes.length;
      out.add(bytes);
    });
    const ended = new Promise<void>((resolve, reject) =>
      current
        .on('end', resolve)
        .on('error', reject)
        .on('close', () => reject(new Error('closed'))),
    );
    void ended.catch(() => {});
    const failed = new Promise<never>((_, reject) => current.on('error', reject));
    void failed.catch(() => {});
    let rest: Buffer | undefined;
    for (let chunk = await raw.next(); chunk && !rest; chunk = rest ? undefined : await raw.next())
      for (let at = 0; at < chunk.length && !rest; at += piece) {
        const part = chunk.subarray(at, at + piece);
        await out.room();
        const before = current.bytesWritten;
        // A write into data that is no deflate never calls back: the inflate's error ends the wait instead.
        await Promise.race([new Promise<void>((resolve, reject) => current.write(part, (error) => (error ? reject(error) : resolve()))), failed]);
        const used = current.bytesWritten - before;
        if (used < part.length) rest = chunk.subarray(at + used);
      }
    if (rest) raw.unshift(rest);
    else current.end();
    await ended;
    const trailer = await take(raw, 8);
    if (trailer.length < 8) throw truncated();
    if (trailer.readUInt32LE(0) !== crc >>> 0) throw zlibError('Z_DATA_ERROR', 'incorrect data check');
    if (trailer.readUInt32LE(4) !== size % 2 ** 32) throw zlibError('Z_DATA_ERROR', 'incorrect length check');
  };
  const pump = async () => {
    do await member();
    while (await anotherMember(raw, note));
  };
  pump().then(
    () => out.stop(),
    (error: Error) => out.stop(error),
  );
  return out;
}

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const chunk = 1024 * 1024;

/**
 * A file the population command reads whole (a report to compare, a column map, a profile, a shard's summary), up to
 * `most` bytes; a larger one, or a device or pipe that goes on, is refused before it fills memory. The problem is
 * said without the file's content.
 */
export function readSmallFile(file: string, most: number): { text: string } | { problem: string } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = { ENOENT: 'no such file', ENOTDIR: 'no such file', EISDIR: 'a folder, not a file', EACCES: 'permission denied' }[code ?? ''];
    return { problem: why ?? `cannot be read (${code})` };
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { problem: 'a folder, not a file' };
    const tooLarge = { problem: `larger than such a file is (more than ${most.toLocaleString('en-US')} bytes)` };
    if (stat.isFile() && stat.size > most) return tooLarge;
    const pieces: Buffer[] = [];
    let length = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(chunk);
      const read = readSync(fd, piece, 0, chunk, null);
      if (read === 0) break;
      pieces.push(piece.subarray(0, read));
      if ((length += read) > most) return tooLarge;
    }
    return { text: Buffer.concat(pieces, length).toString('utf8') };
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
}

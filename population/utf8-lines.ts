import { isUtf8 } from 'node:buffer';

/**
 * The lines of a text read in chunks whose bytes are not UTF-8 (an export in Windows-1252 or Latin-1): decoded, each
 * bad byte is U+FFFD, and ids that differ there read as one. A chunk may end inside a character, which is then
 * checked whole with the next; only a chunk that is not UTF-8 is looked at line by line. Lines are forgotten once
 * passed, so what is held is at most one chunk's.
 */
export class Utf8Lines {
  /** The bytes of a character the last chunk ended inside. */
  private carry = Buffer.alloc(0);
  private bad: number[] = [];
  private passed = 0;

  /** Reads `chunk`, whose first byte is on line `line` (lines counted by their '\n'). */
  read(chunk: Buffer, line: number): void {
    const head = continuations(chunk);
    // A chunk that only goes on with the character in hand, and does not end it (a character in three pieces or more).
    if (head === chunk.length && this.carry.length > 0) {
      const joint = Buffer.concat([this.carry, chunk]);
      if (joint.length <= 4 && unfinished(joint) === joint.length) {
        this.carry = joint;
        return;
      }
    }
    const tail = unfinished(chunk);
    const body = chunk.subarray(head, chunk.length - tail);
    const joint = this.carry.length + head > 0 ? Buffer.concat([this.carry, chunk.subarray(0, head)]) : undefined;
    if (!isUtf8(body) || (joint && !isUtf8(joint))) this.findBad(chunk, tail, line);
    this.carry = Buffer.from(chunk.subarray(chunk.length - tail));
  }

  /** The text has ended, on line `line`: a character it ended inside is no UTF-8. */
  end(line: number): void {
    if (this.carry.length > 0) this.bad.push(line);
    this.carry = Buffer.alloc(0);
  }

  /** Whether a line from `first` to `last` had a byte that is not UTF-8; the lines before `first` are forgotten. */
  within(first: number, last: number): boolean {
    while (this.passed < this.bad.length && this.bad[this.passed]! < first) this.passed++;
    // Lines passed are dropped once they are half the list: a row still open keeps the rest (every line bad, in a
    // file of millions, held them all).
    if (this.passed > 0 && this.passed * 2 >= this.bad.length) [this.bad, this.passed] = [this.bad.slice(this.passed), 0];
    return this.passed < this.bad.length && this.bad[this.passed]! <= last;
  }

  private findBad(chunk: Buffer, tail: number, line: number): void {
    const end = chunk.length - tail;
    for (let start = 0; start <= end; line++) {
      const newline = chunk.indexOf(0x0a, start);
      const stop = newline < 0 || newline >= end ? end : newline;
      const part = start === 0 ? Buffer.concat([this.carry, chunk.subarray(0, stop)]) : chunk.subarray(start, stop);
      if (!isUtf8(part)) this.bad.push(line);
      if (stop === end) return;
      start = stop + 1;
    }
  }
}

/** The bytes at the start of `chunk` that continue a character begun before it (at most 3). */
function continuations(chunk: Buffer): number {
  let n = 0;
  while (n < 3 && n < chunk.length && (chunk[n]! & 0xc0) === 0x80) n++;
  return n;
}

/** The bytes at the end of `chunk` of a character that goes on in the next (0 when it ends whole). */
function unfinished(chunk: Buffer): number {
  for (let back = 1; back <= Math.min(3, chunk.length); back++) {
    const byte = chunk[chunk.length - back]!;
    if (byte < 0x80) return 0;
    if (byte >= 0xc0) {
      const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return needs > back ? back : 0;
    }
  }
  return 0;
}

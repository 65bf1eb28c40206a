/**
 * The one form a text and a secret are compared in (redaction/secret-matcher.ts): each encoded character decoded to
 * its UTF-8 bytes (percent-encoding, JSON and HTML escapes), letters lower-cased and `+` read as a space, with,
 * for each byte, the range of the text it came from.
 */

/** The canonical bytes of a text, and for each the range of the text it came from. */
export interface Canonical {
  units: Uint8Array;
  start: Int32Array;
  end: Int32Array;
}

const encoder = new TextEncoder();
const hex = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
const hexValue = (text: string, at: number, length: number) => Number.parseInt(text.slice(at, at + length), 16);
const entities: Record<string, string> = {
  quot: '"',
  amp: '&',
  lt: '<',
  gt: '>',
  apos: "'",
  sol: '/',
  plus: '+',
  equals: '=',
  colon: ':',
  num: '#',
  percnt: '%',
};

/** A-Z to a-z, and `+` to a space (form encoding): a decoded byte and a plain one compare the same. */
const fold = (byte: number) => (byte >= 65 && byte <= 90 ? byte + 32 : byte === 43 ? 32 : byte);

export function canonical(text: string): Canonical {
  const n = text.length;
  let units = new Uint8Array(n + 8);
  let start = new Int32Array(n + 8);
  let end = new Int32Array(n + 8);
  let size = 0;
  const push = (byte: number, from: number, to: number) => {
    if (size === units.length) {
      const grow = <T extends Uint8Array | Int32Array>(array: T, make: (length: number) => T) => {
        const bigger = make(array.length * 2);
        bigger.set(array);
        return bigger;
      };
      units = grow(units, (l) => new Uint8Array(l));
      start = grow(start, (l) => new Int32Array(l));
      end = grow(end, (l) => new Int32Array(l));
    }
    if (byte === 92) return; // a decoded backslash (%5C, &#92;) is an escape too
    units[size] = fold(byte);
    start[size] = from;
    end[size] = to;
    size++;
  };
  const pushCodePoint = (codePoint: number, from: number, to: number) => {
    if (codePoint < 128) return push(codePoint, from, to);
    for (const byte of encoder.encode(String.fromCodePoint(codePoint))) push(byte, from, to);
  };
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) {
      // Escaping backslashes are dropped, at any depth, so `\"`, `\\\/` and a plain character compare the same.
      let j = i;
      while (j < n && text.charCodeAt(j) === 92) j++;
      if (j + 4 < n && text.charCodeAt(j) === 117 /* u */ && [1, 2, 3, 4].every((k) => hex(text.charCodeAt(j + k)))) {
        pushCodePoint(hexValue(text, j + 1, 4), i, j + 5);
        i = j + 5;
      } else {
        i = j;
      }
      continue;
    }
    if (c === 37 /* % */) {
      if (text.startsWith('25', i + 1) && hex(text.charCodeAt(i + 3)) && hex(text.charCodeAt(i + 4))) {
        push(hexValue(text, i + 3, 2), i, i + 5);
        i += 5;
        continue;
      }
      if (hex(text.charCodeAt(i + 1)) && hex(text.charCodeAt(i + 2))) {
        push(hexValue(text, i + 1, 2), i, i + 3);
        i += 3;
        continue;
      }
    }
    if (c === 38 /* & */) {
      const entity = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,6}));/.exec(text.slice(i, i + 12));
      const decoded = !entity
        ? undefined
        : entity[1]
          ? Number(entity[1])
          : entity[2]
            ? Number.parseInt(entity[2], 16)
            : entities[entity[3]!.toLowerCase()]?.charCodeAt(0);
      if (entity && decoded !== undefined && Number.isFinite(decoded) && decoded <= 0x10ffff) {
        pushCodePoint(decoded, i, i + entity[0].length);
        i += entity[0].length;
        continue;
      }
    }
    const codePoint = text.codePointAt(i)!;
    const width = codePoint > 0xffff ? 2 : 1;
    pushCodePoint(codePoint, i, i + width);
    i += width;
  }
  return { units: units.subarray(0, size), start: start.subarray(0, size), end: end.subarray(0, size) };
}

/**
 * A value as an example that carries no one's data (DESIGN §7): a capital letter becomes `A`, a small one `a`
 * (letters of every other script `Ä` and `ä`, since a diacritic is what fails a name), a digit of any script `#`; spaces
 * and ASCII punctuation stay, as they are what a rule refuses; a control or bidirectional character is named
 * (`U+202E`); a private-use or unassigned one, or a tag character, becomes `□`, like a letter (Hong Kong's legacy
 * encodings put letters of names there, and tags spell hidden ASCII: named, they would spell the text); other
 * characters become `·`. A run of one kind of letter is
 * cut at 4, so lengths of names split no one out, and the whole at `longest` characters. `O'Brien` → `A'Aaaaa`,
 * `PO Box 12` → `AA Aaa ##`, `(212) 555 0142` → `(###) ### ####`.
 */
export function shapeOf(value: string, longest = 24): string {
  let out = '';
  let last = '';
  let run = 0;
  for (const char of value) {
    const mark = markOf(char);
    run = mark === last ? run + 1 : 1;
    last = mark;
    if (run > 4 && isLetterMark(mark)) continue;
    if (out.length >= longest) return `${out}…`;
    out += mark;
  }
  return out;
}

const isLetterMark = (mark: string) => mark === 'A' || mark === 'a' || mark === 'Ä' || mark === 'ä' || mark === '□';

function markOf(char: string): string {
  const code = char.codePointAt(0)!;
  if (code >= 65 && code <= 90) return 'A';
  if (code >= 97 && code <= 122) return 'a';
  if (code >= 48 && code <= 57) return '#';
  if (code === 32 || (code > 32 && code < 127)) return char;
  if (/\p{Lu}/u.test(char)) return 'Ä';
  if (/\p{L}/u.test(char)) return 'ä';
  if (/\p{N}/u.test(char)) return '#';
  // Controls, bidirectional marks and the like are named, never written: written, they could reorder a report's text.
  if ((code >= 0xe0000 && code <= 0xe007f) || /[\p{Co}\p{Cn}]/u.test(char)) return '□';
  if (/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u.test(char)) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (/\s/.test(char)) return '_';
  return '·';
}

import { expect, test } from '@playwright/test';
import { recordRow } from '../../population/records';

/** population/records.ts: a records row holds each id as given, or says what it is when it cannot be written as given. */

const row = (userId: unknown, format: 'csv' | 'jsonl' = 'csv') => recordRow(format, 7, { user: { id: userId }, company: { id: 'c-1' } }, 'signs-in', []);

test('ids as given: strings, safe numbers; a number JSON already rounded, an object and an array by what they are', () => {
  expect(row('u-1')).toBe('7,u-1,c-1,signs-in,\n');
  expect(row(42)).toBe('7,42,c-1,signs-in,\n');
  expect(row(1.5)).toBe('7,"(a number with a fraction, which JSON readers may round)",c-1,signs-in,\n');
  expect(row(JSON.parse('123456789012345678901234567890'))).toBe('7,"(a number past 2^53, which JSON readers cannot keep exact)",c-1,signs-in,\n');
  expect(row(JSON.parse('123456789012345678901234567890'), 'jsonl')).toBe(
    '{"line":7,"user.id":"(a number past 2^53, which JSON readers cannot keep exact)","company.id":"c-1","outcome":"signs-in","rules":[]}\n',
  );
  expect(row(JSON.parse('1e400'))).toBe('7,(a number too large for JSON readers to keep),c-1,signs-in,\n');
  expect(row(JSON.parse('0.12345678901234567891'))).toBe('7,"(a number with a fraction, which JSON readers may round)",c-1,signs-in,\n');
  // Lone surrogates are escaped: raw, UTF-8 makes each of them U+FFFD, and three ids read as one.
  expect(['\ud800x', '\udc00x', '\ufffdx'].map((id) => row(id))).toEqual([
    '7,\\uD800x,c-1,signs-in,\n',
    '7,\\uDC00x,c-1,signs-in,\n',
    '7,\ufffdx,c-1,signs-in,\n',
  ]);
  expect(row({ ssn: '987-65-4321' })).toBe('7,(an object),c-1,signs-in,\n');
  expect(row(['x'])).toBe('7,(an array),c-1,signs-in,\n');
  expect(row('=HYPERLINK(1)')).toBe("7,'=HYPERLINK(1),c-1,signs-in,\n");
  expect(row('a\u202eb')).toBe('7,a\\u202Eb,c-1,signs-in,\n');
  // Ids that differ stay two in CSV (the fifteenth red team): a backslash of the id's own, and a ' of its own.
  const ids = ['id\u202ex', 'id\\u202Ex', "'=1", '=1', "'", "''", 'a\\b', 'a\\\\b'];
  const cells = ids.map((id) => row(id).split(',')[1]);
  expect(cells).toEqual(['id\\u202Ex', 'id\\\\u202Ex', "''=1", "'=1", "''", "'''", 'a\\\\b', 'a\\\\\\\\b']);
  expect(new Set(cells).size).toBe(ids.length);
  expect(row('a\\b', 'jsonl')).toContain('"user.id":"a\\\\b"');
  // A boolean id stays a boolean in JSON Lines (the seventeenth red team): "true" the string is another id.
  expect([row(true, 'jsonl'), row('true', 'jsonl')].map((text) => (JSON.parse(text) as Record<string, unknown>)['user.id'])).toEqual([true, 'true']);
});

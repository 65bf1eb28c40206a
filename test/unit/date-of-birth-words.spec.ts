import { expect, test } from '@playwright/test';
import type { Exchange } from '../../checks/evidence';
import { dateForms } from '../../redaction/personal-data';
import { redact, redactEvidence } from '../../redaction/redact';
import { secretsOf } from '../../redaction/secrets';

/**
 * Issue 50, item 3: a date of birth the run learned (`"dateOfBirth": "1961-07-23"`) keeps its year only wherever
 * it shows up, also written in words, in any case (docs/REDACTION.md lists the forms): Playwright's report,
 * certification.html and exchanges.har all hold what redact() and redactEvidence() give.
 */

const exchange = (body: string): Exchange => ({
  request: { method: 'GET', url: 'https://p.example/api/account', headers: { authorization: 'Bearer t0ken-0123456789' } },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body, bytes: body.length },
  startedAt: '',
  durationMs: 1,
});
const learned = (iso: string) => secretsOf([exchange(JSON.stringify({ user: { firstName: 'Ada', dateOfBirth: iso } }))]);
const july23 = learned('1961-07-23');

test('the numeric forms an outside red team echoed (other separators, other orders, no separator, a dash of another kind, base64) keep the year only', () => {
  const dec10 = learned('1985-12-10');
  for (const date of [
    '12-10-1985',
    '10-12-1985',
    '12.10.1985',
    '1985.12.10',
    '12101985',
    '10121985',
    '1985\u201112\u201110',
    '1985\u201312\u201310',
    'MTk4NS0xMi0xMA==',
  ])
    expect(redact(`born ${date}; a note`, dec10), date).toBe('born 1985-••-••; a note');
  // The control: another date, and the year alone, stay.
  expect(redact('renewed 12-11-1985, in 1985', dec10)).toBe('renewed 12-11-1985, in 1985');
});

test('the forms of the issue, and others of the documented list, any case, keep the year only', () => {
  const written = [
    'July 23, 1961',
    '23 July 1961',
    'Jul 23, 1961',
    'July 23rd, 1961',
    'JULY 23, 1961',
    'july 23 1961',
    '23rd of July, 1961',
    '23-Jul-1961',
    '23JUL1961',
    'Jul. 23, 1961',
    '1961 July 23',
    '7/23/1961',
    '23.7.1961',
  ];
  for (const date of written) {
    const masked = redact(`born ${date}; a note`, july23);
    expect(masked, date).toBe('born 1961-••-••; a note');
  }
});

test('a date as JavaScript and HTTP print one loses its weekday too', () => {
  const printed = {
    'new Date().toString()': 'Sun Jul 23 1961 00:00:00 GMT+0000 (Coordinated Universal Time)',
    'toUTCString(), an HTTP date': 'Sun, 23 Jul 1961 00:00:00 GMT',
    "toLocaleDateString('en-US', {dateStyle: 'full'})": 'Sunday, July 23, 1961',
    "toLocaleDateString('en-GB', {dateStyle: 'full'})": 'Sunday 23 July 1961',
  };
  for (const [how, date] of Object.entries(printed)) {
    const masked = redact(`"seen": "${date}"`, july23);
    expect(masked, how).not.toMatch(/Jul|23|Sun/);
    expect(masked, how).toContain('1961-••-••');
  }
  // The forms are the date's own: its weekday, and a day below 10 with and without its zero.
  expect(dateForms('1961-07-23')).toContain('Sun Jul 23 1961');
  expect(dateForms('1984-09-02')).toEqual(expect.arrayContaining(['Sun Sep 02 1984', 'Sept. 2nd, 1984', '02 September 1984', '2 Sep 1984']));
  expect(redact('Sunday, September 2, 1984 and 2nd of Sept., 1984', learned('1984-09-02'))).toBe('1984-••-•• and 1984-••-••');
});

test('in the stored artifacts: the HAR and the certification hold the evidence as redactEvidence() leaves it', () => {
  const echoed = exchange(JSON.stringify({ user: { dateOfBirth: '1961-07-23', born: 'July 23rd, 1961', card: '<p>Born 23 JULY 1961</p>' } }));
  const stored = JSON.stringify(redactEvidence([echoed], secretsOf([echoed])));
  expect(stored).not.toMatch(/july|07-23|0723/i);
  expect(stored.match(/1961-••-••/g)).toHaveLength(3);
});

test('the control: text that resembles the date, or another date, stays as it is', () => {
  const ordinary = [
    'July 2023',
    '23 July',
    'July 23',
    'on July 23, 1962 and 23 July 1985',
    'July 23, 19',
    '1961 was a year',
    'Jul 23rd',
    'Sun Jul 23 2023',
    'order 1961-23 shipped',
  ];
  for (const text of ordinary) expect(redact(text, july23), text).toBe(text);
});

test('a date of birth sent month first, day first or with a time (07/23/1961) is learned as the date it is: each of its forms keeps the year only', () => {
  // An outside red team's break: "07/23/1961" under dateOfBirth was quoted whole in the console and JUnit, and
  // "12/10/1985" left 12.10.1985, 1985.12.10, its base64 and 19851210T000000Z in traces.
  expect(redact('"user.dateOfBirth" is "07/23/1961"; born July 23, 1961, 1961-07-23', learned('07/23/1961'))).toBe(
    '"user.dateOfBirth" is "1961-••-••"; born 1961-••-••, 1961-••-••',
  );
  const dec10 = learned('12/10/1985');
  for (const date of [
    '12.10.1985',
    '1985.12.10',
    'MTk4NS0xMi0xMA==',
    '19851210T000000Z',
    '1985\u201112\u201110',
    '1985\u201012\u201010',
    '1985\u201312\u201310',
  ])
    expect(redact(`born ${date}; a note`, dec10), date).not.toContain(date.slice(0, 8));
  for (const sent of ['1961-07-23T00:00:00Z', '1961/7/23', '23.07.1961', '19610723'])
    expect(redact('born July 23, 1961', learned(sent)), sent).toBe('born 1961-••-••');
  // The control: a value under dateOfBirth that is no date teaches nothing, and another date stays.
  expect(redact('renewed 12-11-1985', learned('13/13/1985'))).toBe('renewed 12-11-1985');
});

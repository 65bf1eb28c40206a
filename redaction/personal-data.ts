/** Personal data, masked in the certification report handed to the partner. */

const dot = '•';
/** A date of birth as every output shows it, whatever form it was found in: its year, `1961-••-••`. */
export const yearOnly = (date: string) => `${date.slice(0, 4)}-${dot}${dot}-${dot}${dot}`;
/** A date of birth found under its name, in any form (`19610723`, `07/23/1961`): its year, or none when it holds no year. */
export function dateOfBirthShown(value: string): string {
  const year = /^\d{8}$/.test(value) ? value.slice(0, 4) : /(?<!\d)\d{4}(?!\d)/.exec(value)?.[0];
  return yearOnly(year ?? dot.repeat(4));
}
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const ordinal = (day: number) =>
  `${day}${day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th'}`;

/**
 * The forms a date of birth learned as `YYYY-MM-DD` is also written in, each masked to its year wherever it shows up
 * (any case; docs/REDACTION.md lists them). In figures: `19610723`, `07/23/1961`, `1961/07/23`, `23/07/1961`,
 * `23.07.1961`, and without the zeros (`7/23/1961`, `23.7.1961`, `1961-7-23`). In English words, the month
 * written whole, in three letters, with a dot (`Jul.`) or as `Sept`, the day in figures (also `07`) or as an
 * ordinal (`23rd`): month first (`July 23, 1961`, `July 23 1961`, `Jul-23-1961`), day first (`23 July 1961`,
 * `23 July, 1961`, `23rd of July 1961`, `23-Jul-1961`, `23/Jul/1961`, `23JUL1961`), year first (`1961 July 23`,
 * `1961-Jul-23`); and led by the weekday as JavaScript, HTTP and the English locales write a date (`Sun Jul 23
 * 1961`, `Sun, 23 Jul 1961`, `Sunday, July 23, 1961`, `Sunday, 23 July 1961`, `Sunday 23 July 1961`), so the
 * weekday goes too. Each is found whole, never a fragment: `July 23, 19` begins other dates as much as this one.
 */
export function dateForms(iso: string): string[] {
  const [year, month, day] = iso.split('-') as [string, string, string];
  const [m, d] = [Number(month), Number(day)];
  const name = months[m - 1]!;
  const short = name.slice(0, 3);
  const names = [name, short, `${short}.`, ...(m === 9 ? ['Sept', 'Sept.'] : [])];
  const figures = [String(d), day];
  const weekday = weekdays[new Date(`${iso}T00:00:00Z`).getUTCDay()]!;
  const forms = [
    // In figures, in every order, with any separator a person or a locale writes (hyphens and dashes of every kind),
    // with or without leading zeros; and base64 of the ISO date.
    ...['/', '.', '-', ' ', '', '\u2010', '\u2011', '\u2013', '\u2014'].flatMap((sep) => [
      `${year}${sep}${month}${sep}${day}`,
      `${month}${sep}${day}${sep}${year}`,
      `${day}${sep}${month}${sep}${year}`,
      ...(sep === '' ? [] : [`${m}${sep}${d}${sep}${year}`, `${d}${sep}${m}${sep}${year}`, `${year}${sep}${m}${sep}${d}`]),
    ]),
    Buffer.from(iso).toString('base64'),
    Buffer.from(iso).toString('base64').replace(/=+$/, ''),
    // Words and spaces: every name of the month, the day in figures or as an ordinal.
    ...names.flatMap((mm) =>
      [...figures, ordinal(d)].flatMap((dd) => [
        `${mm} ${dd}, ${year}`,
        `${mm} ${dd},${year}`,
        `${mm} ${dd} ${year}`,
        `${dd} ${mm} ${year}`,
        `${dd} ${mm}, ${year}`,
        `${year} ${mm} ${dd}`,
      ]),
    ),
    ...names.flatMap((mm) => [`${ordinal(d)} of ${mm} ${year}`, `${ordinal(d)} of ${mm}, ${year}`]),
    // Dashes and slashes: the month's name without a dot, the day in figures.
    ...[name, short, ...(m === 9 ? ['Sept'] : [])].flatMap((mm) =>
      figures.flatMap((dd) => [`${mm}-${dd}-${year}`, `${dd}-${mm}-${year}`, `${dd}/${mm}/${year}`, `${year}-${mm}-${dd}`]),
    ),
    `${day}${short}${year}`,
    `${weekday.slice(0, 3)} ${short} ${day} ${year}`,
    `${weekday.slice(0, 3)}, ${day} ${short} ${year}`,
    `${weekday}, ${name} ${d}, ${year}`,
    `${weekday}, ${d} ${name} ${year}`,
    `${weekday} ${d} ${name} ${year}`,
  ];
  return [...new Set(forms)].filter((form) => form !== iso);
}
/**
 * A real calendar date written `YYYY-MM-DD`: a date of birth the run learns (one that is not a date is quoted by its
 * failure). checks/account-info-user.ts judges the same with the published schema's format; redaction loads no rule.
 */
const isCalendarDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
/**
 * The calendar dates (`YYYY-MM-DD`) a date of birth written in figures may be, as a partner sends it: `1961-07-23`,
 * `19610723`, `1961-07-23T00:00:00Z`, `1961/7/23`, and month or day first (`07/23/1961`, `23.07.1961`): both
 * readings where both are dates, so the one meant is among them.
 */
export function calendarDates(value: string): string[] {
  const pad = (figures: string) => figures.padStart(2, '0');
  const yearFirst = /^(\d{4})[-/. ]?(\d{1,2})[-/. ]?(\d{1,2})(?:[T ][\d:.]*(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  const yearLast = /^(\d{1,2})[-/. ](\d{1,2})[-/. ](\d{4})$/.exec(value.trim());
  const candidates = [
    ...(yearFirst ? [`${yearFirst[1]}-${pad(yearFirst[2]!)}-${pad(yearFirst[3]!)}`] : []),
    ...(yearLast ? [`${yearLast[3]}-${pad(yearLast[1]!)}-${pad(yearLast[2]!)}`, `${yearLast[3]}-${pad(yearLast[2]!)}-${pad(yearLast[1]!)}`] : []),
  ];
  return [...new Set(candidates)].filter(isCalendarDate);
}
const initials = (value: string) => value.replace(/(\p{L})\p{L}*/gu, `$1${dot.repeat(3)}`);
const lastFourDigits = (value: string) => value.replace(/\d(?=(?:\D*\d){4})/g, dot);
/** Enough of each value is left to recognise it and its shape (an apostrophe, a PO box), not a person. */
const personalMasks: Record<string, (value: string) => string> = {
  email: (value) => value.replace(/^[^@]+/, (local) => `${local.slice(0, 1)}${dot.repeat(3)}`),
  firstname: initials,
  lastname: initials,
  phone: lastFourDigits,
  phonenumber: lastFourDigits,
  dateofbirth: (value) => (/^\d{4}-\d{2}-\d{2}/.test(value) ? yearOnly(value) + value.slice(10) : value),
  line1: (value) => value.replace(/\d/g, dot),
  line2: (value) => value.replace(/\d/g, dot),
};

/**
 * A JSON body with the account holder's personal data masked: names to initials, e-mail to its domain,
 * phone to its last 4 digits, date of birth to its year, house numbers. A field named in `keep`
 * (dotted, array indices dropped, matched at the end of the path) stays whole: its failure quotes it anyway.
 */
export function maskPersonalData(value: unknown, keep: ReadonlySet<string> = new Set()): unknown {
  const kept = (path: string) => [...keep].some((field) => path === field || path.endsWith(`.${field}`));
  const walk = (node: unknown, path: string, key: string): unknown => {
    if (typeof node === 'string') {
      const mask = personalMasks[key.toLowerCase()];
      return mask && !kept(path) ? mask(node) : node;
    }
    if (Array.isArray(node)) return node.map((child) => walk(child, path, key));
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, child]) => [k, walk(child, path ? `${path}.${k}` : k, k)]));
    return node;
  };
  return walk(value, '', '');
}

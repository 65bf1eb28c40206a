/** Personal data, masked in the certification report handed to the partner. */

const dot = '•';
/** A date of birth as every output shows it, whatever form it was found in: its year, `1961-••-••`. */
export const yearOnly = (date: string) => `${date.slice(0, 4)}-${dot}${dot}-${dot}${dot}`;
/** A date of birth found under its name, in any form (`19610723`, `07/23/1961`): its year, or none when it holds no year. */
export function dateOfBirthShown(value: string): string {
  const year = /^\d{8}$/.test(value) ? value.slice(0, 4) : /(?<!\d)\d{4}(?!\d)/.exec(value)?.[0];
  return yearOnly(year ?? dot.repeat(4));
}
/** The forms a date of birth learned as `YYYY-MM-DD` is also written in, each masked to its year wherever it shows up. */
export function dateForms(iso: string): string[] {
  const [year, month, day] = iso.split('-');
  return [...new Set([`${year}${month}${day}`, `${month}/${day}/${year}`, `${year}/${month}/${day}`, `${day}/${month}/${year}`, `${day}.${month}.${year}`])];
}
/**
 * A real calendar date written `YYYY-MM-DD`: a date of birth the run learns (one that is not a date is quoted by its
 * failure). checks/account-info-user.ts judges the same with the published schema's format; redaction loads no rule.
 */
export const isCalendarDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
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

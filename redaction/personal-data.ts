/** Personal data, masked in the certification report handed to the partner. */

const dot = '•';
const initials = (value: string) => value.replace(/(\p{L})\p{L}*/gu, `$1${dot.repeat(3)}`);
const lastFourDigits = (value: string) => value.replace(/\d(?=(?:\D*\d){4})/g, dot);
/** Enough of each value is left to recognise it and its shape (an apostrophe, a PO box), not a person. */
const personalMasks: Record<string, (value: string) => string> = {
  email: (value) => value.replace(/^[^@]+/, (local) => `${local.slice(0, 1)}${dot.repeat(3)}`),
  firstname: initials,
  lastname: initials,
  phone: lastFourDigits,
  phonenumber: lastFourDigits,
  dateofbirth: (value) => value.replace(/^(\d{4})-\d{2}-\d{2}/, `$1-${dot}${dot}-${dot}${dot}`),
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

/** Account-information and funding-source validation by the rules of spec §2.3 and §2.4. */

export interface Problem {
  path: string;
  message: string;
}

export interface AccountCheck {
  /** Yes fields that are missing; never collectable (spec §7.2). */
  missingRequired: string[];
  /** Yes* leaf fields that are missing; collectable when the partner enables it. */
  missingCollectable: string[];
  invalid: Problem[];
}

type Obj = Record<string, unknown>;

const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY ' +
    'DC AS GU MP PR UM VI'
  ).split(' '),
);
const BUSINESS_TYPES = ['partnership', 'sole-proprietorship', 'llc', 'corporation', 'trust', 'non-profit', 'municipality', 'ngo'];
const TAX_TYPES = ['SSN', 'ITIN', 'EIN'];
const NAME = /^[a-zA-Z\s\-,.]*$/;
const PO_BOX = /\b(p\.?\s*o\.?\s*box|post\s+office\s+box|pob\s+\d)/i;

export const ADDRESS_LEAVES = ['line1', 'city', 'state', 'postalcode'] as const;
export const COLLECTABLE = [
  'user.firstName',
  'user.lastName',
  'user.phone',
  'user.dateOfBirth',
  'company.name',
  ...ADDRESS_LEAVES.map((l) => `company.address.${l}`),
  ...ADDRESS_LEAVES.map((l) => `company.legalAddress.${l}`),
];

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Absent, null and empty strings all count as "omitted" by the partner. */
function absent(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/** The field table says `postalcode`, the samples `postalCode`; both are read. */
export function readLeaf(info: unknown, path: string): unknown {
  let cur: unknown = info;
  for (const part of path.split('.')) {
    if (!isObj(cur)) return undefined;
    cur = part === 'postalcode' && absent(cur.postalcode) ? cur.postalCode : cur[part];
  }
  return cur;
}

export function writeLeaf(info: Obj, path: string, value: string): void {
  const parts = path.split('.');
  let cur = info;
  for (const part of parts.slice(0, -1)) {
    if (!isObj(cur[part])) cur[part] = {};
    cur = cur[part] as Obj;
  }
  const last = parts[parts.length - 1] ?? path;
  if (last === 'postalcode') delete cur.postalCode;
  cur[last] = value;
}

function ageOn(dob: Date, today: Date): number {
  let age = today.getUTCFullYear() - dob.getUTCFullYear();
  const m = today.getUTCMonth() - dob.getUTCMonth();
  if (m < 0 || (m === 0 && today.getUTCDate() < dob.getUTCDate())) age--;
  return age;
}

/** Checks one collectable or optional leaf value; returns a message when it is invalid. */
export function checkLeaf(path: string, v: unknown, now: number): string | undefined {
  const leaf = path.split('.').pop() ?? '';
  if (typeof v !== 'string') return 'must be a string';
  switch (path) {
    case 'user.firstName':
    case 'user.lastName':
      if (v.length < 2 || v.length > 100) return 'must be 2 to 100 characters long';
      return NAME.test(v) ? undefined : 'may contain only letters, spaces and - , .';
    case 'user.phone': {
      if (!/^\+?[0-9\-().]+$/.test(v)) return 'may contain only digits and - + ( ) . (with + only first)';
      const digits = v.replace(/\D/g, '');
      if (digits.length < 9) return 'must contain at least 9 digits';
      if (v.startsWith('+') && !digits.startsWith('1')) return 'must be a US number (+1)';
      if (digits.length > 11 || (digits.length === 11 && !digits.startsWith('1'))) return 'must be a US number';
      return undefined;
    }
    case 'user.dateOfBirth': {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return 'must be an ISO 8601 date (YYYY-MM-DD)';
      const d = new Date(`${v}T00:00:00Z`);
      if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) return 'must be a real calendar date';
      const age = ageOn(d, new Date(now));
      return age >= 18 && age < 120 ? undefined : 'the user must be 18 or older and younger than 120';
    }
    case 'user.email':
      return v.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(v) ? undefined : 'must be a valid e-mail address';
    case 'company.name':
      if (v.length < 3) return 'must be at least 3 characters long';
      return (v.match(/[a-zA-Z0-9]/g) ?? []).length >= 2 ? undefined : 'must contain at least 2 letters or digits';
  }
  switch (leaf) {
    case 'line1':
      return PO_BOX.test(v) ? 'must be a street address, not a PO box' : undefined;
    case 'state':
      return US_STATES.has(v) ? undefined : 'must be a 2-letter uppercase US state code';
    case 'postalcode':
      if (v.length < 5) return 'must be at least 5 characters long';
      return /^[0-9\-\s]*$/.test(v) ? undefined : 'may contain only digits, - and spaces';
  }
  return undefined;
}

function checkAddress(c: Obj, key: 'address' | 'legalAddress', out: AccountCheck, now: number): void {
  const a = c[key];
  const base = `company.${key}`;
  if (absent(a)) {
    out.missingCollectable.push(...ADDRESS_LEAVES.map((l) => `${base}.${l}`));
    return;
  }
  if (!isObj(a)) {
    out.invalid.push({ path: base, message: 'must be an address object' });
    return;
  }
  for (const leaf of ADDRESS_LEAVES) {
    const path = `${base}.${leaf}`;
    const v = readLeaf(a, leaf);
    if (absent(v)) out.missingCollectable.push(path);
    else {
      const msg = checkLeaf(path, v, now);
      if (msg) out.invalid.push({ path, message: msg });
    }
  }
  if (!absent(a.line2) && typeof a.line2 !== 'string') out.invalid.push({ path: `${base}.line2`, message: 'must be a string' });
}

export function checkAccountInfo(info: unknown, now: number): AccountCheck {
  const out: AccountCheck = { missingRequired: [], missingCollectable: [], invalid: [] };
  const user = isObj(info) ? info.user : undefined;
  const company = isObj(info) ? info.company : undefined;
  if (!isObj(user)) out.missingRequired.push('user', 'user.id', 'user.email');
  if (!isObj(company)) out.missingRequired.push('company', 'company.id');
  if (isObj(user)) {
    for (const path of ['user.id', 'user.email']) {
      const v = readLeaf(info, path);
      if (absent(v)) out.missingRequired.push(path);
      else if (typeof v !== 'string') out.invalid.push({ path, message: 'must be a string' });
    }
    const email = readLeaf(info, 'user.email');
    if (typeof email === 'string' && email !== '') {
      const msg = checkLeaf('user.email', email, now);
      if (msg) out.invalid.push({ path: 'user.email', message: msg });
    }
    for (const path of ['user.firstName', 'user.lastName', 'user.phone', 'user.dateOfBirth']) {
      const v = readLeaf(info, path);
      if (absent(v)) out.missingCollectable.push(path);
      else {
        const msg = checkLeaf(path, v, now);
        if (msg) out.invalid.push({ path, message: msg });
      }
    }
  }
  if (isObj(company)) {
    if (absent(company.id)) out.missingRequired.push('company.id');
    else if (typeof company.id !== 'string') out.invalid.push({ path: 'company.id', message: 'must be a string' });
    if (absent(company.name)) out.missingCollectable.push('company.name');
    else {
      const msg = checkLeaf('company.name', company.name, now);
      if (msg) out.invalid.push({ path: 'company.name', message: msg });
    }
    checkAddress(company, 'address', out, now);
    checkAddress(company, 'legalAddress', out, now);
    checkCompanyOptional(company, out);
  }
  return out;
}

function checkCompanyOptional(c: Obj, out: AccountCheck): void {
  const bad = (path: string, message: string): void => void out.invalid.push({ path, message });
  if (!absent(c.legalName) && typeof c.legalName !== 'string') bad('company.legalName', 'must be a string');
  if (!absent(c.businessType) && !BUSINESS_TYPES.includes(c.businessType as string)) bad('company.businessType', `must be one of ${BUSINESS_TYPES.join(', ')}`);
  if (!absent(c.taxInfo)) {
    if (!isObj(c.taxInfo)) bad('company.taxInfo', 'must be an object');
    else {
      const { type, identifier } = c.taxInfo;
      if (!absent(type) && !TAX_TYPES.includes(type as string)) bad('company.taxInfo.type', 'must be SSN, ITIN or EIN');
      if ((type === 'SSN' || type === 'ITIN') && !absent(c.businessType) && c.businessType !== 'trust' && c.businessType !== 'sole-proprietorship') {
        bad('company.taxInfo.type', 'SSN or ITIN requires businessType trust or sole-proprietorship');
      }
      if (!absent(identifier)) {
        if (typeof identifier !== 'string' || !/^[0-9-]+$/.test(identifier)) bad('company.taxInfo.identifier', 'must be digits and -');
        else if (identifier.replace(/-/g, '').length < 9) bad('company.taxInfo.identifier', 'must have at least 9 digits excluding -');
        else if (type === 'ITIN' && !identifier.startsWith('9')) bad('company.taxInfo.identifier', 'an ITIN must start with 9');
      }
    }
  }
  if (!absent(c.industry)) {
    if (!isObj(c.industry)) bad('company.industry', 'must be an object');
    else {
      const { naicsCode, name } = c.industry;
      if (!absent(naicsCode)) {
        const ok =
          typeof naicsCode === 'number' &&
          Number.isInteger(naicsCode) &&
          naicsCode >= 10 &&
          naicsCode <= 999999 &&
          [2, 4, 6].includes(String(naicsCode).length);
        if (!ok) bad('company.industry.naicsCode', 'must be a 2, 4 or 6 digit NAICS code between 10 and 999999');
      }
      if (!absent(name) && typeof name !== 'string') bad('company.industry.name', 'must be a string');
    }
  }
}

export interface FundingSource {
  id: string;
  type: 'ach';
  nickname?: string;
  last4: string;
}

/** Validates a funding-sources response (spec §2.4); keeps only what the wallet shows, never full account numbers. */
export function parseFundingSources(body: unknown): { ok: true; sources: FundingSource[] } | { ok: false; detail: string } {
  if (!isObj(body) || !Array.isArray(body.fundingSources)) return { ok: false, detail: 'fundingSources must be an array' };
  const sources: FundingSource[] = [];
  const seen = new Set<string>();
  for (const [i, s] of body.fundingSources.entries()) {
    const at = `fundingSources[${i}]`;
    if (!isObj(s)) return { ok: false, detail: `${at} must be an object` };
    if (typeof s.id !== 'string' || s.id === '' || seen.has(s.id)) return { ok: false, detail: `${at}.id must be a unique non-empty string` };
    if (s.type !== 'ach') return { ok: false, detail: `${at}.type must be ach` };
    const nickname = absent(s.nickname) ? s.nickName : s.nickname;
    if (!absent(nickname) && (typeof nickname !== 'string' || nickname.length < 2 || nickname.length > 40))
      return { ok: false, detail: `${at}.nickname must be 2 to 40 characters` };
    if (typeof s.bankAccountNumber !== 'string' || s.bankAccountNumber === '') return { ok: false, detail: `${at}.bankAccountNumber is required` };
    if (typeof s.bankRoutingNumber !== 'string' || s.bankRoutingNumber === '') return { ok: false, detail: `${at}.bankRoutingNumber is required` };
    const given = s.accountNumberLast4Digits;
    if (!absent(given) && (typeof given !== 'string' || given.length !== 4))
      return { ok: false, detail: `${at}.accountNumberLast4Digits must be exactly 4 characters` };
    seen.add(s.id);
    sources.push({
      id: s.id,
      type: 'ach',
      ...(typeof nickname === 'string' && nickname !== '' ? { nickname } : {}),
      last4: typeof given === 'string' && given !== '' ? given : s.bankAccountNumber.slice(-4),
    });
  }
  return { ok: true, sources };
}

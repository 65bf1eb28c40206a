/**
 * A synthetic population of account-information payloads (spec §2.3, `{ user, company }`) for the population check (DESIGN §7),
 * deterministic from (seed, now), with a documented mix of defects and the outcome each user will meet.
 *
 * Users come in blocks of 1,000: in every block exactly `perThousand` users carry each defect, placed by a permutation of 0..999
 * drawn from mulberry32 seeded with (seed, block); the rest are clean. A clean user passes every rule of spec §2.3 and DESIGN §5 and
 * has every field, no** and no* included; a defect user is a clean user with exactly one change. Outcomes (product choices): a value
 * present but invalid is the error screen whatever collectMissingAccountInfo is; a missing Yes field always is (spec §7.2); a missing
 * or null Yes* field is the error screen when collectMissingAccountInfo is off and typed at sign-on when on (a whole Address counts
 * as its 4 required parts); a missing no** field is asked before the first payment; what DESIGN §5 ranks below MUST signs in.
 *
 * Outcomes off / on: E error-screen, S signs-in, A asked-before-payment, T(n) typed-at-sign-on with n fields typed.
 * | defect                          | per 1,000 | off / on | defect                          | per 1,000 | off / on |
 * | ------------------------------- | --------: | -------- | ------------------------------- | --------: | -------- |
 * | apostrophe-last-name            |        20 | E / E    | diacritic-first-name            |        15 | E / E    |
 * | hyphenated-last-name            |        30 | S / S    | one-letter-first-name           |         8 | E / E    |
 * | po-box-address-line1            |        25 | E / E    | po-box-legal-address-line1      |        10 | E / E    |
 * | line1-without-house-number      |         5 | S / S    | null-address-line2              |         5 | S / S    |
 * | unknown-state                   |        10 | E / E    | puerto-rico-state               |        10 | S / S    |
 * | phone-with-spaces               |        30 | E / E    | phone-too-few-digits            |        10 | E / E    |
 * | missing-first-name              |        15 | E / T(1) | missing-phone                   |        40 | E / T(1) |
 * | null-phone                      |        10 | E / T(1) | missing-date-of-birth           |        30 | E / T(1) |
 * | missing-phone-and-date-of-birth |        20 | E / T(2) | missing-company-name            |        10 | E / T(1) |
 * | missing-company-address         |        15 | E / T(4) | missing-legal-address           |        10 | E / T(4) |
 * | missing-email                   |         5 | E / E    | missing-user-id                 |         3 | E / E    |
 * | ssn-sole-proprietorship         |        10 | S / S    | itin-sole-proprietorship        |        10 | S / S    |
 * | itin-with-llc                   |         8 | E / E    | ssn-too-few-digits              |         5 | E / E    |
 * | ein-prefix-not-in-irs-list      |         5 | S / S    | age-18-today                    |         5 | S / S    |
 * | age-17-turns-18-tomorrow        |         5 | E / E    | age-119                         |         3 | S / S    |
 * | age-120                         |         3 | E / E    | naics-out-of-range              |        10 | E / E    |
 * | naics-sector-code               |        10 | S / S    | naics-not-a-sector              |         5 | S / S    |
 * | missing-legal-name              |        30 | A / A    | missing-business-type           |        20 | A / A    |
 * | missing-tax-info                |        40 | A / A    | clean (the rest)                |       495 | S / S    |
 *
 * So per 1,000 users: off 593 S, 317 E, 90 A; on 593 S, 167 E, 150 T (T(1) 105, T(2) 20, T(4) 25), 90 A. Values are synthetic:
 * plain ASCII names, e-mails at example.com/.net/.org, unique ids, and phones that are valid NANP numbers (real area codes,
 * exchanges 201..989 except N11, 555, 950, 958, 959, 976), distinct for up to 155 million users.
 */

export type OutcomeKey = 'signs-in' | 'asked-before-payment' | 'typed-at-sign-on' | 'error-screen';
export interface Expected {
  outcome: OutcomeKey;
  /** for typed-at-sign-on: how many fields the user types */
  typedFields?: number;
}
export interface Defect {
  id: string;
  description: string;
  perThousand: number;
  expected: { collectOff: Expected; collectOn: Expected };
}
type Rng = () => number;
type Address = { line1: string; line2?: string | null; city: string; state: string; postalcode: string };
type Payload = ReturnType<typeof build>;
type Mutation = (p: Payload, r: Rng, now: Date) => unknown;
const list = (s: string): string[] => s.trim().split(/\s+/);
const table = (s: string): string[][] => s.split(/\s*[|\n]\s*/).map((row) => row.split(';'));
const FIRST = list(`James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica Thomas Sarah Charles
  Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Sandra Mark Margaret Steven Ashley Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin
  Amanda Brian Melissa George Deborah Timothy Stephanie Ronald Rebecca Jason Laura Edward Helen Jeffrey Sharon Ryan Cynthia Jacob Kathleen Gary Amy Nicholas
  Angela Eric Shirley Jonathan Anna Stephen Brenda Larry Pamela Justin Emma Scott Nicole Brandon Samantha Benjamin Katherine`);
const LAST = list(`Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore
  Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green
  Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales
  Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood`);
const BRANDS = list('Northwind Bluebird Summit Harbor Pioneer Keystone Evergreen Redwood Lakeside Cornerstone Silverline Brightpath Granite Riverbend');
const STREETS = list('Main Oak Maple Cedar Pine Elm Washington Lake Hill Park Sunset Lincoln Jackson Madison Franklin Highland Church Spring River Meadow');
const CITIES = table(`New York;NY;100|Chicago;IL;606|Houston;TX;770|Austin;TX;787|Phoenix;AZ;850|Philadelphia;PA;191|San Diego;CA;921|San Francisco;CA;941
  Seattle;WA;981|Denver;CO;802|Boston;MA;021|Atlanta;GA;303|Miami;FL;331|Portland;OR;972|Minneapolis;MN;554|Nashville;TN;372|Charlotte;NC;282|Columbus;OH;432
  Detroit;MI;482|Baltimore;MD;212|Washington;DC;200|Salt Lake City;UT;841|Las Vegas;NV;891|Omaha;NE;681|Boise;ID;837|Anchorage;AK;995|Honolulu;HI;968`);
const INDUSTRIES = table(`722511;Full-Service Restaurants;Kitchen|541511;Custom Computer Programming Services;Software
  541211;Offices of Certified Public Accountants;Accounting|238220;Plumbing, Heating, and Air-Conditioning Contractors;Plumbing|812112;Beauty Salons;Salon
  531210;Offices of Real Estate Agents and Brokers;Realty|621210;Offices of Dentists;Dental|811111;General Automotive Repair;Auto Repair
  484110;General Freight Trucking, Local;Freight|311811;Retail Bakeries;Bakery|561720;Janitorial Services;Cleaning
  713940;Fitness and Recreational Sports Centers;Fitness|541110;Offices of Lawyers;Law Group|524210;Insurance Agencies and Brokerages;Insurance
  111998;All Other Miscellaneous Crop Farming;Farms|561730;Landscaping Services;Landscaping|221114;Solar Electric Power Generation;Solar
  213112;Support Activities for Oil and Gas Operations;Energy|236118;Residential Remodelers;Builders`);
const SECTORS = table('54;Professional, Scientific, and Technical Services|23;Construction').map(([c, name = '']) => ({ naicsCode: Number(c), name }));
const AREAS = list('212 312 415 617 713 206 303 404 512 646 213 305 602 702 503 612 214 480 919 615');
const EXCHANGES = Array.from({ length: 789 }, (_, i) => 201 + i).filter((x) => x % 100 !== 11 && ![555, 950, 958, 959, 976].includes(x));
const EIN_PREFIXES = list('10 12 20 27 30 45 46 47 52 54 61 81 82 84 86 88 91 94 95');
const PO_BOXES = ['PO Box', 'P.O. Box', 'P O Box', 'PO-Box', 'POBOX', 'Post Office Box', 'P.O.B.', 'po box', 'Box #'];
const APOSTROPHE = list("O'Brien O'Connor D'Angelo O'Neil D'Souza O'Malley");
const DIACRITIC = list('José Zoë André Renée Chloé Jürgen Søren Inés François Björn');
const DAY = 86_400_000;

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
function mulberry32(a: number): Rng {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** A bijection of 32-bit integers (lowbias32), so distinct indexes give distinct ids. */
function scramble(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}
const mix = (a: number, b: number): number => scramble((scramble(a >>> 0) ^ Math.imul((b >>> 0) + 1, 0x9e3779b9)) >>> 0);
const at = <T>(a: ArrayLike<T>, i: number): T => a[i] as T;
const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, a: readonly T[]): T => at(a, Math.floor(r() * a.length));
const pad = (n: number | string, width: number): string => String(n).padStart(width, '0');
const iso = (t: number): string => new Date(t).toISOString().slice(0, 10);
function drops(o: 'user' | 'company', ...keys: string[]): Mutation {
  return (p) => keys.forEach((k) => Reflect.deleteProperty(p[o], k));
}
const digitsOf = (s: string | null): string => String(s).replace(/\D/g, '');
const poBox = (r: Rng, s = pick(r, PO_BOXES)): string => `${s}${s.endsWith('#') ? '' : ' '}${int(r, 1, 9999)}`;
const itin = (r: Rng): string => `9${pad(int(r, 0, 99), 2)}-${int(r, 70, 88)}-${pad(int(r, 0, 9999), 4)}`;
const ssn = (r: Rng): string => `${int(r, 100, 665)}-${pad(int(r, 1, 99), 2)}-${pad(int(r, 1, 9999), 4)}`;
const tax = (p: Payload, type: string, identifier: string, businessType = 'sole-proprietorship'): unknown =>
  Object.assign(p.company, { businessType, taxInfo: { type, identifier } });
const noHouseNumber = (p: Payload): string => (p.company.address.line1 = p.company.address.line1.replace(/^\d+ /, ''));
const badState = (p: Payload, r: Rng): string => (p.company.address.state = pick(r, ['XX', 'ny', 'ca']));
const puertoRico = (p: Payload, r: Rng): Address =>
  (p.company.address = { ...p.company.address, city: 'San Juan', state: 'PR', postalcode: `009${pad(int(r, 1, 40), 2)}` });
const spaced = (p: Payload): string => (p.user.phone = digitsOf(p.user.phone).replace(/^(\d{3})(\d{3})/, '$1 $2 '));
function naics(...codes: number[]): Mutation {
  return (p, r) => (p.company.industry.naicsCode = pick(r, codes));
}
function born(years: number, shift: number): Mutation {
  return (p, _r, now) => (p.user.dateOfBirth = turns(now, years, shift));
}
const swap = (a: Uint16Array, i: number, j: number): void => void ([a[i], a[j]] = [at(a, j), at(a, i)]);
const einPrefix = (p: Payload, r: Rng): string => (p.company.taxInfo.identifier = p.company.taxInfo.identifier.replace(/^\d\d/, pick(r, ['07', '17', '89'])));
const phoneCut = (p: Payload, r: Rng): string => (p.user.phone = digitsOf(p.user.phone).replace(r() < 0.5 ? /^\d{3}(\d{3})/ : /^\d{2}(\d{4})/, '$1-'));
/** The birth date of someone who turns `years` on now + `shift` days (UTC). A 29 February the birth year lacks becomes the 28th
 * when shift is 0 (the birthday has passed today) and 1 March otherwise (it has not). */
function turns(now: Date, years: number, shift: number): string {
  const t = new Date(now.getTime() + shift * DAY);
  const [y, m, day] = [t.getUTCFullYear() - years, t.getUTCMonth(), t.getUTCDate()];
  const b = Date.UTC(y, m, day);
  return iso(new Date(b).getUTCDate() === day || shift ? b : Date.UTC(y, m + 1, 0));
}

const SIGN: Expected = { outcome: 'signs-in' };
const ERR: Expected = { outcome: 'error-screen' };
const ASK: Expected = { outcome: 'asked-before-payment' };
const typed = (typedFields: number): Expected => ({ outcome: 'typed-at-sign-on', typedFields });
const MUTATE = new Map<string, Mutation>();
function d(id: string, perThousand: number, collectOff: Expected, collectOn: Expected, description: string, mutate: Mutation): Defect {
  MUTATE.set(id, mutate);
  return Object.freeze({ id, description, perThousand, expected: Object.freeze({ collectOff, collectOn }) });
}

export const defects: readonly Defect[] = Object.freeze([
  d('apostrophe-last-name', 20, ERR, ERR, "lastName like O'Brien: ' is not in the pattern (spec §2.3)", (p, r) => (p.user.lastName = pick(r, APOSTROPHE))),
  d('diacritic-first-name', 15, ERR, ERR, 'firstName like José: é is not in a-zA-Z (spec §2.3)', (p, r) => (p.user.firstName = pick(r, DIACRITIC))),
  d('hyphenated-last-name', 30, SIGN, SIGN, 'lastName like Smith-Jones: "-" is allowed (spec §2.3)', (p, r) => (p.user.lastName += `-${pick(r, LAST)}`)),
  d('one-letter-first-name', 8, ERR, ERR, 'firstName of 1 letter: length below 2 (spec §2.3, §8)', (p) => (p.user.firstName = p.user.firstName.charAt(0))),
  d('po-box-address-line1', 25, ERR, ERR, 'address.line1 a PO box, various spellings (spec §2.3, DESIGN §5)', (p, r) => (p.company.address.line1 = poBox(r))),
  d('po-box-legal-address-line1', 10, ERR, ERR, 'legalAddress.line1 a PO box (spec §2.3, DESIGN §5)', (p, r) => (p.company.legalAddress.line1 = poBox(r))),
  d('line1-without-house-number', 5, SIGN, SIGN, 'address.line1 without a house number: ranked below MUST (spec §2.3 Address)', noHouseNumber),
  d('null-address-line2', 5, SIGN, SIGN, 'address.line2 null: optional, a SHOULD warning only (DESIGN §5 null)', (p) => (p.company.address.line2 = null)),
  d('unknown-state', 10, ERR, ERR, 'address.state XX, ny or ca: not an uppercase ISO 3166-2:US code (spec §2.3, DESIGN §5)', badState),
  d('puerto-rico-state', 10, SIGN, SIGN, 'address in San Juan, PR: PR is an ISO 3166-2:US code, valid (DESIGN §5 State)', puertoRico),
  d('phone-with-spaces', 30, ERR, ERR, 'phone like "212 345 6789": a space is not in digits and -+(). (spec §2.3, DESIGN §5)', spaced),
  d('phone-too-few-digits', 10, ERR, ERR, 'phone of 7 or 8 digits: fewer than 9 digits (spec §2.3)', phoneCut),
  d('missing-first-name', 15, ERR, typed(1), 'user.firstName missing: Yes*, typed when collecting (spec §2.3, §7)', drops('user', 'firstName')),
  d('missing-phone', 40, ERR, typed(1), 'user.phone missing: Yes*, typed when collecting (spec §2.3, §7)', drops('user', 'phone')),
  d('null-phone', 10, ERR, typed(1), 'user.phone null: counts as missing Yes* (DESIGN §5 null, spec §7)', (p) => (p.user.phone = null)),
  d('missing-date-of-birth', 30, ERR, typed(1), 'user.dateOfBirth missing: Yes*, typed when collecting (spec §2.3, §7)', drops('user', 'dateOfBirth')),
  d('missing-phone-and-date-of-birth', 20, ERR, typed(2), 'phone, dateOfBirth missing: 2 Yes* typed (spec §2.3, §7)', drops('user', 'phone', 'dateOfBirth')),
  d('missing-company-name', 10, ERR, typed(1), 'company.name missing: Yes*, typed when collecting (spec §2.3, §7)', drops('company', 'name')),
  d('missing-company-address', 15, ERR, typed(4), 'company.address missing: its 4 Yes* parts are typed (spec §2.3, §7)', drops('company', 'address')),
  d('missing-legal-address', 10, ERR, typed(4), 'company.legalAddress missing: 4 Yes* parts typed (spec §2.3, §7)', drops('company', 'legalAddress')),
  d('missing-email', 5, ERR, ERR, 'user.email missing: Yes, the error even when collecting (spec §7.2)', drops('user', 'email')),
  d('missing-user-id', 3, ERR, ERR, 'user.id missing: Yes, the error even when collecting (spec §7.2)', drops('user', 'id')),
  d('ssn-sole-proprietorship', 10, SIGN, SIGN, 'SSN with sole-proprietorship: a valid combination (spec §2.3)', (p, r) => tax(p, 'SSN', ssn(r))),
  d('itin-sole-proprietorship', 10, SIGN, SIGN, 'ITIN starting with 9, sole-proprietorship: valid (spec §2.3)', (p, r) => tax(p, 'ITIN', itin(r))),
  d('itin-with-llc', 8, ERR, ERR, 'ITIN with businessType llc: only trust or sole-proprietorship (spec §2.3)', (p, r) => tax(p, 'ITIN', itin(r), 'llc')),
  d('ssn-too-few-digits', 5, ERR, ERR, 'SSN identifier of 8 digits: fewer than 9 (spec §2.3, §8)', (p, r) => tax(p, 'SSN', ssn(r).slice(0, -1))),
  d('ein-prefix-not-in-irs-list', 5, SIGN, SIGN, 'EIN prefix 07, 17 or 89: not an IRS prefix, a SHOULD only (DESIGN §5 Tax info)', einPrefix),
  d('age-18-today', 5, SIGN, SIGN, 'user turns 18 today: 18 or older, valid (spec §2.3, §8, DESIGN §5)', born(18, 0)),
  d('age-17-turns-18-tomorrow', 5, ERR, ERR, 'user is 17, turns 18 tomorrow: under 18 (spec §2.3, §8, DESIGN §5)', born(18, 1)),
  d('age-119', 3, SIGN, SIGN, 'user is 119, turns 120 tomorrow: below 120, valid (spec §2.3, §8)', born(120, 1)),
  d('age-120', 3, ERR, ERR, 'user turns 120 today: not below 120 (spec §2.3, §8)', born(120, 0)),
  d('naics-out-of-range', 10, ERR, ERR, 'naicsCode 5 or 1234567: outside 10..999999 (spec §2.3, §8)', naics(5, 1_234_567)),
  d('naics-sector-code', 10, SIGN, SIGN, 'naicsCode 54 or 23, a 2-digit sector: valid (spec §2.3)', (p, r) => (p.company.industry = { ...pick(r, SECTORS) })),
  d('naics-not-a-sector', 5, SIGN, SIGN, 'naicsCode 6 digits whose first 2 are no sector: a SHOULD only (DESIGN §5 NAICS)', naics(123_456, 990_000)),
  d('missing-legal-name', 30, ASK, ASK, 'company.legalName missing: no**, asked before payment (spec §2.3)', drops('company', 'legalName')),
  d('missing-business-type', 20, ASK, ASK, 'company.businessType missing: no**, asked before payment (spec §2.3)', drops('company', 'businessType')),
  d('missing-tax-info', 40, ASK, ASK, 'company.taxInfo missing: no**, asked before payment (spec §2.3)', drops('company', 'taxInfo')),
]);

// Phones: k = index * STEP + offset (mod PHONES) is a bijection of 0..PHONES-1 (STEP coprime to PHONES), read as area, exchange, line.
const PHONES = AREAS.length * EXCHANGES.length * 10_000;
const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
let STEP = 7_368_787;
while (gcd(STEP, PHONES) !== 1) STEP += 2;
/** Typed `string | null` so that the null-phone defect can set null. */
function phoneOf(index: number, seed: number, r: Rng): string | null {
  const k = ((index % PHONES) * STEP + (mix(seed, 0x70686f6e) % PHONES)) % PHONES;
  const [line, rest] = [pad(k % 10_000, 4), Math.floor(k / 10_000)];
  const [area, exchange] = [at(AREAS, Math.floor(rest / EXCHANGES.length)), at(EXCHANGES, rest % EXCHANGES.length)];
  return r() < 0.85 ? `${area}-${exchange}-${line}` : `${area}${exchange}${line}`;
}
function addressOf(r: Rng): Address {
  const [city = '', state = '', zip3 = ''] = pick(r, CITIES);
  const line1 = `${int(r, 1, 9899)} ${pick(r, STREETS)} ${pick(r, ['St', 'Ave', 'Rd'])}`;
  const postalcode = `${zip3}${pad(int(r, 1, 99), 2)}${r() < 0.1 ? `-${pad(int(r, 1, 9999), 4)}` : ''}`;
  return r() < 0.2 ? { line1, line2: `${pick(r, ['Suite', 'Unit', 'Floor'])} ${int(r, 2, 950)}`, city, state, postalcode } : { line1, city, state, postalcode };
}
function build(index: number, seed: number, now: Date, r: Rng) {
  const [first, last] = [pick(r, FIRST), pick(r, LAST)];
  const [code = '0', industry = '', noun = ''] = pick(r, INDUSTRIES);
  const businessType: string = r() < 0.6 ? 'llc' : 'corporation';
  const name = `${r() < 0.5 ? last : pick(r, BRANDS)} ${noun}`;
  const address = addressOf(r);
  const birth = Date.UTC(now.getUTCFullYear() - int(r, 25, 79), now.getUTCMonth(), now.getUTCDate()) - int(r, 1, 360) * DAY;
  const email = `${first}.${last}${index + 1}@${pick(r, ['example.com', 'example.net', 'example.org'])}`.toLowerCase();
  const [userId, orgId] = [pad(scramble((index + mix(seed, 1)) >>> 0), 10), pad(scramble((index + mix(seed, 2)) >>> 0).toString(36), 7)];
  const user = { id: `usr_${userId}`, email, firstName: first, lastName: last, phone: phoneOf(index, seed, r) };
  const taxInfo = { type: 'EIN', identifier: `${pick(r, EIN_PREFIXES)}-${pad(int(r, 1, 9_999_999), 7)}` };
  const legalAddress: Address = r() < 0.7 ? { ...address } : addressOf(r);
  const legalName = `${name} ${businessType === 'llc' ? 'LLC' : 'Inc.'}`;
  const company = { id: `org_${orgId}`, name, address, legalName, legalAddress, businessType, taxInfo };
  return { user: { ...user, dateOfBirth: iso(birth) }, company: { ...company, industry: { naicsCode: Number(code), name: industry } } };
}

/** Rank 0..999 in a block to its defect id: each defect takes `perThousand` consecutive ranks, the rest are clean. */
const CLEAN = 1000 - defects.reduce((sum, x) => sum + x.perThousand, 0);
if (CLEAN < 0 || MUTATE.size !== defects.length) throw new Error('population/generate: the defect table is inconsistent');
const RANK_OF: readonly string[] = [...defects.flatMap((x) => Array<string>(x.perThousand).fill(x.id)), ...Array<string>(CLEAN).fill('clean')];
type BlockCache = { seed: number; block: number; perm: Uint16Array };
const newCache = (): BlockCache => ({ seed: -1, block: -1, perm: new Uint16Array(1000) });
function defectIn(cache: BlockCache, index: number, seed: number): string {
  const [s, block, perm] = [seed >>> 0, Math.floor(index / 1000), cache.perm];
  if (cache.seed !== s || cache.block !== block) {
    const r = mulberry32(mix(mix(s, 0x626c6b), block));
    for (let i = 0; i < 1000; i++) perm[i] = i;
    for (let i = 999; i > 0; i--) swap(perm, i, Math.floor(r() * (i + 1)));
    [cache.seed, cache.block] = [s, block];
  }
  return at(RANK_OF, at(perm, index % 1000));
}
const shared = newCache();
/** The defect id of user i (0-based), or 'clean', without building the payload (O(1) per user after O(1000) set-up per block). */
export function defectOf(index: number, seed: number): string {
  return defectIn(shared, index, seed);
}

/** Account-information payloads, user 1..users, deterministic for (seed, now); one object per user, built lazily. */
export function* generatePopulation(options: { users: number; seed: number; now: Date }): Generator<Record<string, unknown>> {
  const [now, seed, cache] = [new Date(options.now.getTime()), options.seed, newCache()];
  if (Number.isNaN(now.getTime())) throw new RangeError('generatePopulation: "now" is an invalid date');
  for (let i = 0; i < options.users; i++) {
    const r = mulberry32(mix(mix(seed, 0x75736572), i));
    const payload = build(i, seed, now, r);
    MUTATE.get(defectIn(cache, i, seed))?.(payload, r, now);
    yield payload;
  }
}

type Outcomes = { outcomes: Record<OutcomeKey, number>; typedFields: Record<string, number> };
/** Exactly how many of `users` users meet each outcome, and the histogram of typed-field counts (typed-at-sign-on users only). */
export function expectedOutcomes(users: number, options: { seed: number; collectMissingAccountInfo: boolean }): Outcomes {
  const [n, typedFields]: [number, Record<string, number>] = [Math.max(0, Math.floor(users)), {}];
  const outcomes: Record<OutcomeKey, number> = { 'signs-in': 0, 'asked-before-payment': 0, 'typed-at-sign-on': 0, 'error-screen': 0 };
  const whole = Math.floor(n / 1000);
  const count = new Map<string, number>([['clean', CLEAN * whole], ...defects.map((x): [string, number] => [x.id, x.perThousand * whole])]);
  for (let i = whole * 1000, id = ''; i < n; i++) count.set((id = defectOf(i, options.seed)), (count.get(id) ?? 0) + 1);
  for (const [id, k] of count) {
    const x = defects.find((y) => y.id === id);
    const e = x ? (options.collectMissingAccountInfo ? x.expected.collectOn : x.expected.collectOff) : SIGN;
    outcomes[e.outcome] += k;
    if (e.typedFields !== undefined && k > 0) typedFields[e.typedFields] = (typedFields[e.typedFields] ?? 0) + k;
  }
  return { outcomes, typedFields };
}

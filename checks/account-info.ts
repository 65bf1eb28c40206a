import { differenceInYears } from 'date-fns';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { ClauseId } from './clauses';
import type { Level } from './finding';
import { type Field, type Marker, type PayloadRule } from './payload';
import { constraint, kind, presentAndTyped, lazyValidator, presence, rulesIn, spelling } from './payload-rules';
import { isPoBox } from './po-box';
import { einPrefixValid, itinGroupValid, naicsSectors, ssnAreaValid, usSubdivisions } from './reference-data';

/** The field rules of spec §2.3: every row of the account-information table and of the Address object. */

type Kind = Field['kind'];

const field = <K extends Kind>(path: string, marker: Marker, kind: K, extra: Partial<Field<K>> = {}): Field<K> => ({
  endpoint: 'account-info',
  path,
  marker,
  kind,
  clause: 'spec §2.3',
  row: { table: 'Account information', property: path },
  ...extra,
});

const nonEmpty = (subject: Field<'string'>) =>
  constraint(subject, 'non-empty', {
    requirement: `"${subject.path}" is a non-empty identifier`,
    schema: { minLength: 1 },
    problem: () => 'send the identifier that names it in your system',
  });

const length = (subject: Field<'string'>, min: number, max?: number) => {
  const range = max ? `${min} to ${max}` : `at least ${min}`;
  return constraint(subject, 'length', {
    requirement: `"${subject.path}" has ${range} characters`,
    schema: { minLength: min, ...(max ? { maxLength: max } : {}) },
    problem: ({ value }) => `${[...value].length} characters; send ${range}`,
  });
};

// ---- user ------------------------------------------------------------------------------------------

export const userField = field('user', 'Yes', 'object');
export const userIdField = field('user.id', 'Yes', 'string');
export const emailField = field('user.email', 'Yes', 'string');
export const firstNameField = field('user.firstName', 'Yes*', 'string');
export const lastNameField = field('user.lastName', 'Yes*', 'string');
export const phoneField = field('user.phone', 'Yes*', 'string');
export const dateOfBirthField = field('user.dateOfBirth', 'Yes*', 'string');

/** The spec's own pattern for names: letters, whitespace, "-", "," and "." – so "O'Brien" fails. */
const namePattern = '^[a-zA-Z\\s\\-,.]*$';
const nameRules = (subject: Field<'string'>) => ({
  ...presentAndTyped(subject),
  length: length(subject, 2, 100),
  pattern: constraint(subject, 'pattern', {
    requirement: `"${subject.path}" matches ${namePattern}`,
    schema: { pattern: namePattern },
    problem: ({ value }) => {
      const others = [...new Set(value.replace(/[a-zA-Z\s\-,.]/g, ''))].map((c) => JSON.stringify(c)).join(', ');
      return `the platform accepts only the letters a-z and A-Z, spaces, "-", "," and ".", not ${others}; send the name without them`;
    },
  }),
});

/** DESIGN §5: the spec's character set taken literally (a space fails), 9+ digits, a valid US number. */
const phoneCharacters = /^[0-9()+.-]*$/;
const nineDigits = /^(?:[^0-9]*[0-9]){9}/;
/** NANP regions that are the United States: the states and DC, and the territories with US state codes. */
const usPhoneRegions = new Set(['US', 'PR', 'GU', 'VI', 'AS', 'MP']);
/**
 * What is wrong with a phone number as a US number, if anything. libphonenumber-js compiles its
 * patterns on every call (about 10 µs), so verdicts are remembered per distinct number, boundedly.
 */
const phoneVerdicts = new Map<string, string | undefined>();
function usPhoneProblem(value: string): string | undefined {
  if (phoneVerdicts.has(value)) return phoneVerdicts.get(value);
  const number = parsePhoneNumberFromString(value, 'US');
  const verdict = !number?.isValid()
    ? 'not a valid US phone number; send a 10-digit US number with a real area code'
    : !usPhoneRegions.has(number.country ?? '')
      ? `a ${number.country ?? 'non-US'} number; the platform accepts only US numbers`
      : undefined;
  if (phoneVerdicts.size >= 10_000) phoneVerdicts.clear();
  phoneVerdicts.set(value, verdict);
  return verdict;
}

const phoneRules = (subject: Field<'string'>, level: Level) => ({
  type: kind(subject, level),
  characters: constraint(subject, 'characters', {
    level,
    requirement: `"${subject.path}" holds only digits and "-", "+", "(", ")", "."`,
    schema: { pattern: phoneCharacters.source },
    problem: ({ value }) => {
      const others = [...new Set(value.replace(/[0-9()+.-]/g, ''))].map((c) => JSON.stringify(c)).join(', ');
      return `it holds ${others}; send only digits and "-", "+", "(", ")", "." (e.g. "212-555-0142")`;
    },
  }),
  digits: constraint(subject, 'digits', {
    level,
    requirement: `"${subject.path}" has at least 9 digits`,
    schema: { pattern: nineDigits.source },
    problem: ({ value }) => `${value.replace(/\D/g, '').length} digits; send the full number with area code`,
  }),
  usNumber: constraint(subject, 'us-number', {
    level,
    requirement: `"${subject.path}" is a valid US phone number`,
    // Judged only once the characters and the digit count pass: those rules name the simpler fix.
    appliesTo: (value) => phoneCharacters.test(value) && nineDigits.test(value),
    problem: ({ value }) => usPhoneProblem(value),
  }),
});

const isoDate = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const calendarDate = { format: 'date' };
const isCalendarDate = lazyValidator(calendarDate);
/** The calendar date of `now` in UTC, as a local date, so date-fns compares calendar days. */
const runDate = (now: Date) => new Date(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());

/**
 * Age in whole years on the run date (UTC). Someone born on 29 February turns a year older on
 * 1 March in common years, as date-fns counts it.
 */
export function ageOn(dateOfBirth: string, now: Date): number | undefined {
  const match = isoDate.exec(dateOfBirth);
  if (!match) return undefined;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const born = new Date(year, month - 1, day);
  born.setFullYear(year); // years below 100 would otherwise map to 19xx
  return differenceInYears(runDate(now), born);
}

export const dateOfBirth = {
  ...presentAndTyped(dateOfBirthField),
  format: constraint(dateOfBirthField, 'format', {
    requirement: '"user.dateOfBirth" is written YYYY-MM-DD',
    schema: { pattern: isoDate.source },
    problem: () => 'send the date only, as YYYY-MM-DD (e.g. "1985-12-10")',
  }),
  calendarDate: constraint(dateOfBirthField, 'calendar-date', {
    requirement: '"user.dateOfBirth" is a real calendar date',
    appliesTo: (value) => isoDate.test(value),
    schema: calendarDate,
    problem: () => 'not a date of the calendar; send a real date',
  }),
  age: constraint(dateOfBirthField, 'age', {
    requirement: 'the user is 18 or older and younger than 120 on the run date',
    appliesTo: (value) => isoDate.test(value) && isCalendarDate(value),
    problem: ({ value, ctx }) => {
      const age = ageOn(value, ctx.now)!;
      if (age < 18) return `the user is ${age} on ${ctx.now.toISOString().slice(0, 10)}; the platform accepts only users aged 18 or older`;
      if (age >= 120) return `the user would be ${age}; the platform accepts only ages below 120, so check the year`;
      return undefined;
    },
  }),
};

export const user = presentAndTyped(userField);
export const userId = { ...presentAndTyped(userIdField), nonEmpty: nonEmpty(userIdField) };
export const email = {
  ...presentAndTyped(emailField),
  format: constraint(emailField, 'format', {
    requirement: '"user.email" is a valid e-mail address',
    schema: { format: 'email' },
    problem: () => 'not a valid e-mail address; send the address the user signs in with',
  }),
};
export const firstName = nameRules(firstNameField);
export const lastName = nameRules(lastNameField);
export const phone = { present: presence(phoneField), ...phoneRules(phoneField, 'MUST') };

// ---- company ---------------------------------------------------------------------------------------

export const companyField = field('company', 'Yes', 'object');
export const companyIdField = field('company.id', 'Yes', 'string');
export const companyNameField = field('company.name', 'Yes*', 'string');
export const legalNameField = field('company.legalName', 'no**', 'string');
export const businessTypeField = field('company.businessType', 'no**', 'string');
export const taxInfoField = field('company.taxInfo', 'no**', 'object');
export const taxTypeField = field('company.taxInfo.type', 'no**', 'string');
export const taxIdField = field('company.taxInfo.identifier', 'no**', 'string', { sensitive: true });
/** Not a row of its own: the object that holds the two industry rows. */
export const industryField = field('company.industry', 'no*', 'object', { row: undefined });
export const naicsCodeField = field('company.industry.naicsCode', 'no*', 'number');
export const industryNameField = field('company.industry.name', 'no*', 'string');
/** DESIGN §5: in the spec's sample but not its table; checked by the phone rules at SHOULD level. */
export const companyPhoneField = field('company.phoneNumber', 'no', 'string', { row: undefined });

export const businessTypes = ['partnership', 'sole-proprietorship', 'llc', 'corporation', 'trust', 'non-profit', 'municipality', 'ngo'] as const;
export const taxTypes = ['SSN', 'ITIN', 'EIN'] as const;
/** Spec §2.3: with an SSN or ITIN, businessType can only be one of these. */
const personalTaxBusinessTypes = ['trust', 'sole-proprietorship'];

const enumOf = (subject: Field<'string'>, values: readonly string[]) =>
  constraint(subject, 'enum', {
    requirement: `"${subject.path}" is one of ${values.join(', ')}`,
    schema: { enum: values },
    problem: () => `not an allowed value; send one of ${values.map((v) => `"${v}"`).join(', ')} (exact case)`,
  });

const taxIdDigits = /^-*(?:[0-9]-*){9,}$/;

export const taxId = {
  ...presentAndTyped(taxIdField),
  digits: constraint(taxIdField, 'digits', {
    requirement: '"company.taxInfo.identifier" has at least 9 digits, with only "-" besides',
    schema: { pattern: taxIdDigits.source },
    problem: ({ value }) =>
      /[^0-9-]/.test(value)
        ? 'it holds characters other than digits and "-"; send the digits, optionally with "-"'
        : `${value.replace(/-/g, '').length} digits; send the full identifier (9 digits)`,
  }),
  itinPrefix: constraint(taxIdField, 'itin-prefix', {
    requirement: 'an ITIN starts with the digit 9',
    schemaAt: 'company.taxInfo',
    schema: { if: { properties: { type: { const: 'ITIN' } }, required: ['type'] }, then: { properties: { identifier: { type: 'string', pattern: '^-*9' } } } },
    problem: ({ value }) => `an ITIN, but it starts with ${JSON.stringify(value.replace(/-/g, '')[0] ?? '')}; every ITIN starts with 9, so check the type and the number`,
  }),
  ssnArea: plausible('ssn-area', 'SSN', 'SSA SSN area numbers', 'an SSN never starts with 000, 666 or 900–999', ssnAreaValid),
  itinGroup: plausible('itin-group', 'ITIN', 'IRS ITIN format', 'an ITIN has 50–65, 70–88, 90–92 or 94–99 as its 4th and 5th digits', itinGroupValid),
  einPrefix: plausible('ein-prefix', 'EIN', 'IRS EIN prefixes', 'an EIN starts with a prefix the IRS assigns', einPrefixValid),
};

function plausible(name: string, type: string, clause: ClauseId, requirement: string, valid: (identifier: string) => boolean): PayloadRule {
  return constraint(taxIdField, name, {
    level: 'SHOULD',
    clause,
    requirement,
    impact: 'the payment provider\'s checks will likely reject the business later, when the user tries to pay',
    appliesTo: (value) => taxIdDigits.test(value),
    problem: ({ parent, value }) => (parent.type === type && !valid(value) ? `not a plausible ${type}: ${requirement}; check the number` : undefined),
  });
}

const taxTypeBusinessType = constraint(taxTypeField, 'business-type', {
  requirement: 'with an SSN or ITIN, "company.businessType" is trust or sole-proprietorship',
  appliesTo: (value) => value === 'SSN' || value === 'ITIN',
  schemaAt: 'company',
  schema: {
    if: { properties: { taxInfo: { type: 'object', properties: { type: { enum: ['SSN', 'ITIN'] } }, required: ['type'] } }, required: ['taxInfo'] },
    then: { properties: { businessType: { anyOf: [{ type: 'null' }, { type: 'string', enum: personalTaxBusinessTypes }] } } },
  },
  problem: ({ value, payload }) =>
    `with an ${value}, "company.businessType" must be "trust" or "sole-proprietorship", not ${JSON.stringify((payload.company as Record<string, unknown>).businessType)}; send the company's EIN or correct the business type`,
});

const naicsRanges = [
  [10, 99],
  [1000, 9999],
  [100000, 999999],
] as const;
const naicsCodeSchema = { type: 'integer', anyOf: naicsRanges.map(([minimum, maximum]) => ({ minimum, maximum })) };
const isNaicsCode = lazyValidator(naicsCodeSchema);

export const company = presentAndTyped(companyField);
export const companyId = { ...presentAndTyped(companyIdField), nonEmpty: nonEmpty(companyIdField) };
export const companyName = {
  ...presentAndTyped(companyNameField),
  length: length(companyNameField, 3),
  alphanumerics: constraint(companyNameField, 'alphanumerics', {
    requirement: '"company.name" has at least 2 letters or digits (a-z, A-Z, 0-9)',
    schema: { pattern: '(?:[^a-zA-Z0-9]*[a-zA-Z0-9]){2}' },
    problem: () => 'fewer than 2 letters or digits (a-z, A-Z, 0-9); send the business name',
  }),
};

// ---- Address object ---------------------------------------------------------------------------------

const addressField = <K extends Kind>(address: string, property: string, marker: Marker, kind: K, extra: Partial<Field<K>> = {}): Field<K> =>
  field(`company.${address}.${property}`, marker, kind, { clause: 'spec §2.3 Address', row: { table: 'Address object', property }, ...extra });

function addressRules(address: 'address' | 'legalAddress') {
  const line1 = addressField(address, 'line1', 'Yes*', 'string');
  const line2 = addressField(address, 'line2', 'no', 'string');
  const city = addressField(address, 'city', 'Yes*', 'string');
  const state = addressField(address, 'state', 'Yes*', 'string');
  const postalCode = addressField(address, 'postalcode', 'Yes*', 'string', { spellings: ['postalCode'] });
  return {
    ...presentAndTyped(field(`company.${address}`, 'Yes*', 'object')),
    line1: {
      ...presentAndTyped(line1),
      length: length(line1, 1),
      poBox: constraint(line1, 'po-box', {
        requirement: `"${line1.path}" is a street address, not a PO box`,
        problem: ({ value }) => (isPoBox(value) ? 'that is a PO box; the platform needs the street address of the business, so send it and keep the PO box out' : undefined),
      }),
      houseNumber: constraint(line1, 'house-number', {
        level: 'SHOULD',
        requirement: `"${line1.path}" includes the house number`,
        impact: 'the address may fail verification, and the user is asked to correct it',
        appliesTo: (value) => value.trim() !== '' && !isPoBox(value),
        problem: ({ value }) => (/[0-9]/.test(value) ? undefined : 'no house number; send the street with its number'),
      }),
    },
    line2: presentAndTyped(line2),
    city: { ...presentAndTyped(city), length: length(city, 1) },
    state: {
      ...presentAndTyped(state),
      code: constraint(state, 'code', {
        clause: 'ISO 3166-2:US',
        requirement: `"${state.path}" is an uppercase ISO 3166-2:US code without "US-"`,
        schema: { enum: usSubdivisions },
        problem: ({ value }) => {
          const hint = usSubdivisions.find((code) => code === value.replace(/^US-/i, '').toUpperCase());
          return hint ? `send "${hint}"` : 'not a US state or territory code; send the two uppercase letters, e.g. "IL"';
        },
      }),
    },
    postalcode: {
      ...presentAndTyped(postalCode),
      spelling: spelling(postalCode),
      length: length(postalCode, 5),
      pattern: constraint(postalCode, 'pattern', {
        requirement: `"${postalCode.path}" holds only digits, "-" and spaces`,
        schema: { pattern: '^[0-9\\-\\s]*$' },
        problem: () => 'send the ZIP code with digits, "-" and spaces only (e.g. "62701" or "62701-1234")',
      }),
    },
  };
}

export const address = addressRules('address');
export const legalAddress = addressRules('legalAddress');
export const legalName = presentAndTyped(legalNameField);
export const businessType = { ...presentAndTyped(businessTypeField), enum: enumOf(businessTypeField, businessTypes) };
export const taxInfo = presentAndTyped(taxInfoField);
export const taxType = { ...presentAndTyped(taxTypeField), enum: enumOf(taxTypeField, taxTypes), businessType: taxTypeBusinessType };
export const industry = presentAndTyped(industryField);
export const naicsCode = {
  ...presentAndTyped(naicsCodeField),
  code: constraint(naicsCodeField, 'code', {
    requirement: '"company.industry.naicsCode" is a 2, 4 or 6 digit integer from 10 to 999999',
    schema: naicsCodeSchema,
    problem: ({ value }) =>
      Number.isInteger(value) ? `${String(value).length} digits; send a 2, 4 or 6 digit NAICS code (e.g. 54 or 541511)` : 'not a whole number; send a 2, 4 or 6 digit NAICS code',
  }),
  sector: constraint(naicsCodeField, 'sector', {
    level: 'SHOULD',
    clause: 'NAICS sectors',
    requirement: '"company.industry.naicsCode" starts with a NAICS sector',
    impact: 'the user is shown a wrong or empty industry and may be asked to pick one',
    appliesTo: isNaicsCode,
    problem: ({ value }) => (naicsSectors.includes(String(value).slice(0, 2) as (typeof naicsSectors)[number]) ? undefined : `${String(value).slice(0, 2)} is not a NAICS sector; check the code`),
  }),
};
export const industryName = presentAndTyped(industryNameField);
export const companyPhone = phoneRules(companyPhoneField, 'SHOULD');

/** Every account-information field rule, in the order of the spec's table. */
export const accountInfoFieldRules: readonly PayloadRule[] = rulesIn([
  user, userId, email, firstName, lastName, phone, dateOfBirth,
  company, companyId, companyName, address, legalName, legalAddress, businessType, taxInfo, taxType, taxId,
  industry, naicsCode, industryName, companyPhone,
]);

import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Level } from './finding';
import { type Field } from './payload';
import { constraint } from './payload-constraint';
import { kind, presentAndTyped, lazyValidator, presence } from './payload-rules';
import { field, length, nonEmpty } from './account-info-fields';
import { remembered } from './remembered';
import { ours, told, type Told } from './told';

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
      return told`the platform accepts only the letters a-z and A-Z, spaces, "-", "," and ".", not ${others}; send the name without them`;
    },
  }),
});

/** DESIGN §5: the spec's character set taken literally (a space fails), 9+ digits, a valid US number. */
const phoneCharacters = /^[0-9()+.-]*$/;
const nineDigits = /^(?:[^0-9]*[0-9]){9}/;
/** NANP regions that are the United States: the states and DC, and the territories with US state codes. */
const usPhoneRegions = new Set(['US', 'PR', 'GU', 'VI', 'AS', 'MP']);
/** What is wrong with a phone number as a US number, if anything, as libphonenumber-js says: about 8 µs a number. */
export function usPhoneVerdict(value: string): Told | undefined {
  const number = parsePhoneNumberFromString(value, 'US');
  return !number?.isValid()
    ? told`not a valid US phone number; send a 10-digit US number with a real area code (docs/REFERENCE-LISTS.md lists them)`
    : !usPhoneRegions.has(number.country ?? '')
      ? told`a ${number.country ?? 'non-US'} number; the platform accepts only US numbers`
      : undefined;
}

/**
 * The verdict is remembered, boundedly, per number, and a NANP number written as ten digits (alone, after "1" or
 * "+1") per its first 6: every pattern of libphonenumber's NANP metadata constrains at most the first 6 digits and
 * takes any last 4, so such numbers share their verdict. Checked on all 800,000 prefixes with two endings each (0
 * differences); test/unit/account-info-rules.spec.ts compares the two on random numbers. A population of distinct
 * numbers then costs a parse per area code and exchange, not one per user.
 */
const phoneVerdicts = new Map<string | number, Told | undefined>();
const nanpTenDigits = /^(\+?1)?([2-9]\d{5})\d{4}$/;
const nanpForms = ['', '1', '+1'];
export function usPhoneProblem(value: string): Told | undefined {
  const nanp = nanpTenDigits.exec(value);
  // A NANP number's key is a number (its first 6 digits and its form), any other's the text: the two never meet.
  const key = nanp ? Number(nanp[2]) * nanpForms.length + nanpForms.indexOf(nanp[1] ?? '') : value;
  return remembered(phoneVerdicts, 100_000, key, () => usPhoneVerdict(value));
}

export const phoneRules = (subject: Field<'string'>, level: Level) => ({
  type: kind(subject, level),
  characters: constraint(subject, 'characters', {
    level,
    requirement: `"${subject.path}" holds only digits and "-", "+", "(", ")", "."`,
    schema: { pattern: phoneCharacters.source },
    problem: ({ value }) => {
      const others = [...new Set(value.replace(/[0-9()+.-]/g, ''))].map((c) => JSON.stringify(c)).join(', ');
      return told`it holds ${others}; send only digits and "-", "+", "(", ")", "." (e.g. "212-555-0142")`;
    },
  }),
  digits: constraint(subject, 'digits', {
    level,
    requirement: `"${subject.path}" has at least 9 digits`,
    schema: { pattern: nineDigits.source },
    problem: ({ value }) => told`${value.replace(/\D/g, '').length} digits; send the full number with area code`,
  }),
  usNumber: constraint(subject, 'us-number', {
    level,
    requirement: `"${subject.path}" is a valid US phone number`,
    // The digits are judged whatever else the value holds (a space is the characters rule's to name), so a
    // number that is no US number is said in the same run; with fewer than 9 digits, the digits rule names the fix.
    appliesTo: (value) => nineDigits.test(value),
    notJudged: `"${subject.path}" has fewer than 9 digits, which its digits rule names; a number is judged once it has them`,
    problem: ({ value }) => usPhoneProblem(value.replace(/[^\d+]/g, '')),
  }),
});

const isoDate = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const calendarDate = { format: 'date' };
const isCalendarDate = lazyValidator(calendarDate);
/**
 * Age in whole years on the run date (UTC). Someone born on 29 February turns a year older on
 * 1 March in common years. Counted on calendar days alone, never in the machine's time zone: where a clock skips
 * midnight (São Paulo, on its day of summer time), a local date would make someone a year younger on their birthday.
 */
export function ageOn(dateOfBirth: string, now: Date): number | undefined {
  // Remembered per run date, then per date of birth, boundedly: a population has far fewer birthdays than users.
  const agesOn = remembered(ages, 10, Math.floor(now.getTime() / 86_400_000), () => new Map<string, number | undefined>());
  return remembered(agesOn, 100_000, dateOfBirth, () => computedAge(dateOfBirth, now));
}
const ages = new Map<number, Map<string, number | undefined>>();

function computedAge(dateOfBirth: string, now: Date): number | undefined {
  const match = isoDate.exec(dateOfBirth);
  if (!match) return undefined;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const [thisMonth, today] = [now.getUTCMonth() + 1, now.getUTCDate()];
  return now.getUTCFullYear() - year - (thisMonth < month || (thisMonth === month && today < day) ? 1 : 0);
}

export const dateOfBirth = {
  ...presentAndTyped(dateOfBirthField),
  format: constraint(dateOfBirthField, 'format', {
    requirement: '"user.dateOfBirth" is written YYYY-MM-DD',
    schema: { pattern: isoDate.source },
    problem: () => told`send the date only, as YYYY-MM-DD (e.g. "1985-12-10")`,
  }),
  calendarDate: constraint(dateOfBirthField, 'calendar-date', {
    requirement: '"user.dateOfBirth" is a real calendar date',
    appliesTo: (value) => isoDate.test(value),
    schema: calendarDate,
    problem: () => told`not a date of the calendar; send a real date`,
  }),
  age: constraint(dateOfBirthField, 'age', {
    requirement: 'the user is 18 or older and younger than 120 on the run date',
    appliesTo: (value) => isoDate.test(value) && isCalendarDate(value),
    problem: ({ value, ctx }) => {
      const age = ageOn(value, ctx.now)!;
      if (age < 18) return told`the user is ${age} on ${ours(ctx.now.toISOString().slice(0, 10))}; the platform accepts only users aged 18 or older`;
      if (age >= 120) return told`the user would be ${age}; the platform accepts only ages below 120, so check the year`;
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
    problem: () => told`not a valid e-mail address; send the address the user signs in with`,
  }),
};
export const firstName = nameRules(firstNameField);
export const lastName = nameRules(lastNameField);
export const phone = { present: presence(phoneField), ...phoneRules(phoneField, 'MUST') };

import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { subYears } from 'date-fns/subYears';
import { sampleCompany, sampleUser } from '../../checks/sample-account-info';

/**
 * The reference partner's test users. Every one is conformant: the harness must raise no failure for
 * any of them. Log in as any of them with the sandbox password, or mint a code with `?user=<name>`.
 * Birthdays are computed from the run date (UTC), so the age boundaries are exact on any day.
 */

export interface UserData {
  accountInfo: Record<string, unknown>;
  fundingSources: Record<string, unknown>[];
}

const complete = {
  accountInfo: { user: { ...sampleUser, id: 'u-1001' }, company: { ...sampleCompany, id: 'c-2001' } },
  fundingSources: [
    {
      id: 'fs-3001',
      type: 'ach',
      nickname: 'Operating account',
      bankAccountNumber: '000123456789',
      bankRoutingNumber: '011000015',
      accountNumberLast4Digits: '6789',
    },
    {
      id: 'fs-3002',
      type: 'ach',
      nickName: 'Payroll',
      bankAccountNumber: '000987654321',
      bankRoutingNumber: '021000021',
    },
  ],
} satisfies UserData;

type Json = Record<string, unknown>;
/** The complete user with some of its fields replaced. */
const completeWith = (edit: (data: { accountInfo: { user: Json; company: Json }; fundingSources: Json[] }) => void): UserData => {
  const data = structuredClone(complete);
  edit(data);
  return data;
};

/** The run date in UTC as a local calendar date, shifted by years and days, written YYYY-MM-DD. */
function birthday(now: Date, years: number, days = 0): string {
  return format(addDays(subYears(new Date(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()), years), days), 'yyyy-MM-dd');
}

export const users = {
  /** Every field of spec §2.3 and §2.4, all valid, with both spellings of the nickname. */
  complete: { description: 'every field, all valid', data: () => complete },
  /** Only the always-required fields (spec §2.3 "Yes"); certify it with collectMissingAccountInfo on. */
  minimal: {
    incomplete: true,
    description: 'only the always-required fields, for a profile with collectMissingAccountInfo',
    data: () => ({ accountInfo: { user: { id: 'u-1002', email: 'grace.hopper@example.com' }, company: { id: 'c-2002' } }, fundingSources: [] }),
  },
  /** Without user.email, which even CollectMissingAccountInfo does not ask for: sign-on always fails (spec §7.2). */
  'no-email': {
    incomplete: true,
    description: 'no user.email: the platform shows its error screen, whatever its configuration',
    data: () => completeWith(({ accountInfo: { user } }) => void delete user.email),
  },
  'turns-18-today': {
    description: 'the 18th birthday is the run date',
    data: (now: Date) => completeWith(({ accountInfo }) => void (accountInfo.user.dateOfBirth = birthday(now, 18))),
  },
  'aged-119': {
    description: '119 years and 364 days old: the 120th birthday is tomorrow',
    data: (now: Date) => completeWith(({ accountInfo }) => void (accountInfo.user.dateOfBirth = birthday(now, 120, 1))),
  },
  'itin-sole-proprietor': {
    description: 'an ITIN with a sole-proprietorship',
    data: () =>
      completeWith(({ accountInfo: { company } }) => {
        company.businessType = 'sole-proprietorship';
        company.taxInfo = { type: 'ITIN', identifier: '912-70-1234' };
      }),
  },
  'postalcode-spelling': {
    description: 'the postal code spelled "postalcode", as in the spec\'s table',
    data: () =>
      completeWith(({ accountInfo: { company } }) => {
        for (const key of ['address', 'legalAddress']) {
          const { postalCode, ...rest } = company[key] as Json;
          company[key] = { ...rest, postalcode: postalCode };
        }
      }),
  },
  'naics-2-digit': {
    description: 'a 2-digit NAICS sector code',
    data: () =>
      completeWith(({ accountInfo: { company } }) => void (company.industry = { naicsCode: 54, name: 'Professional, Scientific, and Technical Services' })),
  },
  'no-funding-sources': { description: 'an empty funding-source list', data: () => completeWith((data) => void (data.fundingSources = [])) },
  'puerto-rico': {
    description: 'a business in Puerto Rico: territory code and a 787 phone number',
    data: () =>
      completeWith(({ accountInfo: { user, company } }) => {
        user.phone = '787-555-0101';
        company.address = { line1: '250 Calle del Cristo', city: 'San Juan', state: 'PR', postalCode: '00901' };
        company.legalAddress = company.address;
      }),
  },
  'punctuated-names': {
    description: "names with hyphens, commas, periods and spaces, which the spec's pattern allows",
    data: () =>
      completeWith(({ accountInfo: { user } }) => {
        user.firstName = 'Mary-Jane';
        user.lastName = 'St. John, Jr.';
      }),
  },
} as const satisfies Record<string, { description: string; incomplete?: true; data: (now: Date) => UserData }>;

export type UserKey = keyof typeof users;
export const isUserKey = (name: string): name is UserKey => Object.hasOwn(users, name);
export const userKeys = Object.keys(users) as UserKey[];
/** The users whose account information passes every rule. */
export const completeUserKeys = userKeys.filter((user) => !('incomplete' in users[user]));

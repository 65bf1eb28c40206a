/** The reference partner's test users. Log in as `complete` or `minimal` with the sandbox password. */
export const users = {
  /** Every field of spec §2.3, all valid. */
  complete: {
    accountInfo: {
      user: {
        id: 'u-1001',
        email: 'ada.lovelace@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        phone: '212-555-0142',
        dateOfBirth: '1985-12-10',
      },
      company: {
        id: 'c-2001',
        name: 'Analytical Engines LLC',
        address: { line1: '12 Main Street', line2: 'Suite 400', city: 'Springfield', state: 'IL', postalCode: '62701' },
        legalName: 'Analytical Engines LLC',
        legalAddress: { line1: '12 Main Street', city: 'Springfield', state: 'IL', postalCode: '62701' },
        businessType: 'llc',
        taxInfo: { type: 'EIN', identifier: '12-3456789' },
        industry: { naicsCode: 541511, name: 'Custom Computer Programming Services' },
      },
    },
    fundingSources: [
      {
        id: 'fs-3001',
        type: 'ach',
        nickname: 'Operating account',
        bankAccountNumber: '000123456789',
        bankRoutingNumber: '011000015',
        accountNumberLast4Digits: '6789',
      },
    ],
  },
  /** Only the always-required fields (spec §2.3 "Yes"). */
  minimal: {
    accountInfo: { user: { id: 'u-1002', email: 'grace.hopper@example.com' }, company: { id: 'c-2002' } },
    fundingSources: [],
  },
} as const;

export type UserKey = keyof typeof users;
export const isUserKey = (name: string): name is UserKey => Object.hasOwn(users, name);

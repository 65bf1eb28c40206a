import type { Payload } from './payload';

/**
 * Account information of a user of no partner's, valid by every rule of spec §2.3 on any run date: what the
 * platform's own checks (the mock link, its screens, its refusals) sign on with. So they judge the
 * platform alone, the same for every partner on it: a partner's data is judged by the partner's rules, and
 * a defect in it is one failure of the partner's, never a platform check failing with it. The reference
 * partner's complete user is this one, under ids of its own.
 */
export const sampleUser = {
  id: 'certify-user-1',
  email: 'ada.lovelace@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '212-555-0142',
  dateOfBirth: '1985-12-10',
};
export const sampleCompany = {
  id: 'certify-company-1',
  name: 'Analytical Engines LLC',
  address: { line1: '12 Main Street', line2: 'Suite 400', city: 'Springfield', state: 'IL', postalCode: '62701' },
  legalName: 'Analytical Engines LLC',
  legalAddress: { line1: '12 Main Street', city: 'Springfield', state: 'IL', postalCode: '62701' },
  businessType: 'llc',
  taxInfo: { type: 'EIN', identifier: '12-3456789' },
  industry: { naicsCode: 541511, name: 'Custom Computer Programming Services' },
};
export const sampleAccountInfo: Payload = { user: sampleUser, company: sampleCompany };

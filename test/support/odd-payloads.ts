import fc from 'fast-check';
import type { Payload } from '../../checks/payload';
import { users } from '../../sandbox/reference-partner/users';

/** fast-check payloads that rules find much wrong with: the complete user with up to 4 fields odd or gone, and funding answers. */

const paths = [
  'user',
  'user.id',
  'user.email',
  'user.firstName',
  'user.lastName',
  'user.phone',
  'user.dateOfBirth',
  'company',
  'company.id',
  'company.name',
  'company.address',
  'company.address.line1',
  'company.address.state',
  'company.address.postalCode',
  'company.legalAddress.city',
  'company.legalName',
  'company.businessType',
  'company.taxInfo',
  'company.taxInfo.type',
  'company.taxInfo.identifier',
  'company.industry.naicsCode',
  'company.phoneNumber',
];
const oddValue = fc.oneof(
  fc.constantFrom<unknown>(
    undefined,
    null,
    '',
    "O'Brien",
    'José',
    'PO Box 12',
    '212 555 0142',
    '2008-11-28',
    '1906-11-27',
    'XX',
    'ITIN',
    'llc',
    '9123',
    12,
    5,
    1234567,
  ),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.constant({}),
);

/** Account information: the complete user with up to 4 paths set to an odd value, or removed (undefined). */
export const oddAccountInfo = fc.array(fc.tuple(fc.constantFrom(...paths), oddValue), { maxLength: 4 }).map((edits) => {
  const payload = structuredClone(users.complete.data().accountInfo) as Payload;
  for (const [path, value] of edits) {
    const steps = path.split('.');
    const last = steps.pop()!;
    let node: Record<string, unknown> = payload;
    for (const step of steps) {
      if (typeof node[step] !== 'object' || node[step] === null) node[step] = {};
      node = node[step] as Record<string, unknown>;
    }
    if (value === undefined) delete node[last];
    else node[last] = value;
  }
  return payload;
});

const source = fc.record(
  {
    id: fc.oneof(fc.constantFrom('fs-1', 'fs-2', ''), fc.integer()),
    type: fc.constantFrom<unknown>('ach', 'card', null),
    nickname: fc.string({ maxLength: 45 }),
    nickName: fc.constantFrom('Payroll', 'x'),
    bankAccountNumber: fc.constantFrom<unknown>('000123456789', '', 42),
    bankRoutingNumber: fc.constantFrom<unknown>('011000015', '123456789', 'abc'),
    accountNumberLast4Digits: fc.constantFrom<unknown>('6789', '12', 6789),
  },
  { requiredKeys: [] },
);

/** Funding-sources answers: up to 4 sources of odd parts (or not objects), none, or no list. */
export const oddFundingAnswer = fc.oneof(
  fc.record({ fundingSources: fc.array(fc.oneof(source, fc.constant<unknown>('text')), { maxLength: 4 }) }),
  fc.constant({}),
  fc.constant({ fundingSources: 'none' }),
) as fc.Arbitrary<Payload>;

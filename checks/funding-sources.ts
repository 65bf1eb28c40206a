import { type Field, type Marker, type PayloadRule } from './payload';
import { constraint } from './payload-constraint';
import { presentAndTyped, rulesIn, spelling } from './payload-rules';
import { isObject } from './evidence';
import { listed } from './finding';
import { abaChecksumValid } from './reference-data';
import { told } from './told';

/** The field rules of spec §2.4 and the decisions of DESIGN §5 "Funding sources". */

type Kind = Field['kind'];

const field = <K extends Kind>(property: string, marker: Marker, kind: K, extra: Partial<Field<K>> = {}): Field<K> => ({
  endpoint: 'funding-sources',
  path: property === 'fundingSources' ? property : `fundingSources[].${property}`,
  marker,
  kind,
  clause: 'spec §2.4',
  row: { table: 'Funding source', property },
  ...extra,
});

export const fundingSourcesField = field('fundingSources', 'Yes', 'array');
export const idField = field('id', 'Yes', 'string');
export const typeField = field('type', 'Yes', 'string');
export const nicknameField = field('nickname', 'no', 'string', { spellings: ['nickName'] });
export const accountNumberField = field('bankAccountNumber', 'Yes', 'string', { sensitive: true });
export const routingNumberField = field('bankRoutingNumber', 'Yes', 'string');
export const last4Field = field('accountNumberLast4Digits', 'no', 'string');

/** The `id` of every listed funding source, in order (undefined where an entry has none). */
export const fundingSourceIds = (payload: Record<string, unknown>): unknown[] =>
  (Array.isArray(payload.fundingSources) ? (payload.fundingSources as unknown[]) : []).map((item) => (isObject(item) ? item.id : undefined));

const idCounts = new WeakMap<Record<string, unknown>, Map<unknown, number>>();
/** How many sources carry each id, counted once per payload: the unique rule asks for every source. */
function sourcesWithId(payload: Record<string, unknown>, id: unknown): number {
  let counts = idCounts.get(payload);
  if (!counts) {
    counts = new Map();
    for (const each of fundingSourceIds(payload)) counts.set(each, (counts.get(each) ?? 0) + 1);
    idCounts.set(payload, counts);
  }
  return counts.get(id) ?? 0;
}

export const fundingSources = {
  ...presentAndTyped(fundingSourcesField),
  items: constraint(fundingSourcesField, 'items', {
    requirement: 'every entry of "fundingSources" is a funding-source object',
    schema: { items: { type: 'object' } },
    problem: ({ value }) => {
      const wrong = value.map((item, index) => [item, index] as const).filter(([item]) => !isObject(item));
      return told`entries ${listed(wrong.map(([, index]) => String(index)))} are not objects; send each source as {"id": …, "type": "ach", …}`;
    },
  }),
};

export const id = {
  ...presentAndTyped(idField),
  nonEmpty: constraint(idField, 'non-empty', {
    requirement: '"id" is a non-empty identifier',
    schema: { minLength: 1 },
    problem: () => told`send the identifier that names the source in your system`,
  }),
  unique: constraint(idField, 'unique', {
    requirement: 'every funding source has its own "id"',
    impact: 'the platform keeps one of the sources with a shared id and drops the others',
    problem: ({ value, payload }) => {
      const count = sourcesWithId(payload, value);
      return count > 1 ? told`shared by ${count} funding sources; give each source its own id` : undefined;
    },
  }),
};

export const type = {
  ...presentAndTyped(typeField),
  enum: constraint(typeField, 'enum', {
    requirement: '"type" is "ach"',
    schema: { enum: ['ach'] },
    problem: () => told`not an allowed type; send "ach" (lower case)`,
  }),
};

export const nickname = {
  ...presentAndTyped(nicknameField),
  spelling: spelling(nicknameField),
  length: constraint(nicknameField, 'length', {
    requirement: '"nickname" has 2 to 40 characters',
    schema: { minLength: 2, maxLength: 40 },
    problem: ({ value }) => told`${[...value].length} characters; send 2 to 40, or leave it out`,
  }),
};

export const accountNumber = {
  ...presentAndTyped(accountNumberField),
  nonEmpty: constraint(accountNumberField, 'non-empty', {
    requirement: '"bankAccountNumber" is not empty',
    schema: { minLength: 1 },
    problem: () => told`empty; send the account number`,
  }),
  fullNumber: constraint(accountNumberField, 'full-number', {
    level: 'SHOULD',
    requirement: '"bankAccountNumber" is the whole account number, not masked or cut to its last digits',
    impact: 'payments from this source fail: the bank has no account by a masked or shortened number',
    problem: ({ value }) => {
      const shortened = accountNumberShortened(value);
      if (shortened === 'masked')
        return told`masked; send the whole account number the platform pays from, and its last 4 digits in "accountNumberLast4Digits"`;
      if (shortened === 'cut') return told`4 characters or fewer, as if only the last digits were sent; send the whole account number`;
      return undefined;
    },
  }),
};

/**
 * Spec §2.4 asks for the "Bank account number" and derives the last 4 from it, so a partner that stores only a masked
 * copy (`****6789`, `XXXX6789`, `•••• 6789`) or the last digits sends something no payment can use. Told by shape
 * (DESIGN §5), hence SHOULD: NACHA allows letters in an account number, so two or more X in a row count, one does not.
 */
export function accountNumberShortened(value: string): 'masked' | 'cut' | undefined {
  if (/[*•●·…]|[Xx#.]{2,}/u.test(value)) return 'masked';
  return value.length > 0 && value.length <= 4 ? 'cut' : undefined;
}

export const routingNumber = {
  ...presentAndTyped(routingNumberField),
  aba: constraint(routingNumberField, 'aba', {
    level: 'SHOULD',
    clause: 'ABA routing number',
    requirement: '"bankRoutingNumber" is 9 digits with a valid ABA checksum',
    impact: 'payments from this source will be returned by the bank',
    problem: ({ value }) =>
      abaChecksumValid(value)
        ? undefined
        : /^[0-9]{9}$/.test(value)
          ? told`not a routing number: its ABA checksum fails; check the digits`
          : told`not 9 digits; send the 9-digit ABA routing number`,
  }),
};

export const last4 = {
  ...presentAndTyped(last4Field),
  digits: constraint(last4Field, 'digits', {
    requirement: '"accountNumberLast4Digits" is exactly 4 digits',
    schema: { pattern: '^[0-9]{4}$' },
    problem: () => told`send exactly 4 digits, or leave it out and the platform takes them from "bankAccountNumber"`,
  }),
  matchesAccount: constraint(last4Field, 'matches-account', {
    level: 'INFO',
    requirement: '"accountNumberLast4Digits" matches the end of "bankAccountNumber"',
    impact: 'none when the bank issues virtual account numbers; the user sees these 4 digits',
    appliesTo: (value) => /^[0-9]{4}$/.test(value),
    problem: ({ value, parent }) =>
      typeof parent.bankAccountNumber === 'string' && !parent.bankAccountNumber.endsWith(value)
        ? told`not the end of "bankAccountNumber"; that is expected only for a virtual account number`
        : undefined,
  }),
};

/** Every funding-source field rule, in the order of the spec's table. */
export const fundingSourceRules: readonly PayloadRule[] = rulesIn([fundingSources, id, type, nickname, accountNumber, routingNumber, last4]);

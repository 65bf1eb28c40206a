import type { ClauseId } from './clauses';
import { jsonTextOf, type Field, type PayloadRule } from './payload';
import { constraint } from './payload-constraint';
import { presentAndTyped, lazyValidator } from './payload-rules';
import { einPrefixValid, itinGroupValid, naicsSectors, ssnAreaValid } from './reference-data';
import { field, length, nonEmpty } from './account-info-fields';
import { phoneRules } from './account-info-user';
import { ours, told } from './told';

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

export const enumOf = (subject: Field<'string'>, values: readonly string[]) =>
  constraint(subject, 'enum', {
    requirement: `"${subject.path}" is one of ${values.join(', ')}`,
    schema: { enum: values },
    problem: () => told`not an allowed value; send one of ${ours(values.map((v) => `"${v}"`).join(', '))} (exact case)`,
  });

const taxIdDigits = /^-*(?:[0-9]-*){9,}$/;

export const taxId = {
  ...presentAndTyped(taxIdField),
  digits: constraint(taxIdField, 'digits', {
    requirement: '"company.taxInfo.identifier" has at least 9 digits, with only "-" besides',
    schema: { pattern: taxIdDigits.source },
    problem: ({ value }) =>
      /[^0-9-]/.test(value)
        ? told`it holds characters other than digits and "-"; send the digits, optionally with "-"`
        : told`${value.replace(/-/g, '').length} digits; send the full identifier (9 digits)`,
  }),
  itinPrefix: constraint(taxIdField, 'itin-prefix', {
    requirement: 'an ITIN starts with the digit 9',
    schemaAt: 'company.taxInfo',
    schema: { if: { properties: { type: { const: 'ITIN' } }, required: ['type'] }, then: { properties: { identifier: { type: 'string', pattern: '^-*9' } } } },
    problem: ({ value }) =>
      told`an ITIN, but it starts with ${JSON.stringify(value.replace(/-/g, '')[0] ?? '')}; every ITIN starts with 9, so check the type and the number`,
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
    impact: "the payment provider's checks will likely reject the business later, when the user tries to pay",
    appliesTo: (value) => taxIdDigits.test(value),
    problem: ({ parent, value }) =>
      parent.type === type && !valid(value) ? told`not a plausible ${ours(type)}: ${ours(requirement)}; check the number (docs/REFERENCE-LISTS.md)` : undefined,
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
    // The tax type is SSN or ITIN (appliesTo): the harness's word, not the user's.
    told`with an ${ours(value)}, "company.businessType" must be "trust" or "sole-proprietorship", not ${jsonTextOf((payload.company as Record<string, unknown>).businessType)}; send the company's EIN or correct the business type`,
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
    // Anchored: unanchored, a value without letters or digits is searched again from every position (quadratic).
    schema: { pattern: '^(?:[^a-zA-Z0-9]*[a-zA-Z0-9]){2}' },
    problem: () => told`fewer than 2 letters or digits (a-z, A-Z, 0-9); send the business name`,
  }),
};

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
      Number.isInteger(value)
        ? told`${String(value).length} digits; send a 2, 4 or 6 digit NAICS code (e.g. 54 or 541511)`
        : told`not a whole number; send a 2, 4 or 6 digit NAICS code`,
  }),
  sector: constraint(naicsCodeField, 'sector', {
    level: 'SHOULD',
    clause: 'NAICS sectors',
    requirement: '"company.industry.naicsCode" starts with a NAICS sector',
    impact: 'the user is shown a wrong or empty industry and may be asked to pick one',
    appliesTo: isNaicsCode,
    problem: ({ value }) =>
      naicsSectors.includes(String(value).slice(0, 2) as (typeof naicsSectors)[number])
        ? undefined
        : told`${String(value).slice(0, 2)} is not a NAICS sector; check the code (docs/REFERENCE-LISTS.md lists them)`,
  }),
};
export const industryName = presentAndTyped(industryNameField);
export const companyPhone = phoneRules(companyPhoneField, 'SHOULD');

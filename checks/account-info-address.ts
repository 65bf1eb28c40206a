import { type Field, type Marker } from './payload';
import { constraint } from './payload-constraint';
import { presentAndTyped, spelling } from './payload-rules';
import { isPoBox } from './po-box';
import { usSubdivisions } from './reference-data';
import { field, length, type Kind } from './account-info-fields';
import { told } from './told';

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
        problem: ({ value }) =>
          isPoBox(value) ? told`that is a PO box; the platform needs the street address of the business, so send it and keep the PO box out` : undefined,
      }),
      houseNumber: constraint(line1, 'house-number', {
        level: 'SHOULD',
        requirement: `"${line1.path}" includes the house number`,
        impact: 'the address may fail verification, and the user is asked to correct it',
        appliesTo: (value) => value.trim() !== '' && !isPoBox(value),
        problem: ({ value }) => (/[0-9]/.test(value) ? undefined : told`no house number; send the street with its number`),
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
          // The code it would be, upper-cased or without "US-", is the user's state: said, so the population check shows its shape.
          return hint
            ? told`not the uppercase code without "US-"; send ${JSON.stringify(hint)}`
            : told`not a US state or territory code; send the two uppercase letters, e.g. "IL" (docs/REFERENCE-LISTS.md lists them)`;
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
        problem: () => told`send the ZIP code with digits, "-" and spaces only (e.g. "62701" or "62701-1234")`,
      }),
    },
  };
}

export const address = addressRules('address');
export const legalAddress = addressRules('legalAddress');

import { type Field, type Marker } from './payload';
import { constraint } from './payload-constraint';
import { ours, told } from './told';

/** What the field rules of spec §2.3 are built from: a row of the account-information table, and the common constraints. */

export type Kind = Field['kind'];

export const field = <K extends Kind>(path: string, marker: Marker, kind: K, extra: Partial<Field<K>> = {}): Field<K> => ({
  endpoint: 'account-info',
  path,
  marker,
  kind,
  clause: 'spec §2.3',
  row: { table: 'Account information', property: path },
  ...extra,
});

export const nonEmpty = (subject: Field<'string'>) =>
  constraint(subject, 'non-empty', {
    requirement: `"${subject.path}" is a non-empty identifier`,
    schema: { minLength: 1 },
    problem: () => told`send the identifier that names it in your system`,
  });

export const length = (subject: Field<'string'>, min: number, max?: number) => {
  const range = max ? `${min} to ${max}` : `at least ${min}`;
  return constraint(subject, 'length', {
    requirement: `"${subject.path}" has ${range} characters`,
    schema: { minLength: min, ...(max ? { maxLength: max } : {}) },
    problem: ({ value }) => told`${[...value].length} characters; send ${ours(range)}`,
  });
};

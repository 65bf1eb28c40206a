import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { jsonType } from './evidence';
import type { Issue, Level, MustGrounds } from './finding';
import {
  jsonTextOf,
  specSpelled,
  idPath,
  fieldRule,
  lastSegment,
  locator,
  noIssues,
  markerLegend,
  present,
  shown,
  type Endpoint,
  type Field,
  type JsonSchema,
  type Kind,
  type Located,
  type PayloadContext,
  type PayloadRule,
} from './payload';
import { remembered } from './remembered';

/** The builders of the field rules: presence, type and spellings, each deciding with ajv where JSON Schema can (constraints: payload-constraint.ts). */

// ---- ajv ------------------------------------------------------------------------------------------

// Fragments constrain values whose JSON type another rule has checked, so they carry no "type" of their own.
const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: false });
addFormats(ajv, ['email', 'date']);

/** Compiles on first use, so loading the catalogue costs nothing. */
export function lazyValidator(schema: JsonSchema): (value: unknown) => boolean {
  let validate: ValidateFunction | undefined;
  return (value) => (validate ??= ajv.compile(schema))(value);
}

// ---- rule builders --------------------------------------------------------------------------------

export const impactOf: Record<Endpoint, string> = {
  'account-info': 'the platform rejects the account information, so sign-on shows the error screen',
  'funding-sources': 'the platform cannot add the funding source, so the user cannot pay from it',
};

export const skipped = (message: string): Issue[] => [{ code: 'not-applicable', message, outcome: 'skipped' }];
export const skippedBecause = (where: { unreachable: string }): Issue[] => [{ code: 'unreachable', message: where.unreachable, outcome: 'skipped' }];

function omission(field: Field, located: Located, ctx: PayloadContext): Issue {
  const words = omissionWords(field, located, ctx);
  // Nothing of the user's is in it: the field's path and the harness's words.
  return { code: located.value === null ? 'null' : 'missing', params: { marker: field.marker }, ...words, advice: [words.message] };
}

function omissionWords(field: Field, located: Located, ctx: PayloadContext): Pick<Issue, 'message' | 'outcome'> {
  const missing = `"${located.field}" is ${located.value === null ? 'null, which counts as missing' : 'missing'}`;
  switch (field.marker) {
    case 'Yes':
      return { message: `${missing}; it is always required, even with "collectMissingAccountInfo", so send it` };
    case 'Yes*':
      return ctx.collectMissingAccountInfo
        ? { message: `${missing}; the user is asked to type it at sign-on`, outcome: 'warning' }
        : { message: `${missing} and "collectMissingAccountInfo" is off, so sign-on shows the error screen; send it, or turn collectMissingAccountInfo on` };
    case 'no**':
      return { message: `${missing}; the user is asked for it before their first payment` };
    case 'no*':
      return { message: `${missing}; the user is asked for it in the web app` };
    case 'no':
      return { message: `${missing}; it is optional` };
  }
}

/** Spec legend → DESIGN.md §4: Yes and Yes* are MUST (Yes* softened per profile), the others INFO. */
export function presence(field: Field): PayloadRule {
  const required = field.marker === 'Yes' || field.marker === 'Yes*';
  return fieldRule({
    judges: 'presence',
    id: `${field.endpoint}/${idPath(field.path)}/present`,
    field: field.path,
    clause: field.clause,
    level: required ? 'MUST' : 'INFO',
    ...(required
      ? {
          must: {
            spec: `spec ${field.clause} marks it Required ${field.marker}`,
            signOn: field.marker === 'Yes' ? 'the platform shows its error screen' : 'the platform shows its error screen, or asks the user to type it',
          },
        }
      : {}),
    requirement: `"${field.path}" is present (spec: Required ${field.marker})`,
    impact: markerLegend[field.marker].impact,
    subject: field,
    locate: locator(field),
    judgeAt: (where, _payload, ctx) => {
      if ('unreachable' in where) return skippedBecause(where);
      let issues: Issue[] | undefined;
      for (const located of where.found) if (!present(located)) (issues ??= []).push(omission(field, located, ctx));
      return issues ?? noIssues;
    },
  });
}

const article = (kind: Kind) => (kind === 'object' || kind === 'array' ? 'an' : 'a');
const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A type problem's advice, with nothing of the value: a string that holds a number (a CSV cell with a space around
 * it, an export that quoted it) is said to be one, since the fix is the quotes or the space, not the number.
 */
function typeAdvice(path: string, field: Field, value: unknown, send: string): string {
  if (field.kind !== 'number' || typeof value !== 'string' || !jsonNumber.test(value.trim())) return `"${path}" is ${jsonType(value)}; ${send}`;
  const spaced = value.trim() !== value;
  return `"${path}" is a string that holds a number${spaced ? ', with white space around it' : ''}; the endpoint must send it as a JSON number, without quotes${spaced ? ' or white space' : ''}`;
}

/** The JSON type of a present field. */
export function kind(field: Field, level: Level = 'MUST'): PayloadRule {
  const fragment = { type: field.kind };
  const valid = lazyValidator(fragment);
  const absent = skipped(`"${field.path}" is missing`);
  return fieldRule({
    judges: 'type',
    id: `${field.endpoint}/${idPath(field.path)}/type`,
    field: field.path,
    clause: field.clause,
    level,
    ...(level === 'MUST' ? { must: valueGrounds(field) } : {}),
    requirement: `"${field.path}" is ${article(field.kind)} ${field.kind}`,
    impact: impactOf[field.endpoint],
    subject: field,
    schema: { at: field.path, fragment },
    locate: locator(field),
    judgeAt: (where) => {
      if ('unreachable' in where) return skippedBecause(where);
      let issues: Issue[] | undefined;
      let anyPresent = false;
      for (const located of where.found) {
        if (!present(located)) continue;
        anyPresent = true;
        if (valid(located.value)) continue;
        const what = `${jsonType(located.value)}${field.sensitive ? '' : ` (${shown(field, located.value)})`}`;
        const send = `send ${article(field.kind)} ${field.kind === 'number' ? 'JSON number' : field.kind}`;
        (issues ??= []).push({
          code: 'type',
          field: located.field,
          params: { expected: field.kind, actual: jsonType(located.value) },
          message: `"${located.field}" is ${what}; ${send}`,
          advice: [typeAdvice(specSpelled(located.field, field), field, located.value, send)],
        });
      }
      return anyPresent ? (issues ?? noIssues) : absent;
    },
  });
}

/** The two rules every field has: present (as its marker demands) and of its JSON type. */
export const presentAndTyped = (subject: Field) => ({ present: presence(subject), type: kind(subject) });

/** A MUST on a field's value: the spec's validation of the field, which the platform applies (DESIGN §4 (a), (c)). */
export const valueGrounds = (field: Field): MustGrounds => ({
  spec: `spec ${field.clause} gives the field's type and validation`,
  signOn: 'the platform refuses the value: its error screen, or the user is asked to type it again',
});

/** Either spelling is accepted and reported; both with different values is a failure (DESIGN §5). */
export function spelling(field: Field): PayloadRule {
  const names = [lastSegment(field.path), ...(field.spellings ?? [])];
  // The same note for every payload spelled alike, made once (a population sends it for each user): by where it
  // was seen (one string per field, checks/payload.ts locator), then by the spellings.
  const notes = new Map<string, Map<string, Issue>>();
  return fieldRule({
    judges: 'spelling',
    id: `${field.endpoint}/${idPath(field.path)}/spelling`,
    field: field.path,
    clause: field.clause,
    level: 'MUST',
    must: { signOn: 'the platform may read the other spelling, and a value no rule checked' },
    requirement: `"${field.path}" is spelled ${names.map((n) => `"${n}"`).join(' or ')}, one of them`,
    impact: 'the platform may read the other spelling and keep the wrong value',
    subject: field,
    locate: locator(field),
    judgeAt: (where) => {
      if ('unreachable' in where) return skippedBecause(where);
      let issues: Issue[] | undefined;
      for (const { field: seen, parent } of where.found) {
        const spelled = names.filter((name) => parent[name] !== undefined);
        if (spelled.length === 0) continue;
        if (spelled.length > 1 && new Set(spelled.map((name) => jsonTextOf(parent[name]))).size > 1) {
          const message = `"${seen}" is sent as ${spelled.map((n) => `"${n}"`).join(' and ')} with different values; send one spelling only`;
          (issues ??= []).push({ code: 'spellings-differ', field: seen, params: { spellings: spelled.join(', ') }, message, advice: [message] });
          continue;
        }
        const noteOf = remembered(notes, 1000, seen, () => new Map<string, Issue>());
        const note = remembered(noteOf, names.length * names.length, spelled.join(), (): Issue => {
          const message = `"${seen}" is spelled ${spelled.map((n) => `"${n}"`).join(' and ')}; the platform accepts either`;
          return { code: 'spelling', field: seen, params: { spellings: spelled.join(', ') }, message, advice: [message], outcome: 'info' };
        });
        (issues ??= []).push(note);
      }
      return issues ?? noIssues;
    },
  });
}

/** The rules in groups such as `{present, type, line1: {…}}`, depth first, in the order written. */
export function rulesIn(groups: unknown): PayloadRule[] {
  if (typeof groups !== 'object' || groups === null) return [];
  if ('check' in groups) return [groups as PayloadRule];
  return Object.values(groups).flatMap(rulesIn);
}

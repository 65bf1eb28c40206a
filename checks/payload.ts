import type { ClauseId } from './clauses';
import { isObject, jsonType } from './evidence';
import type { Issue, Rule } from './finding';

/**
 * The machinery for the field rules of spec §2.3 and §2.4: a field is a row of the spec's tables, and
 * each rule checks one requirement of one field. Where JSON Schema can express a requirement, the rule
 * carries that schema fragment and ajv decides it; the published schemas are assembled from the same
 * fragments (payloadSchema below), so the harness and a partner's CI cannot disagree.
 */

/** The "Required" column of spec §2.3/§2.4, with its legend. */
export type Marker = 'Yes' | 'Yes*' | 'no**' | 'no*' | 'no';

/**
 * The legend of the "Required" column, as users meet it: what a missing field costs them (`impact`) and
 * when the platform asks them to type it (`typed`; for Yes*, only with collectMissingAccountInfo).
 */
export const markerLegend: Record<Marker, { impact: string; typed: string }> = {
  Yes: { impact: 'sign-on shows the error screen, even with collectMissingAccountInfo', typed: 'never: sign-on shows them the error screen' },
  'Yes*': {
    impact: 'with collectMissingAccountInfo the user must type it at sign-on; without it, sign-on shows the error screen',
    typed: 'at sign-on, on the collection screen, before the app opens',
  },
  'no**': { impact: 'the user must type it before their first payment', typed: 'before their first payment' },
  'no*': { impact: 'the user must type it in the web app', typed: 'in the web app, when a screen needs it' },
  no: { impact: 'none: the field is optional', typed: 'never: the field is optional' },
};

export interface PayloadContext {
  /** The run date: ages are judged on it (in UTC). */
  now: Date;
  /** The profile's collectMissingAccountInfo: whether a missing Yes* field is typed by the user. */
  collectMissingAccountInfo: boolean;
}

export type Payload = Record<string, unknown>;
export type JsonSchema = Record<string, unknown>;
export type Kind = 'string' | 'number' | 'object' | 'array';
export type ValueOf<K extends Kind> = { string: string; number: number; object: Record<string, unknown>; array: unknown[] }[K];

export type Endpoint = 'account-info' | 'funding-sources';

/** A row of the spec's tables, as written there: the coverage table (docs/RULES.md) is keyed by it. */
export interface SpecRow {
  table: 'Account information' | 'Address object' | 'Funding source';
  property: string;
}

export interface Field<K extends Kind = Kind> {
  endpoint: Endpoint;
  /** Dotted path in the payload; `name[]` steps into every item of an array. */
  path: string;
  marker: Marker;
  kind: K;
  clause: ClauseId;
  row?: SpecRow;
  /** Other accepted spellings of the last segment (DESIGN §5 "Spellings"). */
  spellings?: readonly string[];
  /** Messages show only the last 4 characters (tax ids, bank account numbers). */
  sensitive?: boolean;
}

export interface PayloadRule extends Rule<Payload, PayloadContext> {
  /** What the rule judges of its field: whether it is there, its JSON type, a constraint on its value, or its key's spelling. */
  judges: 'presence' | 'type' | 'value' | 'spelling';
  /** The field the rule reports on. */
  subject: Field;
  /**
   * `check` in two steps: finding the field (shared by every rule of the field: locator() gives one function per
   * field), then judging what was found. A population of users locates each field once for all its rules.
   */
  locate: Locate;
  judgeAt: (where: Where, payload: Payload, ctx: PayloadContext) => readonly Issue[];
  /** The rule's requirement in JSON Schema, and the path of the node it constrains. */
  schema?: { at: string; fragment: JsonSchema };
}

// ---- reading fields -------------------------------------------------------------------------------

export interface Located {
  /** The concrete path, with the spelling seen and item indexes: `fundingSources[1].nickName`. */
  field: string;
  /** `undefined` when absent. */
  value: unknown;
  /** The object holding the value. */
  parent: Record<string, unknown>;
}

export type Where = { found: Located[] } | { unreachable: string };
export type Locate = (payload: Payload) => Where;
/**
 * What a rule returns when it finds nothing wrong: one array for all, since most rules pass on most payloads. Not
 * frozen (its type keeps it empty): V8 slices a frozen array on a slow path, which made evaluateAll a quarter slower.
 */
export const noIssues: readonly Issue[] = [];

export const lastSegment = (path: string) => path.slice(path.lastIndexOf('.') + 1);
/** `fundingSources[].nickname` → `nickname`: rule ids name the field as the spec's table does. */
export const idPath = (path: string) => path.replace(/^.*\[\]\./, '');

/** What a field rule's builder decides (payload-rules.ts, payload-constraint.ts): `check` is `judgeAt(locate(payload))`. */
export type FieldRuleParts = Pick<PayloadRule, 'judges' | 'id' | 'field' | 'clause' | 'level' | 'requirement' | 'impact' | 'subject' | 'locate' | 'judgeAt'> &
  Partial<Pick<PayloadRule, 'must' | 'schema'>>;

/**
 * A field rule. Every one is made by this one object literal, so all have one shape (a key without a value is
 * undefined): evaluateAll reads each rule in a loop run for every user of a population, where rules of six shapes
 * made each of those reads a lookup.
 */
export function fieldRule(parts: FieldRuleParts): PayloadRule {
  const { locate, judgeAt } = parts;
  return {
    judges: parts.judges,
    id: parts.id,
    owner: 'partner',
    field: parts.field,
    clause: parts.clause,
    level: parts.level,
    must: parts.must,
    requirement: parts.requirement,
    impact: parts.impact,
    subject: parts.subject,
    schema: parts.schema,
    locate,
    judgeAt,
    check: (payload, ctx) => judgeAt(locate(payload), payload, ctx),
  };
}

const locators = new Map<string, Locate>();
/** Reads a field's values from payloads; the path is parsed once, since rules run on many payloads, and one function serves every rule of the field. */
export function locator(field: Field): Locate {
  const key = [field.path, ...(field.spellings ?? [])].join('\u0000');
  let locate = locators.get(key);
  if (!locate) locators.set(key, (locate = newLocator(field)));
  return locate;
}

function newLocator(field: Field): Locate {
  const all = field.path.split('.');
  const names = [all.pop()!, ...(field.spellings ?? [])];
  const steps = all.map((step) => (step.endsWith('[]') ? { name: step.slice(0, -2), many: true } : { name: step, many: false }));
  const [only] = names;
  const spelled = names.length === 1 ? () => only! : (node: Record<string, unknown>) => names.find((candidate) => node[candidate] !== undefined) ?? names[0]!;
  if (steps.every((step) => !step.many)) {
    // No array on the way (all of §2.3): every string is known up front, the paths of each spelling included.
    const prefix = all.map((step) => `${step}.`).join('');
    const paths = new Map(names.map((name) => [name, prefix + name]));
    const missing = steps.map((_, i) => ({ unreachable: `"${all.slice(0, i + 1).join('.')}" is missing` }));
    const notObject = steps.map((_, i) => ({ unreachable: `"${all.slice(0, i + 1).join('.')}" is not an object` }));
    return (payload) => {
      let node = payload;
      for (let i = 0; i < steps.length; i++) {
        const child = node[steps[i]!.name];
        if (child === undefined || child === null) return missing[i]!;
        if (!isObject(child)) return notObject[i]!;
        node = child;
      }
      const name = spelled(node);
      return { found: [{ field: paths.get(name)!, value: node[name], parent: node }] };
    };
  }
  return (payload) => {
    let nodes: { field: string; value: Record<string, unknown> }[] = [{ field: '', value: payload }];
    for (const { name, many } of steps) {
      const next: typeof nodes = [];
      for (const node of nodes) {
        const child = node.value[name];
        if (child === undefined || child === null) return { unreachable: `"${node.field}${name}" is missing` };
        if (many) {
          if (!Array.isArray(child)) return { unreachable: `"${node.field}${name}" is not an array` };
          child.forEach((item, index) => isObject(item) && next.push({ field: `${node.field}${name}[${index}].`, value: item }));
        } else {
          if (!isObject(child)) return { unreachable: `"${node.field}${name}" is not an object` };
          next.push({ field: `${node.field}${name}.`, value: child });
        }
      }
      nodes = next;
    }
    return {
      found: nodes.map((node) => {
        const name = spelled(node.value);
        return { field: node.field + name, value: node.value[name], parent: node.value };
      }),
    };
  };
}

export const present = (located: Located) => located.value !== undefined && located.value !== null;

export const kindOf = (value: unknown): Kind | 'other' =>
  Array.isArray(value) ? 'array' : isObject(value) ? 'object' : typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : 'other';

/**
 * A located field under its spec spelling (`company.legalAddress.postalCode` → `…postalcode`): advice names one
 * column one way, whichever spelling a user's payload had.
 */
export function specSpelled(located: string, field: Field): string {
  const spelled = lastSegment(field.path);
  const seen = located.slice(located.lastIndexOf('.') + 1);
  return seen === spelled ? located : `${located.slice(0, located.length - seen.length)}${spelled}`;
}

/** A value as messages show it: quoted JSON, cut short; sensitive values keep only their last 4 characters. */
export function shown(field: Field, value: unknown): string {
  if (field.sensitive && typeof value === 'string') return `"${'•'.repeat(Math.max(0, Math.min(value.length - 4, 8)))}${value.slice(-4)}" (shortened)`;
  if (field.sensitive) return jsonType(value);
  const text = jsonTextOf(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** A value as JSON text, or, nested too deep to write (a hostile payload), its type: never a crash. */
export function jsonTextOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return `(${jsonType(value)} nested too deep to show)`;
  }
}

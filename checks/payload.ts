import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ClauseId } from './clauses';
import { isObject, jsonType } from './evidence';
import type { Issue, Level, Rule } from './finding';

/**
 * The machinery for the field rules of spec §2.3 and §2.4: a field is a row of the spec's tables, and
 * each rule checks one requirement of one field. Where JSON Schema can express a requirement, the rule
 * carries that schema fragment and ajv decides it; the published schemas are assembled from the same
 * fragments (payloadSchema below), so the harness and a partner's CI cannot disagree.
 */

/** The "Required" column of spec §2.3/§2.4, with its legend. */
export type Marker = 'Yes' | 'Yes*' | 'no**' | 'no*' | 'no';

export interface PayloadContext {
  /** The run date: ages are judged on it (in UTC). */
  now: Date;
  /** The profile's collectMissingAccountInfo: whether a missing Yes* field is typed by the user. */
  collectMissingAccountInfo: boolean;
}

export type Payload = Record<string, unknown>;
export type JsonSchema = Record<string, unknown>;
type Kind = 'string' | 'number' | 'object' | 'array';
type ValueOf<K extends Kind> = { string: string; number: number; object: Record<string, unknown>; array: unknown[] }[K];

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
  /** The field the rule reports on. */
  subject: Field;
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

type Where = { found: Located[] } | { unreachable: string };

const lastSegment = (path: string) => path.slice(path.lastIndexOf('.') + 1);
/** `fundingSources[].nickname` → `nickname`: rule ids name the field as the spec's table does. */
const idPath = (path: string) => path.replace(/^.*\[\]\./, '');

/** Reads a field's values from payloads; the path is parsed once, since rules run on many payloads. */
export function locator(field: Field): (payload: Payload) => Where {
  const all = field.path.split('.');
  const names = [all.pop()!, ...(field.spellings ?? [])];
  const steps = all.map((step) => (step.endsWith('[]') ? { name: step.slice(0, -2), many: true } : { name: step, many: false }));
  const spelled = (node: Record<string, unknown>) => names.find((candidate) => node[candidate] !== undefined) ?? names[0]!;
  if (steps.every((step) => !step.many)) {
    // No array on the way (all of §2.3): every string is known up front.
    const prefix = all.map((step) => `${step}.`).join('');
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
      return { found: [{ field: prefix + name, value: node[name], parent: node }] };
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

const present = (located: Located) => located.value !== undefined && located.value !== null;

const kindOf = (value: unknown): Kind | 'other' =>
  Array.isArray(value) ? 'array' : isObject(value) ? 'object' : typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : 'other';

/** A value as messages show it: quoted JSON, cut short; sensitive values keep only their last 4 characters. */
export function shown(field: Field, value: unknown): string {
  if (field.sensitive && typeof value === 'string') return `"${'•'.repeat(Math.max(0, Math.min(value.length - 4, 8)))}${value.slice(-4)}" (shortened)`;
  if (field.sensitive) return jsonType(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

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

const impactOf: Record<Endpoint, string> = {
  'account-info': 'the platform rejects the account information, so sign-on shows the error screen',
  'funding-sources': 'the platform cannot add the funding source, so the user cannot pay from it',
};

const skipped = (message: string): Issue[] => [{ message, outcome: 'skipped' }];
const skippedBecause = (where: { unreachable: string }): Issue[] => [{ message: where.unreachable, outcome: 'skipped' }];

function omission(field: Field, located: Located, ctx: PayloadContext): Issue {
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

const presenceImpact: Record<Marker, string> = {
  Yes: 'sign-on shows the error screen, even with collectMissingAccountInfo',
  'Yes*': 'with collectMissingAccountInfo the user must type it at sign-on; without it, sign-on shows the error screen',
  'no**': 'the user must type it before their first payment',
  'no*': 'the user must type it in the web app',
  no: 'none: the field is optional',
};

/** Spec legend → DESIGN.md §4: Yes and Yes* are MUST (Yes* softened per profile), the others INFO. */
export function presence(field: Field): PayloadRule {
  const required = field.marker === 'Yes' || field.marker === 'Yes*';
  const locate = locator(field);
  return {
    id: `${field.endpoint}/${idPath(field.path)}/present`,
    field: field.path,
    clause: field.clause,
    level: required ? 'MUST' : 'INFO',
    requirement: `"${field.path}" is present (spec: Required ${field.marker})`,
    impact: presenceImpact[field.marker],
    subject: field,
    check: (payload, ctx) => {
      const where = locate(payload);
      if ('unreachable' in where) return skippedBecause(where);
      const issues: Issue[] = [];
      for (const located of where.found) if (!present(located)) issues.push(omission(field, located, ctx));
      return issues;
    },
  };
}

const article = (kind: Kind) => (kind === 'object' || kind === 'array' ? 'an' : 'a');

/** The JSON type of a present field. */
export function kind(field: Field, level: Level = 'MUST'): PayloadRule {
  const fragment = { type: field.kind };
  const valid = lazyValidator(fragment);
  const locate = locator(field);
  const absent = skipped(`"${field.path}" is missing`);
  return {
    id: `${field.endpoint}/${idPath(field.path)}/type`,
    field: field.path,
    clause: field.clause,
    level,
    requirement: `"${field.path}" is ${article(field.kind)} ${field.kind}`,
    impact: impactOf[field.endpoint],
    subject: field,
    schema: { at: field.path, fragment },
    check: (payload) => {
      const where = locate(payload);
      if ('unreachable' in where) return skippedBecause(where);
      const issues: Issue[] = [];
      let anyPresent = false;
      for (const located of where.found) {
        if (!present(located)) continue;
        anyPresent = true;
        if (valid(located.value)) continue;
        const what = `${jsonType(located.value)}${field.sensitive ? '' : ` (${shown(field, located.value)})`}`;
        issues.push({ field: located.field, message: `"${located.field}" is ${what}; send ${article(field.kind)} ${field.kind === 'number' ? 'JSON number' : field.kind}` });
      }
      return anyPresent ? issues : absent;
    },
  };
}

/** The two rules every field has: present (as its marker demands) and of its JSON type. */
export const presentAndTyped = (subject: Field) => ({ present: presence(subject), type: kind(subject) });

export interface Judged<T> {
  value: T;
  field: string;
  parent: Record<string, unknown>;
  payload: Payload;
  ctx: PayloadContext;
}

interface ConstraintSpec<T> {
  level?: Level;
  clause?: ClauseId;
  requirement: string;
  impact?: string;
  /** Only values this accepts are judged; another rule reports the rest. */
  appliesTo?: (value: T) => boolean;
  /** When JSON Schema can express the requirement, ajv decides with this and `problem` words the failure. */
  schema?: JsonSchema;
  /** For a requirement across fields: the object `schema` applies to, e.g. `company` (no arrays on the way). */
  schemaAt?: string;
  /** The problem with a value (the whole message after the field name), or undefined. */
  problem: (judged: Judged<T>) => string | undefined;
}

/**
 * One requirement on a present value of the right JSON type. With a `schema`, ajv decides and
 * `problem` only words the message (its answer is then never undefined for a failing value).
 */
export function constraint<K extends Kind>(field: Field<K>, name: string, spec: ConstraintSpec<ValueOf<K>>): PayloadRule {
  const valid = spec.schema ? lazyValidator(spec.schema) : undefined;
  const locate = locator(field);
  const schemaAt = spec.schemaAt?.split('.');
  const decides = (value: unknown, payload: Payload) =>
    valid?.(schemaAt === undefined ? value : schemaAt.reduce<unknown>((node, step) => (node as Payload)[step], payload));
  const nothingToJudge = skipped(`no ${field.kind} value of "${field.path}" to judge`);
  return {
    id: `${field.endpoint}/${idPath(field.path)}/${name}`,
    field: field.path,
    clause: spec.clause ?? field.clause,
    level: spec.level ?? 'MUST',
    requirement: spec.requirement,
    impact: spec.impact ?? impactOf[field.endpoint],
    subject: field,
    ...(spec.schema ? { schema: { at: spec.schemaAt ?? field.path, fragment: spec.schema } } : {}),
    check: (payload, ctx) => {
      const where = locate(payload);
      if ('unreachable' in where) return skippedBecause(where);
      const issues: Issue[] = [];
      let judgedAny = false;
      for (const located of where.found) {
        if (!present(located) || kindOf(located.value) !== field.kind) continue;
        const value = located.value as ValueOf<K>;
        if (spec.appliesTo && !spec.appliesTo(value)) continue;
        judgedAny = true;
        if (decides(value, payload)) continue;
        const problem = spec.problem({ value, field: located.field, parent: located.parent, payload, ctx });
        if (problem === undefined && !valid) continue;
        issues.push({ field: located.field, message: `"${located.field}" is ${shown(field, value)}; ${problem ?? spec.requirement}` });
      }
      return judgedAny ? issues : nothingToJudge;
    },
  };
}

/** Either spelling is accepted and reported; both with different values is a failure (DESIGN §5). */
export function spelling(field: Field): PayloadRule {
  const names = [lastSegment(field.path), ...(field.spellings ?? [])];
  const locate = locator(field);
  return {
    id: `${field.endpoint}/${idPath(field.path)}/spelling`,
    field: field.path,
    clause: field.clause,
    level: 'MUST',
    requirement: `"${field.path}" is spelled ${names.map((n) => `"${n}"`).join(' or ')}, one of them`,
    impact: 'the platform may read the other spelling and keep the wrong value',
    subject: field,
    check: (payload) => {
      const where = locate(payload);
      if ('unreachable' in where) return skippedBecause(where);
      return where.found.flatMap(({ field: seen, parent }): Issue[] => {
        const spelled = names.filter((name) => parent[name] !== undefined);
        if (spelled.length === 0) return [];
        const values = new Set(spelled.map((name) => JSON.stringify(parent[name])));
        if (values.size > 1) {
          return [{ field: seen, message: `"${seen}" is sent as ${spelled.map((n) => `"${n}"`).join(' and ')} with different values; send one spelling only` }];
        }
        return [{ field: seen, message: `"${seen}" is spelled ${spelled.map((n) => `"${n}"`).join(' and ')}; the platform accepts either`, outcome: 'info' }];
      });
    },
  };
}

// ---- the published JSON Schema ----------------------------------------------------------------------

interface SchemaNode {
  schema: JsonSchema;
  properties: Map<string, SchemaNode>;
  items?: SchemaNode;
  field?: Field;
}

const newNode = (): SchemaNode => ({ schema: {}, properties: new Map() });

function nodeAt(root: SchemaNode, path: string): SchemaNode {
  let node = root;
  for (const step of path.split('.')) {
    const many = step.endsWith('[]');
    const name = many ? step.slice(0, -2) : step;
    if (!node.properties.has(name)) node.properties.set(name, newNode());
    node = node.properties.get(name)!;
    if (many) node = node.items ??= newNode();
  }
  return node;
}

/** Adds a fragment to a node; a keyword the node already has goes into `allOf` instead. */
function mergeInto(node: SchemaNode, fragment: JsonSchema) {
  const clash = Object.keys(fragment).some((key) => key in node.schema);
  if (!clash) Object.assign(node.schema, fragment);
  else node.schema.allOf = [...((node.schema.allOf as JsonSchema[] | undefined) ?? []), fragment];
}

function render(node: SchemaNode, requiredMarkers: readonly Marker[]): JsonSchema {
  const schema: JsonSchema = { ...node.schema };
  if (node.field?.row) schema.description = `${node.field.row.table}: ${node.field.row.property} (Required: ${node.field.marker})`;
  // An `items` fragment (e.g. {type: 'object'}) and the item's own fields describe the same node.
  if (node.items) schema.items = { ...(schema.items as JsonSchema | undefined), ...render(node.items, requiredMarkers) };
  if (node.properties.size === 0) return schema;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const requiredOneOf: JsonSchema[] = [];
  for (const [name, child] of node.properties) {
    const field = child.field;
    const isRequired = field !== undefined && requiredMarkers.includes(field.marker);
    const rendered = render(child, requiredMarkers);
    // DESIGN §5: null counts as absent, so it is allowed exactly where absence is.
    const { description, ...inner } = rendered;
    const body = isRequired ? rendered : { ...(description ? { description } : {}), anyOf: [{ type: 'null' }, inner] };
    const names = [name, ...(field?.spellings ?? [])];
    for (const spelled of names) properties[spelled] = body;
    if (isRequired && names.length === 1) required.push(name);
    if (isRequired && names.length > 1) requiredOneOf.push({ anyOf: names.map((spelled) => ({ required: [spelled] })) });
  }
  Object.assign(schema, { properties });
  if (required.length > 0) schema.required = required;
  if (requiredOneOf.length > 0) schema.allOf = [...((schema.allOf as JsonSchema[] | undefined) ?? []), ...requiredOneOf];
  return schema;
}

/** Only MUST rules: the schema rejects exactly what fails certification, never what merely warns. */
export const inPublishedSchema = <R extends Partial<Pick<PayloadRule, 'schema' | 'level'>>>(rule: R): rule is R & Required<Pick<PayloadRule, 'schema'>> =>
  rule.schema !== undefined && rule.level === 'MUST';

export interface SchemaOptions {
  $id: string;
  title: string;
  description: string;
  /** Markers whose fields the schema requires. */
  required: readonly Marker[];
}

/** The JSON Schema (draft 2020-12) of a payload, assembled from its rules' fragments. */
export function payloadSchema(rules: readonly PayloadRule[], { $id, title, description, required }: SchemaOptions): JsonSchema {
  const root = newNode();
  for (const rule of rules) nodeAt(root, rule.subject.path).field = rule.subject;
  for (const rule of rules) if (inPublishedSchema(rule)) mergeInto(rule.schema.at === '' ? root : nodeAt(root, rule.schema.at), rule.schema.fragment);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id,
    title,
    description,
    type: 'object',
    ...render(root, required),
  };
}

/** The rules in groups such as `{present, type, line1: {…}}`, depth first, in the order written. */
export function rulesIn(groups: unknown): PayloadRule[] {
  if (typeof groups !== 'object' || groups === null) return [];
  if ('check' in groups) return [groups as PayloadRule];
  return Object.values(groups).flatMap(rulesIn);
}

import { valueAt } from './paths';
import type { ClauseId } from './clauses';
import type { Issue, Level, MustGrounds } from './finding';
import {
  idPath,
  fieldRule,
  kindOf,
  locator,
  noIssues,
  present,
  shown,
  specSpelled,
  type Field,
  type JsonSchema,
  type Kind,
  type Payload,
  type PayloadContext,
  type PayloadRule,
  type ValueOf,
} from './payload';
import { impactOf, lazyValidator, skipped, skippedBecause, valueGrounds } from './payload-rules';
import type { Told } from './told';

/** The builder of a field's value rules: one requirement on a present value of the right JSON type. */

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
  /** Why a value `appliesTo` refused is not judged here: the finding says so, truthfully. */
  notJudged?: string;
  /** When JSON Schema can express the requirement, ajv decides with this and `problem` words the failure. */
  schema?: JsonSchema;
  /** For a requirement across fields: the object `schema` applies to, e.g. `company` (no arrays on the way). */
  schemaAt?: string;
  /** The problem with a value (the whole message after the field name, checks/told.ts), or undefined. */
  problem: (judged: Judged<T>) => Told | undefined;
  /** For a MUST that is not the spec's own validation of the field: what makes it one. */
  must?: MustGrounds;
}

/**
 * One requirement on a present value of the right JSON type. With a `schema`, ajv decides and
 * `problem` only words the message (its answer is then never undefined for a failing value).
 */
export function constraint<K extends Kind>(field: Field<K>, name: string, spec: ConstraintSpec<ValueOf<K>>): PayloadRule {
  const valid = spec.schema ? lazyValidator(spec.schema) : undefined;
  const decides = (value: unknown, payload: Payload) => valid?.(spec.schemaAt === undefined ? value : valueAt(payload, spec.schemaAt));
  const nothingToJudge = skipped(`no ${field.kind} value of "${field.path}" to judge`);
  const notJudged = spec.notJudged === undefined ? undefined : skipped(spec.notJudged);
  return fieldRule({
    judges: 'value',
    id: `${field.endpoint}/${idPath(field.path)}/${name}`,
    field: field.path,
    clause: spec.clause ?? field.clause,
    level: spec.level ?? 'MUST',
    ...((spec.level ?? 'MUST') === 'MUST' ? { must: spec.must ?? valueGrounds(field) } : {}),
    requirement: spec.requirement,
    impact: spec.impact ?? impactOf[field.endpoint],
    subject: field,
    ...(spec.schema ? { schema: { at: spec.schemaAt ?? field.path, fragment: spec.schema } } : {}),
    locate: locator(field),
    judgeAt: (where, payload, ctx) => {
      if ('unreachable' in where) return skippedBecause(where);
      let issues: Issue[] | undefined;
      let judgedAny = false;
      let refused = false;
      for (const located of where.found) {
        if (!present(located) || kindOf(located.value) !== field.kind) continue;
        const value = located.value as ValueOf<K>;
        if (spec.appliesTo && !spec.appliesTo(value)) {
          refused = true;
          continue;
        }
        judgedAny = true;
        if (decides(value, payload)) continue;
        const problem = spec.problem({ value, field: located.field, parent: located.parent, payload, ctx });
        if (problem === undefined && !valid) continue;
        const said = shown(field, value);
        (issues ??= []).push({
          code: name,
          field: located.field,
          params: { value: said },
          message: `"${located.field}" is ${said}; ${problem?.text ?? spec.requirement}`,
          // The value itself is left out: users given the same advice count together.
          advice: [`"${specSpelled(located.field, field)}" is …; `, ...(problem?.parts ?? [spec.requirement])],
        });
      }
      return judgedAny ? (issues ?? noIssues) : refused && notJudged ? notJudged : nothingToJudge;
    },
  });
}

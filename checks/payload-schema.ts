import { type Field, type JsonSchema, type Marker, type PayloadRule } from './payload';

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

/** Dotted paths (`company.address.line1`, `fundingSources.0.id`) in parsed JSON: the one walker the rules, probes and sandbox share. */

type Container = Record<string, unknown>;
/** Objects and arrays alike: a numeric step indexes an array. */
const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

const stepsOf = (path: string) => path.split('.');
const walk = (node: unknown, steps: readonly string[]): unknown =>
  steps.reduce<unknown>((current, step) => (isContainer(current) ? current[step] : undefined), node);

/** The value at `path`, or undefined when any step is missing or not an object. */
export const valueAt = (node: unknown, path: string): unknown => walk(node, stepsOf(path));

/** Sets the value at `path`, making the objects on the way where there are none. */
export function setAt(node: Record<string, unknown>, path: string, value: unknown): void {
  const steps = stepsOf(path);
  const last = steps.pop()!;
  let parent = node;
  for (const step of steps) {
    if (!isContainer(parent[step])) parent[step] = {};
    parent = parent[step] as Container;
  }
  parent[last] = value;
}

/** Deletes the value at `path`, if its parent is there. */
export function deleteAt(node: unknown, path: string): void {
  const steps = stepsOf(path);
  const last = steps.pop()!;
  const parent = walk(node, steps);
  if (isContainer(parent)) delete parent[last];
}

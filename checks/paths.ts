import { isObject } from './evidence';

/** Dotted paths (`company.address.line1`) in parsed JSON: the one walker the rules, probes and sandbox share. */

const stepsOf = (path: string) => path.split('.');
const walk = (node: unknown, steps: readonly string[]): unknown => steps.reduce<unknown>((current, step) => (isObject(current) ? current[step] : undefined), node);

/** The value at `path`, or undefined when any step is missing or not an object. */
export const valueAt = (node: unknown, path: string): unknown => walk(node, stepsOf(path));

/** Sets the value at `path`, making the objects on the way where there are none. */
export function setAt(node: Record<string, unknown>, path: string, value: unknown): void {
  const steps = stepsOf(path);
  const last = steps.pop()!;
  let parent = node;
  for (const step of steps) {
    if (!isObject(parent[step])) parent[step] = {};
    parent = parent[step] as Record<string, unknown>;
  }
  parent[last] = value;
}

/** Deletes the value at `path`, if its parent is there. */
export function deleteAt(node: unknown, path: string): void {
  const steps = stepsOf(path);
  const last = steps.pop()!;
  const parent = walk(node, steps);
  if (isObject(parent)) delete parent[last];
}

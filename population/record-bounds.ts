/**
 * The bounds a record is judged within, so that one record never ends the run (issue 52): a record longer than
 * `recordBytesMost` is counted as too large by the reader (population/input.ts), one whose objects and arrays nest
 * deeper than `depthMost` as too deep by the worker; the rest are judged. An account-information payload is a few
 * kilobytes and three levels deep (`company.address.line1`, `fundingSources[0].id`).
 */
export const recordBytesMost = 1024 * 1024;
export const depthMost = 32;
/** Funding sources one answer may list: a user has a few accounts; past this the answer is counted as too many. */
export const sourcesMost = 1000;

const nodes: unknown[] = [];
const depths: number[] = [];

/** Whether `root`'s objects and arrays nest deeper than `most`: walked without recursion, stopping at the bound. */
export function deeperThan(root: unknown, most: number): boolean {
  nodes.length = 0;
  depths.length = 0;
  nodes.push(root);
  depths.push(1);
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown> | unknown[];
    const depth = depths.pop()!;
    if (depth > most) return true;
    if (Array.isArray(node)) {
      for (const item of node)
        if (typeof item === 'object' && item !== null) {
          nodes.push(item);
          depths.push(depth + 1);
        }
    } else
      for (const key in node) {
        const child = node[key];
        if (typeof child === 'object' && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
  }
  return false;
}

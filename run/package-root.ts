import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The harness's own folder: where its package.json, schemas and profile schema are, whether it runs from
 * a clone (its sources) or from an installed package (its compiled dist/, one folder down).
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return from;
  }
}

export const packageRoot = findRoot(__dirname);

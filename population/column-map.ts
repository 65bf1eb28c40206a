import { readSmallFile } from './small-file';
import { nearestPath } from './input-gate';

/**
 * A CSV of the user's own column names, read through a map: `--column first_name=user.firstName` (repeatable) and
 * `--columns map.json` (`{"first_name": "user.firstName", …}`), each column to the spec path it holds.
 */
export function columnMapOf(pairs: readonly string[], file: string | undefined, paths: ReadonlySet<string>): Map<string, string> | string {
  const entries: [string, unknown, string][] = pairs.map((pair) => {
    const at = pair.indexOf('=');
    return [at < 0 ? pair : pair.slice(0, at), at < 0 ? undefined : pair.slice(at + 1), `--column ${pair}`];
  });
  if (file !== undefined) {
    const read = readSmallFile(file, 1024 * 1024);
    if ('problem' in read) return `--columns ${file}: ${read.problem}; give {"your column": "spec path", …}`;
    let map: unknown;
    try {
      map = JSON.parse(read.text);
    } catch {
      return `--columns ${file}: not a JSON file; give {"your column": "spec path", …}`;
    }
    if (typeof map !== 'object' || map === null || Array.isArray(map)) return `--columns ${file}: not a JSON object; give {"your column": "spec path", …}`;
    for (const [column, path] of Object.entries(map)) entries.push([column, path, `--columns ${file}: "${column}"`]);
  }
  const map = new Map<string, string>();
  const columnOf = new Map<string, string>();
  for (const [column, path, where] of entries) {
    if (typeof path !== 'string' || column.trim() === '') return `${where}: give <your column>=<spec path>, e.g. --column first_name=user.firstName`;
    if (!paths.has(path)) {
      const near = nearestPath(path, [...paths]);
      return `${where}: ${path} is not a spec path${near ? `; did you mean ${near}?` : ' (user.firstName, company.address.line1, …)'}`;
    }
    const earlier = map.get(column.trim());
    if (earlier !== undefined && earlier !== path)
      return `${where}: ${column.trim()} is mapped twice, to ${earlier} and to ${path}; map each of your columns once`;
    const other = columnOf.get(path);
    if (other !== undefined && other !== column.trim())
      return `${where}: ${other} and ${column.trim()} are both mapped to ${path}; map one column to each spec path`;
    map.set(column.trim(), path);
    columnOf.set(path, column.trim());
  }
  return map;
}

import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * Every entry under `dir` with what it holds (a file's text, a link's target), links not followed and
 * node_modules left out: equal before and after a command when it wrote nothing.
 */
export function folderListing(dir: string, under = ''): string[] {
  return readdirSync(path.join(dir, under))
    .filter((entry) => entry !== 'node_modules')
    .sort()
    .flatMap((entry) => {
      const relative = path.posix.join(under, entry);
      const full = path.join(dir, relative);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) return [`${relative} -> ${readlinkSync(full)}`];
      if (stat.isDirectory()) return [`${relative}/`, ...folderListing(dir, relative)];
      return [`${relative}: ${JSON.stringify(readFileSync(full, 'utf8'))}`];
    });
}

import { randomBytes } from 'node:crypto';
import { lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/** A file of the population command that could not be written, named with what stopped it and the fix. */
export class WriteProblem extends Error {
  constructor(file: string, error: unknown) {
    const { code, message } = error as NodeJS.ErrnoException;
    const why =
      code === 'ENOSPC'
        ? 'no space is left on its device: free some'
        : code === 'EISDIR'
          ? 'a folder is there: move it away'
          : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
            ? 'it may not be written there'
            : `${code ?? message}`;
    super(
      `${file} could not be written (${why}), so it is as it was; fix that, or give another ${file.endsWith('.csv') || file.endsWith('.jsonl') ? '--records-out' : '--out'}`,
    );
  }
}

/** The partial file `file` is written to first, beside it: the same folder, so that the rename is one step. */
export const partialOf = (file: string) => `${file}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;

/**
 * Each file written whole, or none of them: each to a file of its own beside it, then, once all are written, each
 * renamed over its file. A full disk or an interrupt leaves the files as they were; a link already at a file is
 * replaced, never what it points to.
 */
export function writeWhole(...files: readonly (readonly [file: string, text: string])[]): void {
  const partials: string[] = [];
  let writing = '';
  try {
    for (const [file, text] of files) {
      writing = file;
      partials.push(partialOf(file));
      writeFileSync(partials.at(-1)!, text, { flag: 'wx' });
    }
    // A folder where a file goes would refuse its rename after others were done: refused before any is.
    for (const [file] of files) {
      writing = file;
      if (lstatSync(file, { throwIfNoEntry: false })?.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    }
    files.forEach(([file], i) => {
      writing = file;
      renameSync(partials[i]!, file);
    });
  } catch (error) {
    for (const partial of partials) rmSync(partial, { force: true });
    throw new WriteProblem(writing, error);
  }
}

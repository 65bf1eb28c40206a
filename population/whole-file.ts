import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A file of the population command that could not be written, named with what stopped it and the fix. */
export class WriteProblem extends Error {
  constructor(file: string, error: unknown, option = '--out') {
    const { code, message } = error as NodeJS.ErrnoException;
    const why =
      code === 'ENOSPC'
        ? 'no space is left on its device: free some'
        : code === 'EISDIR'
          ? 'a folder is there: move it away'
          : code === 'ENOTDIR' || code === 'EEXIST'
            ? 'a file is where a folder on its way goes: move it away'
            : code === 'ENOTFILE'
              ? 'a pipe, a socket or a device is there, which it would replace: move it away'
              : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
                ? 'it may not be written there'
                : `${code ?? message}`;
    super(`${file} could not be written (${why}), so it is as it was; fix that, or give another ${option}`);
  }
}

/** The signals that end a run: a terminal closed (SIGHUP) as much as an interrupt. */
const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
/** Partial files this process is writing: an interrupt or an exit removes them, so none is ever left behind. */
const pending = new Set<string>();
const removePending = () => {
  for (const partial of pending) rmSync(partial, { force: true });
  pending.clear();
};
const interrupted = (signal: NodeJS.Signals) => {
  for (const one of signals) process.off(one, interrupted);
  removePending();
  process.kill(process.pid, signal);
};
process.once('exit', removePending);

/**
 * A partial file for `file`, beside it (the same folder, so that the rename is one step), removed if the run ends
 * before it is settled. While one is pending, a signal waits for the synchronous write in hand to end, then removes it.
 */
function startPartial(file: string): { partial: string; settled: () => void } {
  const partial = `${file}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  if (pending.size === 0) for (const signal of signals) process.on(signal, interrupted);
  pending.add(partial);
  const settled = () => {
    pending.delete(partial);
    if (pending.size === 0) for (const signal of signals) process.off(signal, interrupted);
  };
  return { partial, settled };
}

/**
 * The folder `file` goes in, made if need be; `undo` removes the folders it made that are still empty (a run that
 * wrote nothing leaves no folder behind).
 */
function folderFor(file: string): { undo: () => void } {
  const folder = path.dirname(path.resolve(file));
  const first = mkdirSync(folder, { recursive: true });
  const undo = () => {
    if (first === undefined) return;
    for (let at = folder; at.startsWith(first); at = path.dirname(at)) {
      try {
        rmdirSync(at);
      } catch {
        return;
      }
    }
  };
  return { undo };
}

/** A file written beside its name (`partial`), then either kept (renamed over `file`) or dropped; the first wins. */
export interface Beside {
  partial: string;
  keep: () => void;
  /** Removes the partial file, and the folders made for it that are still empty. */
  drop: () => void;
}

/**
 * Where every file of the command is written: its folder made if need be, a partial file beside it that an interrupt
 * or an exit removes, and a rename into place, so that the file is whole or as it was, and a link already there is
 * replaced, never what it points to.
 */
export function besideItsName(file: string): Beside {
  const folder = folderFor(file);
  const { partial, settled } = startPartial(file);
  let done = false;
  return {
    partial,
    keep: () => {
      if (done) return;
      renameSync(partial, file);
      done = true;
      settled();
    },
    drop: () => {
      if (done) return;
      rmSync(partial, { force: true });
      folder.undo();
      done = true;
      settled();
    },
  };
}

/**
 * Each file written whole, or none of them: each to a file of its own beside it, then, once all are written, each
 * renamed over its file. A full disk or an interrupt leaves the files as they were, and no folder made for them; a
 * link already at a file is replaced, never what it points to.
 */
export function writeWhole(...files: readonly (readonly [file: string, text: string])[]): void {
  const written: Beside[] = [];
  let writing = '';
  try {
    for (const [file, text] of files) {
      writing = file;
      written.push(besideItsName(file));
      writeFileSync(written.at(-1)!.partial, text, { flag: 'wx' });
    }
    // A folder where a file goes would refuse its rename after others were done: refused before any is. A pipe, a
    // socket or a device would be replaced: refused too.
    for (const [file] of files) {
      writing = file;
      const there = lstatSync(file, { throwIfNoEntry: false });
      if (there?.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
      if (there && !there.isFile() && !there.isSymbolicLink()) throw Object.assign(new Error('no file'), { code: 'ENOTFILE' });
    }
    files.forEach(([file], i) => {
      writing = file;
      written[i]!.keep();
    });
  } catch (error) {
    for (const one of written.reverse()) one.drop();
    throw new WriteProblem(writing, error);
  }
}

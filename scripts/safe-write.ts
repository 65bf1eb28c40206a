// Files written into the user's folder, never through a symbolic link, and all or none: when one write fails,
// what this run wrote before it is removed (a created file or folder) or cut back (an appended file).
import { closeSync, constants, lstatSync, mkdirSync, openSync, rmdirSync, rmSync, truncateSync, writeSync, type Stats } from 'node:fs';
import path from 'node:path';

export interface PlannedWrite {
  /** Relative to the current folder, with `/`. */
  file: string;
  /** `create` refuses a file that is there; `append` adds to it, or creates it. */
  mode: 'create' | 'append';
  text: string;
  /** Holds secrets (.env): a file it creates is readable by its owner only; one that is there keeps its mode. */
  private?: true;
}

const statOf = (file: string): Stats | undefined => {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
};

/** `file` and the folders on its way from the current folder, outermost first. */
const onTheWay = (file: string): string[] => file.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));

/** Why `file` cannot be written: a symbolic link on its way (a dangling one too), or something else where a folder or file must be. */
export function wayProblem(file: string): string | undefined {
  if (path.isAbsolute(file) || file.split('/').includes('..')) return `${file} is outside this folder; init writes only inside it`;
  const steps = onTheWay(file);
  for (const [i, step] of steps.entries()) {
    const stat = statOf(step);
    if (stat === undefined) return undefined;
    if (stat.isSymbolicLink()) return `${step} is a symbolic link; init writes no file through a link: remove the link, or run init in another folder`;
    const last = i === steps.length - 1;
    if (!last && !stat.isDirectory()) return `${step} is not a folder, and init writes ${file} inside it: move it away`;
    if (last && !stat.isFile()) return `${step} is not a file; init writes it as one: move it away`;
  }
  return undefined;
}

/** Writes every planned file into `root`, or, when one fails, undoes the others and throws. */
export function writeAll(writes: PlannedWrite[], root = '.'): void {
  const undo: (() => void)[] = [];
  try {
    for (const planned of writes) {
      const { mode, text } = planned;
      const file = path.join(root, planned.file);
      const folders = onTheWay(path.posix.dirname(planned.file)).filter((step) => step !== '.');
      for (const dir of folders.map((step) => path.join(root, step)).filter((dir) => statOf(dir) === undefined)) {
        mkdirSync(dir);
        undo.push(() => rmdirSync(dir));
      }
      const before = statOf(file);
      // O_EXCL refuses any link, dangling or not, where a file is created; O_NOFOLLOW one in place of a file appended to.
      const fd =
        before === undefined || mode === 'create'
          ? openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, planned.private ? 0o600 : 0o644)
          : openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
      undo.push(before === undefined ? () => rmSync(file) : () => truncateSync(file, before.size));
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
    }
  } catch (error) {
    for (const step of undo.reverse()) {
      try {
        step();
      } catch {
        // Undo what can be undone; the error that stopped the writes is the one to report.
      }
    }
    throw error;
  }
}

import { existsSync, fstatSync, lstatSync, mkdtempSync, realpathSync, rmdirSync, statSync } from 'node:fs';
import { readSmallFile } from './small-file';
import { parse as parseJsonc } from 'jsonc-parser';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { recordsFormatOf } from './records';

/** What `population`'s options may not be, each a line naming the option and the fix (exit 2, before anything is read). */

/** The nearest of a path and its folders that is there (a link to nothing is not). */
function nearestThere(file: string): string {
  let at = path.resolve(file);
  while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

// lstat throws ENOTDIR, not "no entry", under a file: that is no link either.
const isLink = (at: string) => {
  try {
    return lstatSync(at).isSymbolicLink();
  } catch {
    return false;
  }
};

/** Under /dev (but its shm), /proc or /sys, where nothing is the user's: /dev/stdout is a link a file would replace. */
const systemPath = (file: string) => /^\/(dev|proc|sys)(\/|$)/.test(path.resolve(file)) && !/^\/dev\/shm(\/|$)/.test(path.resolve(file));

/**
 * Why nothing can be written at `file`, as `option` names it: the system's (/dev/stdout, a link the file would replace,
 * and under /dev, /proc or /sys nothing is the user's), a file where a folder must be, or a link to nothing.
 */
function unwritable(option: string, file: string, systemFix = 'name one of yours'): string | undefined {
  if (systemPath(file)) return `${option} ${file}: that is the system's, not a file of yours; ${systemFix}`;
  const there = nearestThere(file);
  for (let at = path.resolve(file); at !== there; at = path.dirname(at)) {
    if (isLink(at)) return `${option} ${file}: ${at} is a link to nothing; give a path that is there or can be made`;
  }
  const thereIsFolder = statSync(there).isDirectory();
  if (there !== path.resolve(file) && !thereIsFolder) return `${option} ${file}: ${there} is a file, so nothing can be made under it; give another path`;
  // A folder is made there and taken away at once: permissions, a read-only or pseudo file system (under /proc,
  // making folders never returns) are found now, not after the whole input is judged.
  const folder = thereIsFolder ? there : path.dirname(there);
  try {
    rmdirSync(mkdtempSync(path.join(folder, '.partner-certify-')));
  } catch (error) {
    return `${option} ${file}: nothing can be written in ${folder} (${(error as NodeJS.ErrnoException).code ?? 'refused'}); give a folder you can write to`;
  }
  return undefined;
}

/** What is at `file` when it is neither a file nor a folder: a report written there would replace it. */
function special(file: string): string | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat === undefined || stat.isFile() || stat.isDirectory()) return undefined;
  return stat.isFIFO() ? 'a named pipe' : stat.isSocket() ? 'a socket' : stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : 'no file';
}

/** The reports' folder: neither a file nor a folder whose population.json or population.html is an input. */
export function outProblem(out: string, inputs: readonly (string | undefined)[]): string | undefined {
  if (out.trim() === '') return '--out is empty; give a folder for the reports';
  if (existsSync(out) && !statSync(out).isDirectory()) return `--out ${out}: that is a file; give a folder for the reports`;
  const cannot = unwritable('--out', out);
  if (cannot) return cannot;
  for (const name of ['population.json', 'population.html']) {
    if (existsSync(path.join(out, name)) && statSync(path.join(out, name)).isDirectory())
      return `--out ${out}: its ${name} is a folder, where the report would go; move it away, or give another folder`;
    const kind = special(path.join(out, name));
    if (kind) return `--out ${out}: its ${name} is ${kind}, where the report would go; move it away, or give another folder`;
    const input = inputOf(path.join(out, name), inputs);
    if (input) return `--out ${out}: its ${name} would overwrite ${input}; give another folder`;
  }
  return undefined;
}

/** The options each command reads: any other given to it would be dropped unsaid. */
const readBy = {
  merge: ['help', 'out', 'k', 'fail-if', 'max-unreadable', 'compare'],
  compare: ['help'],
  generate: ['help', 'users', 'seed', 'now', 'out'],
} as const;
const whyNot = {
  merge: "a merge adds what its shards judged, with the shards' settings: give it to each shard",
  compare: 'compare reads two population.json files, and nothing else',
  generate: 'generate writes synthetic users as JSON Lines, and nothing else',
  judge: 'it is an option of population generate',
};

/** An option given to a command that does not read it (`population merge --now …`), or undefined. */
export function unreadOptions(command: keyof typeof readBy | undefined, given: readonly string[]): string | undefined {
  const read: readonly string[] = command ? readBy[command] : ['users', 'seed'];
  const unread = given.find((option) => (command ? !read.includes(option) : read.includes(option)));
  return unread === undefined ? undefined : `--${unread}: population${command ? ` ${command}` : ''} does not read it; ${whyNot[command ?? 'judge']}`;
}

/** `population generate --out`: a file, never a folder, a pipe, a socket or a device (which it would replace). */
export function generateOutProblem(file: string): string | undefined {
  if (file.trim() === '') return '--out is empty; give a file for the users, or leave it out for standard output';
  if (existsSync(file) && statSync(file).isDirectory()) return `--out ${file}: that is a folder; name a file for the users`;
  const kind = special(file);
  if (kind) return `--out ${file}: that is ${kind}, which the file would replace; name a file, or leave --out out for standard output`;
  return unwritable('--out', file, 'leave --out out for standard output');
}

/** The run date: a real calendar day (2025-02-30 is none). */
export function dateProblem(date: string): string | undefined {
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(Date.parse(date)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
  if (!valid) return `--now ${date}: give a real date as YYYY-MM-DD`;
  // No one's ages are judged on a day before 1900, and generate's users, born up to 120 years before it, would have
  // years JavaScript's dates read as 19xx (below 100) or that YYYY-MM-DD cannot write (below 0).
  return date < '1900-01-01' ? `--now ${date}: give a date from 1900-01-01 on` : undefined;
}

/** Worker threads: each a heap of its own, so at most a few a core. */
export function workersProblem(workers: number): string | undefined {
  const most = Math.max(4, 4 * availableParallelism());
  return workers > most ? `--workers ${workers}: at most ${most} (${availableParallelism()} cores here); leave it out for one a core` : undefined;
}

/** The input and the funding answers: both there before either is read (a missing one would stop the run halfway). */
export function inputsProblem(input: string, funding: string | undefined): string | undefined {
  for (const [file, name] of [
    [input, 'population'],
    [funding, '--funding'],
  ] as const) {
    if (file !== undefined && file !== '-' && !existsSync(file)) return `${name}: no such file ${file}`;
  }
  if (input === '-' && funding === '-') return '--funding -: only one input can be standard input; give the funding file by name';
  // `population - < folder`: reading it gives nothing, which would be told as an empty export.
  if ((input === '-' || funding === '-') && fstatSync(0).isDirectory())
    return 'population -: standard input is a folder; give the export by name, or pipe it in (population - < users.jsonl)';
  return undefined;
}

/** PARTNER_CERTIFY_WORKER_HEAP_MB (population/worker-pool.ts): whole megabytes, at least the 24 a worker needs. */
export function heapProblem(value: string | undefined): string | undefined {
  if (value === undefined || (/^\d{1,6}$/.test(value) && Number(value) >= 24)) return undefined;
  return `PARTNER_CERTIFY_WORKER_HEAP_MB=${JSON.stringify(value).slice(1, 41).replace(/"$/, '')}: give whole megabytes, 24 or more (64 unless set), or leave it unset`;
}

/** Where a path really is: the real path of the nearest of it and its folders that is there, with the rest after it. */
const real = (file: string): string => {
  const there = nearestThere(file);
  return path.join(realpathSync(there), path.relative(there, path.resolve(file)));
};
const sameInode = (a: { dev: number; ino: number }, b: { dev: number; ino: number }) => a.dev === b.dev && a.ino === b.ino;

/** Two paths to one file: the same real path, or the same inode (a hard link). */
const sameFile = (a: string, b: string) => {
  if (real(a) === real(b)) return true;
  if (!existsSync(a) || !existsSync(b)) return false;
  const [x, y] = [statSync(a), statSync(b)];
  return x.dev === y.dev && x.ino === y.ino;
};
/** The input `file` is, named (`the input x`, `what standard input reads`), when it is one of `inputs` (`-`: standard input). */
function inputOf(file: string, inputs: readonly (string | undefined)[]): string | undefined {
  const input = inputs.find((one) => one !== undefined && one !== '-' && sameFile(one, file));
  if (input !== undefined) return `the input ${input}`;
  if (inputs.includes('-') && existsSync(file) && sameInode(fstatSync(0), statSync(file))) return 'what standard input reads';
  return undefined;
}
const inside = (file: string, folder: string) => {
  const relative = path.relative(real(folder), real(file));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

/**
 * The records file: a .csv or .jsonl file that is neither an input (it would be overwritten before it is read) nor in
 * the reports' folder (which is shared; the records file holds the users' ids).
 */
export function recordsOutProblem(file: string, { inputs, out }: { inputs: readonly (string | undefined)[]; out: string }): string | undefined {
  if (!recordsFormatOf(file)) return `--records-out ${file}: name a .csv or a .jsonl file`;
  if (existsSync(file) && statSync(file).isDirectory()) return `--records-out ${file}: that is a folder; name a .csv or a .jsonl file`;
  const kind = special(file);
  if (kind) return `--records-out ${file}: that is ${kind}, which the file would replace; name a .csv or a .jsonl file`;
  const cannot = unwritable('--records-out', file);
  if (cannot) return cannot;
  const input = inputOf(file, inputs);
  if (input) return `--records-out ${file}: that is ${input}, which it would overwrite; name another file`;
  if (inside(file, out) || sameFile(file, out))
    return `--records-out ${file}: that is in the reports' folder ${out}, which is shared; the records file holds your users' ids: keep it elsewhere`;
  return undefined;
}

/** --shard i/n, or why it is none. */
export function shardOf(value: string): { index: number; count: number } | string {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || index < 1 || count < 1 || index > count) return `--shard ${value}: give i/n with 1 ≤ i ≤ n, e.g. --shard 1/4`;
  if (count > 10_000) return `--shard ${value}: at most 10,000 shards`;
  return { index, count };
}

/** collectMissingAccountInfo as a partner's profile states it (false when none is given), or why the file says none. */
export function profileSetting(file: string | undefined): boolean | string {
  if (file === undefined) return false;
  const read = readSmallFile(file, 1024 * 1024);
  if ('problem' in read) return `--profile ${file}: ${read.problem}; give the partner's profile (partners/<name>.json), or --collect-missing-account-info`;
  const text = read.text;
  let profile: { collectMissingAccountInfo?: unknown; tokenExchangeUrl?: unknown } | undefined;
  try {
    profile = parseJsonc(text) as typeof profile;
  } catch {
    return `--profile ${file}: not a partner's profile; give partners/<name>.json`;
  }
  if (typeof profile !== 'object' || profile === null || Array.isArray(profile))
    return `--profile ${file}: not a JSON object; give the partner's profile (partners/<name>.json)`;
  // A partner's profile names its token endpoint; a report or another JSON file read as one would set nothing.
  if (!('tokenExchangeUrl' in profile)) return `--profile ${file}: not a partner's profile (it has no "tokenExchangeUrl"); give partners/<name>.json`;
  const setting = profile.collectMissingAccountInfo ?? false;
  if (typeof setting !== 'boolean') return `--profile ${file}: "collectMissingAccountInfo" is ${JSON.stringify(setting).slice(0, 40)}; write true or false`;
  return setting;
}

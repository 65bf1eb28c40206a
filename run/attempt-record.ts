import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { runFolder } from './run-dir';

/**
 * One attempt of one test, as its worker leaves it in the run's folder when the attempt ends: what the
 * certification is written from, whatever reporters the command names. Its annotations and attachments are
 * those the test handed Playwright (run/channel.ts reads them), masked at their source; the certification
 * reporter makes the same record of a merged blob's results, so a run and a merge are reported one way.
 */

export const attemptRecordVersion = 1;

const statuses = ['passed', 'failed', 'timedOut', 'skipped', 'interrupted'] as const;

const annotationSchema = z.strictObject({ type: z.string(), description: z.string().optional() });
const attachmentSchema = z.strictObject({ name: z.string(), contentType: z.string(), body: z.string().optional(), path: z.string().optional() });

export const attemptRecordSchema = z.strictObject({
  version: z.literal(attemptRecordVersion),
  project: z.string(),
  testId: z.string(),
  title: z.string(),
  retry: z.number().int().nonnegative(),
  /** The attempt's own output folder (traces, screens): the teardown masks it once more. */
  outputDir: z.string(),
  status: z.enum(statuses),
  durationMs: z.number().nonnegative(),
  errors: z.array(z.string()),
  annotations: z.array(annotationSchema),
  attachments: z.array(attachmentSchema),
});

export type AttemptRecord = z.infer<typeof attemptRecordSchema>;

/** The run folder's place for one project's attempts; undefined outside a run. */
export const attemptsFolder = (project: string): string | undefined => runFolder(path.join('attempts', encodeURIComponent(project)));

/**
 * An attachment as a record keeps it: its name and file, and a JSON body, where a test's probe record travels
 * (run/channel.ts reads nothing else from a body); screens and traces are files.
 */
export const attachmentRecord = ({ name, contentType, body, path: file }: { name: string; contentType: string; body?: Buffer | string; path?: string }) => ({
  name,
  contentType,
  ...(body && contentType === 'application/json' ? { body: body.toString() } : {}),
  ...(file ? { path: file } : {}),
});

const fileOf = (dir: string, attempt: Pick<AttemptRecord, 'testId' | 'retry'>) => path.join(dir, `${encodeURIComponent(attempt.testId)}-${attempt.retry}.json`);
const begunSuffix = '.begun';

/** Marks an attempt as begun: one that never ends (a worker that died, a run stopped) did not finish. */
export function markBegun(dir: string, attempt: Pick<AttemptRecord, 'project' | 'testId' | 'title' | 'retry' | 'outputDir'>): void {
  writeFileSync(`${fileOf(dir, attempt)}${begunSuffix}`, JSON.stringify(attempt), { mode: 0o600 });
}

export function writeAttempt(dir: string, attempt: AttemptRecord): void {
  writeFileSync(fileOf(dir, attempt), JSON.stringify(attempt), { mode: 0o600 });
}

/**
 * Every attempt of a folder, in the order they ran (by retry); an attempt begun and never ended is
 * `interrupted`, and one whose record does not parse is named in `errors`.
 */
export function readAttempts(dir: string): { attempts: AttemptRecord[]; errors: string[] } {
  const attempts: AttemptRecord[] = [];
  const errors: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { attempts, errors };
  }
  const ended = new Set(names.filter((name) => name.endsWith('.json')));
  for (const name of names) {
    const file = path.join(dir, name);
    if (name.endsWith(begunSuffix)) {
      if (ended.has(name.slice(0, -begunSuffix.length))) continue;
      const begun = parsed(file, beganSchema);
      if ('value' in begun)
        attempts.push({ ...begun.value, version: attemptRecordVersion, status: 'interrupted', durationMs: 0, errors: [], annotations: [], attachments: [] });
      continue;
    }
    const read = parsed(file, attemptRecordSchema);
    if ('value' in read) attempts.push(read.value);
    else errors.push(`${decodeURIComponent(name)}: ${read.error}`);
  }
  return { attempts: attempts.sort((a, b) => a.retry - b.retry), errors };
}

const beganSchema = attemptRecordSchema.pick({ project: true, testId: true, title: true, retry: true, outputDir: true });

function parsed<T>(file: string, schema: z.ZodType<T>): { value: T } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { error: `its attempt record is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const result = schema.safeParse(value);
  if (result.success) return { value: result.data };
  return {
    error: `its attempt record does not parse: ${result.error.issues
      .slice(0, 3)
      .map((issue) => `"${issue.path.join('.')}" ${issue.message}`)
      .join('; ')}`,
  };
}

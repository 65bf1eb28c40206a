import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseJson } from '../checks/evidence';
import { certificationSchema, type Certification } from './certification-schema';
import type { Egress } from '../run/egress';

/**
 * Every run's certification.json, kept: `<history>/<partner>/<finishedAt>.json`. The folder is
 * CERTIFY_HISTORY_DIR; by default reports/history beside reports/out, or `history/` inside a report folder
 * moved elsewhere (CERTIFICATION_REPORT_DIR=/tmp/x keeps it in /tmp/x, not in /tmp). A run's previous run
 * is the newest readable entry of its partner (recentRuns), so comparing needs no --compare.
 */
export function historyDirOf(outputDir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.CERTIFY_HISTORY_DIR) return path.resolve(env.CERTIFY_HISTORY_DIR);
  const out = path.resolve(outputDir);
  return out === path.resolve(defaultReportDir) ? path.join(path.dirname(out), 'history') : path.join(out, 'history');
}

export const defaultReportDir = 'reports/out';

const fileOf = (finishedAt: string) => `${finishedAt.replace(/:/g, '-')}.json`;

/** The partner's entries, oldest first (the names sort as their times do). */
function entries(historyDir: string, partner: string): string[] {
  const dir = path.join(historyDir, partner);
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** A certification.json's text as a certification, or why it is not one (`name` says which file). */
export function parseCertification(text: string, name: string): { certification?: Certification; problem?: string } {
  const json = parseJson(text);
  const parsed = certificationSchema.safeParse(json.ok ? json.value : undefined);
  if (parsed.success) return { certification: parsed.data };
  return { problem: `${name} is not a certification.json (${json.ok ? (parsed.error.issues[0]?.message ?? 'invalid') : json.error})` };
}

/** A certification.json file, or why it is not one. */
export function readCertification(file: string): { certification?: Certification; problem?: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { problem: `cannot read ${file} (${error instanceof Error ? error.message : String(error)})` };
  }
  return parseCertification(text, file);
}

/** Clocks of CI machines disagree a little: a run that finished up to this long "from now" is not from the future. */
const clockSkewMs = 5 * 60 * 1000;

/**
 * A history entry, or why it is not this partner's run: the history is a folder anyone
 * with the CI cache can write to, so an entry counts only when it parses as a certification, names this
 * partner, is filed under its own finish time, and did not finish in the future.
 */
export function historyEntry(file: string, partner: string, now: Date): { certification?: Certification; problem?: string } {
  const read = readCertification(file);
  const { certification } = read;
  if (!certification) return read;
  if (certification.run.partner !== partner) return { problem: `${file} is a run of ${JSON.stringify(certification.run.partner)}, not of ${partner}` };
  if (path.basename(file) !== fileOf(certification.run.finishedAt))
    return { problem: `${file} is not named after the run's finish (${certification.run.finishedAt})` };
  if (Date.parse(certification.run.finishedAt) > now.getTime() + clockSkewMs)
    return { problem: `${file} finished in the future (${certification.run.finishedAt})` };
  return { certification };
}

/**
 * The partner's last `n` runs, oldest first. An entry that is not this partner's run (historyProblem) is
 * passed over, and named through `warn`.
 */
export function recentRuns(
  historyDir: string,
  partner: string,
  n: number,
  { now = new Date(), warn }: { now?: Date; warn: (line: string) => void },
): Certification[] {
  const runs: Certification[] = [];
  const problems: string[] = [];
  const all = entries(historyDir, partner);
  for (let i = all.length - 1; i >= 0 && runs.length < n; i--) {
    const { certification, problem } = historyEntry(all[i]!, partner, now);
    if (certification) runs.unshift(certification);
    else problems.push(problem ?? all[i]!);
  }
  // One line, however many: a history of 10,000 bad entries must not flood the console.
  if (problems.length > 0)
    warn(
      `history: ${problems.length === 1 ? 'an entry is' : `${problems.length} entries are`} left out of the comparison and the overview: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`,
    );
  return runs;
}

/** Keeps the run in the partner's history: its certification.json, byte for byte as the egress wrote it. */
export async function keepRun(historyDir: string, { json, certification }: { json: string; certification: Certification }, egress: Egress): Promise<void> {
  await egress.writeFiles(path.join(historyDir, certification.run.partner), {}, () => ({ [fileOf(certification.run.finishedAt)]: json }));
}

/**
 * The run `--compare` names: a certification.json, or a folder holding `<partner>/certification.json`.
 * Says why on the console when it cannot be read: the report is written without the comparison.
 */
export function comparedRun(compare: string, partner: string, warn: (line: string) => void): Certification | undefined {
  let file = path.resolve(compare);
  if (existsSync(file) && statSync(file).isDirectory()) {
    const inProject = path.join(file, partner, 'certification.json');
    file = existsSync(inProject) ? inProject : path.join(file, 'certification.json');
  }
  const { certification, problem } = readCertification(file);
  if (problem) warn(`--compare: ${problem}; the report is written without a comparison`);
  return certification;
}

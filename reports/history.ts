import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { certificationSchema, type Certification } from './certification-schema';

/**
 * Every run's certification.json, kept: `<history>/<partner>/<finishedAt>.json`. The folder is
 * CERTIFY_HISTORY_DIR; by default reports/history beside reports/out, or `history/` inside a report folder
 * moved elsewhere (CERTIFICATION_REPORT_DIR=/tmp/x keeps it in /tmp/x, not in /tmp). A run's previous run
 * is the newest entry of its partner, so comparing needs no --compare.
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
    return readdirSync(dir).filter((name) => name.endsWith('.json')).sort().map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** A certification.json, or why it is not one. */
export function readCertification(file: string): { certification?: Certification; problem?: string } {
  try {
    const parsed = certificationSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? { certification: parsed.data } : { problem: `${file} is not a certification.json (${parsed.error.issues[0]?.message ?? 'invalid'})` };
  } catch (error) {
    return { problem: `cannot read ${file} (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The partner's last `n` readable runs, oldest first: an entry that cannot be read is passed over. */
export function recentRuns(historyDir: string, partner: string, n: number): Certification[] {
  const runs: Certification[] = [];
  const all = entries(historyDir, partner);
  for (let i = all.length - 1; i >= 0 && runs.length < n; i--) {
    const { certification } = readCertification(all[i]!);
    if (certification) runs.unshift(certification);
  }
  return runs;
}

export const previousRun = (historyDir: string, partner: string): Certification | undefined => recentRuns(historyDir, partner, 1)[0];

/** Keeps the run in the partner's history: its certification.json, byte for byte as written (masked). */
export function keepRun(historyDir: string, json: string, certification: Certification): string {
  const dir = path.join(historyDir, certification.run.partner);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, fileOf(certification.run.finishedAt));
  writeFileSync(file, json);
  return file;
}

/**
 * The run `--compare` names: a certification.json, or a folder holding `<partner>/certification.json`.
 * Says why on the console when it cannot be read: the report is written without the comparison.
 */
export function comparedRun(compare: string, partner: string): Certification | undefined {
  let file = path.resolve(compare);
  if (existsSync(file) && statSync(file).isDirectory()) {
    const inProject = path.join(file, partner, 'certification.json');
    file = existsSync(inProject) ? inProject : path.join(file, 'certification.json');
  }
  const { certification, problem } = readCertification(file);
  if (problem) console.warn(`--compare: ${problem}; the report is written without a comparison`);
  return certification;
}

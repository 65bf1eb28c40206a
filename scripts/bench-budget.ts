/**
 * The budget: each whole-run figure beside its goal (issue 51) and, with `BENCH_AGAINST=<commit>`, beside the same
 * figure for that commit, measured in this session in alternating runs (A B A B), wall time and CPU-seconds (CPU holds
 * better on a busy machine). The commit is checked out in a temporary worktree that shares this clone's
 * node_modules, so both run the same Playwright and the same sandbox. Alone: `npx tsx scripts/bench-budget.ts`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureSandbox, httpSuites, median } from './bench-support';

interface Cost {
  wallMs: number;
  cpuMs: number;
}
export interface BudgetRow {
  figure: string;
  goal: string;
  now: Cost;
  before?: Cost;
}

/** A nested `playwright test` in `cwd`, as one whole process tree: its wall time and the CPU time of all it waited for. */
async function wholeRun(cwd: string, args: readonly string[], env: Record<string, string>): Promise<Cost> {
  const reports = mkdtempSync(path.join(os.tmpdir(), 'bench-budget-'));
  const command = [process.execPath, path.join(cwd, 'node_modules/@playwright/test/cli.js'), 'test', '--reporter=dot', ...args]
    .map((word) => `'${word.replaceAll("'", `'\\''`)}'`)
    .join(' ');
  const started = performance.now();
  // bash's `times` prints the CPU of the children it waited for: Playwright, its workers, Chromium.
  const child = spawn('bash', ['-c', `${command} >/dev/null 2>&1; status=$?; times; exit $status`], {
    cwd,
    env: { ...process.env, ...env, CERTIFICATION_REPORT_DIR: reports, PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(reports, 'html') },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = performance.now() - started;
  rmSync(reports, { recursive: true, force: true });
  if (status !== 0) throw new Error(`playwright test ${args.join(' ')} in ${cwd} exited ${status}; run it alone to see why`);
  const seconds = (text: string) => [...text.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, m, s]) => sum + Number(m) * 60 + Number(s), 0);
  return { wallMs, cpuMs: seconds(out.trim().split('\n').at(-1) ?? '') * 1000 };
}

/** `ref` checked out beside this clone, sharing its node_modules; and how to remove it. */
function worktreeAt(ref: string): { dir: string; remove(): void } {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-against-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { stdio: 'ignore' });
  symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  return {
    dir,
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { stdio: 'ignore' });
      rmSync(path.dirname(dir), { recursive: true, force: true });
    },
  };
}

/** A fleet of `size` copies of the reference profile, all suites, in a folder of `cwd`'s profiles of its own. */
function fleetFolder(cwd: string, size: number): { projects: string[]; dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-budget-fleet-'));
  const reference = JSON.parse(readFileSync(path.join(cwd, 'partners/reference.json'), 'utf8')) as { platform: object };
  const projects = Array.from({ length: size }, (_, i) => `fleet-${String(i + 1).padStart(3, '0')}`);
  for (const name of projects)
    writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ ...reference, platform: { ...reference.platform, partnerName: name } }));
  return { projects, dir };
}

const figures: readonly { figure: string; goal: string; args?: readonly string[]; fleet?: number }[] = [
  { figure: 'reference, all suites with the browser', goal: '≤ 7 s', args: ['--project=reference'] },
  { figure: 'reference, HTTP suites', goal: '—', args: ['--project=reference', ...httpSuites] },
  { figure: "reference-app, all suites and the partner's page", goal: '≤ all suites + 3 s', args: ['--project=reference-app'] },
  { figure: 'a fleet of 10, all suites with the browser', goal: '≤ 2 × one partner', fleet: 10 },
];

/** Every figure, `runs` times in each tree, the trees alternating. */
export async function budget(runs: number, against = process.env.BENCH_AGAINST): Promise<BudgetRow[]> {
  const base = against ? worktreeAt(against) : undefined;
  try {
    const rows: BudgetRow[] = [];
    for (const spec of figures) {
      const trees = [process.cwd(), ...(base ? [base.dir] : [])];
      const costs = trees.map(() => [] as Cost[]);
      for (let run = 0; run < runs; run++)
        for (const [index, cwd] of trees.entries()) {
          const fleet = spec.fleet ? fleetFolder(cwd, spec.fleet) : undefined;
          const args = fleet ? fleet.projects.map((name) => `--project=${name}`) : (spec.args ?? []);
          costs[index]!.push(await wholeRun(cwd, args, fleet ? { PARTNERS_DIR: fleet.dir } : {}));
          if (fleet) rmSync(fleet.dir, { recursive: true, force: true });
        }
      const middle = (list: Cost[]) => ({ wallMs: median(list.map((cost) => cost.wallMs)), cpuMs: median(list.map((cost) => cost.cpuMs)) });
      rows.push({ figure: spec.figure, goal: spec.goal, now: middle(costs[0]!), ...(base ? { before: middle(costs[1]!) } : {}) });
    }
    return rows;
  } finally {
    base?.remove();
  }
}

export function printBudget(rows: readonly BudgetRow[], runs: number, against = process.env.BENCH_AGAINST) {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `\nthe budget: whole runs, median of ${runs}${against ? `, alternating with ${against} (before)` : ' (BENCH_AGAINST=<commit> adds the commit before)'}\n`,
  );
  console.log(
    `${'figure'.padEnd(52)} ${'goal'.padStart(18)} ${'wall'.padStart(8)} ${'CPU'.padStart(8)}${against ? `${'wall before'.padStart(12)} ${'CPU before'.padStart(11)}` : ''}`,
  );
  for (const { figure, goal, now, before } of rows)
    console.log(
      `${figure.padEnd(52)} ${goal.padStart(18)} ${s(now.wallMs).padStart(8)} ${s(now.cpuMs).padStart(8)}${before ? `${s(before.wallMs).padStart(12)} ${s(before.cpuMs).padStart(11)}` : ''}`,
    );
}

if (require.main === module) {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  void ensureSandbox().then(async (stop) => {
    printBudget(await budget(runs), runs);
    await stop();
  });
}

/**
 * The budget: each whole-run figure beside its goal (issue 51) and, with `BENCH_AGAINST=<commit>`, beside the same
 * figure for that commit, measured in this session in alternating runs (A B A B), wall time and CPU-seconds (CPU holds
 * better on a busy machine). The commit is checked out in a temporary worktree that shares this clone's
 * node_modules, so both run the same Playwright and the same sandbox. Alone: `npx tsx scripts/bench-budget.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureSandbox, httpSuites, median, wholeRun, type Cost } from './bench-support';
import { fleetProfiles } from './bench-fleet';

export interface BudgetRow {
  figure: string;
  goal: string;
  now: Cost;
  before?: Cost;
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
          const fleet = spec.fleet ? fleetProfiles(spec.fleet, { browser: true, cwd }) : undefined;
          const args = fleet ? fleet.names.map((name) => `--project=${name}`) : (spec.args ?? []);
          costs[index]!.push(await wholeRun(cwd, args, fleet ? { PARTNERS_DIR: fleet.dir } : {}));
          if (fleet) rmSync(fleet.dir, { recursive: true, force: true });
        }
      const middle = (list: Cost[]): Cost => ({
        wallMs: median(list.map((cost) => cost.wallMs)),
        cpuMs: median(list.map((cost) => cost.cpuMs)),
        cpuSource: list[0]!.cpuSource,
      });
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
  const source = rows[0]?.now.cpuSource;
  console.log(
    source === 'times'
      ? "CPU: the processes bash reaped only (no cgroup could be made: run as root on Linux to count Chromium's renderers)"
      : 'CPU: every process of the run, counted in a cgroup of its own',
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

/**
 * The fleet: N copies of the reference profile certified in one run, as the integration team recertifies
 * every live partner. Reported as the wall time of each size and the cost of each extra partner. Alone:
 * `npx tsx scripts/bench-fleet.ts` (BENCH_FLEET, BENCH_FLEET_BROWSER: the sizes; BENCH_FLEET_RUNS).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureSandbox, playwright, timed } from './bench-support';

export interface FleetFigures {
  browser: boolean;
  runs: number;
  sizes: { partners: number; wallMs: number }[];
  /** (wall time of the largest fleet − that of one partner) / (its size − 1). */
  perExtraPartnerMs: number;
}

const sizesOf = (value: string | undefined, fallback: string) =>
  (value ?? fallback)
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);

/**
 * `size` copies of the clone at `cwd`'s reference profile, each under a partner name of its own, in a folder of
 * their own (PARTNERS_DIR); without `browser` they have no "platform" and no "dataApi", so only the HTTP suites run.
 */
export function fleetProfiles(size: number, { browser, cwd = '.' }: { browser: boolean; cwd?: string }): { dir: string; names: string[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-fleet-'));
  const reference = JSON.parse(readFileSync(path.join(cwd, 'partners/reference.json'), 'utf8')) as { platform: { partnerName: string }; dataApi?: unknown };
  const names = Array.from({ length: size }, (_, i) => `fleet-${String(i + 1).padStart(3, '0')}`);
  const { platform, dataApi, ...http } = reference;
  for (const name of names)
    writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(browser ? { ...http, platform: { ...platform, partnerName: name }, dataApi } : http));
  return { dir, names };
}

/**
 * Without `browser`, the copies have no "platform" and no "dataApi", so only the HTTP suites run; with
 * it, each copy is the whole reference profile under a partner name of its own.
 */
export async function fleetCost(sizes: readonly number[], { browser, runs }: { browser: boolean; runs: number }): Promise<FleetFigures> {
  const { dir, names } = fleetProfiles(Math.max(...sizes), { browser });
  const measured = [];
  for (const partners of sizes) measured.push({ partners, wallMs: await timed(playwright([], names.slice(0, partners), { PARTNERS_DIR: dir }), runs) });
  rmSync(dir, { recursive: true, force: true });
  const [first, last] = [measured[0]!, measured.at(-1)!];
  const perExtraPartnerMs = last.partners > first.partners ? Math.round((last.wallMs - first.wallMs) / (last.partners - first.partners)) : 0;
  return { browser, runs, sizes: measured, perExtraPartnerMs };
}

/** The fleet figures of BENCH_FLEET (HTTP suites) and BENCH_FLEET_BROWSER (all suites), 1, 10 and 40 unless set. */
export async function fleets(): Promise<FleetFigures[]> {
  const runs = Number(process.env.BENCH_FLEET_RUNS ?? 1);
  const http = sizesOf(process.env.BENCH_FLEET, '1,10,40');
  const browser = sizesOf(process.env.BENCH_FLEET_BROWSER, '1,10,40');
  return [
    ...(http.length ? [await fleetCost(http, { browser: false, runs })] : []),
    ...(browser.length ? [await fleetCost(browser, { browser: true, runs })] : []),
  ];
}

export function printFleets(figures: readonly FleetFigures[]) {
  for (const { browser, runs, sizes, perExtraPartnerMs } of figures) {
    console.log(
      `\nfleet: N copies of the reference profile in one run, ${browser ? 'all suites (browser included)' : 'HTTP suites only (no platform, no data API)'}, median of ${runs}\n`,
    );
    console.log(`${'partners'.padEnd(10)} ${'wall time'.padStart(11)} ${'per partner'.padStart(12)}`);
    for (const { partners, wallMs } of sizes)
      console.log(
        `${String(partners).padEnd(10)} ${`${(wallMs / 1000).toFixed(1)} s`.padStart(11)} ${`${(wallMs / partners / 1000).toFixed(2)} s`.padStart(12)}`,
      );
    console.log(`each extra partner adds ${(perExtraPartnerMs / 1000).toFixed(2)} s`);
  }
}

if (require.main === module) {
  void ensureSandbox().then(async (stop) => {
    printFleets(await fleets());
    await stop();
  });
}

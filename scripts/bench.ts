/**
 * `npm run bench`: wall time and partner requests of a reference certification. Prints a table and
 * writes reports/out/bench.json. Not a test: it measures, it does not judge.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadProfile } from '../partners/profile';
import { runProbes } from '../probes/certification';
import { buildReferencePartner } from '../sandbox/reference-partner/server';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const origin = 'http://127.0.0.1:4400';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const partnerRequests = async () => ((await (await fetch(`${origin}/test-hooks/stats`)).json()) as { requests: number }).requests;

// The playwright runs below reuse this sandbox (reuseExistingServer), so its request counter sees them.
const sandbox = buildReferencePartner();
const started = await fetch(`${origin}/health`).then(() => false, async () => (await sandbox.listen({ host: '127.0.0.1', port: 4400 }), true));

async function measure(label: string, run: () => Promise<void> | void) {
  const walls: number[] = [];
  const requests: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = await partnerRequests();
    const t0 = performance.now();
    await run();
    walls.push(performance.now() - t0);
    requests.push((await partnerRequests()) - before);
  }
  return { label, medianMs: Math.round(median(walls)), minMs: Math.round(Math.min(...walls)), requests: median(requests) };
}

const profile = loadProfile('partners/reference.json').profile!.profile;
const probesOnly = await measure('probes in-process (all in parallel)', async () => {
  await runProbes(profile);
});
// Asynchronous on purpose: the sandbox above lives in this process and must keep answering.
const certification = await measure('npx playwright test --project=reference', async () => {
  const child = spawn(process.execPath, [path.resolve('node_modules/@playwright/test/cli.js'), 'test', '--project=reference', '--reporter=dot'], { stdio: 'ignore' });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (status !== 0) throw new Error('the reference certification failed; run it alone to see why');
});

const rows = [probesOnly, certification];
const conditions = { runs, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, partner: 'reference sandbox on loopback, no injected latency', workers: 4 };
console.log(`\nreference certification, median of ${runs} runs (${conditions.cpus} cores, ${conditions.node}, ${conditions.partner})\n`);
console.log(`${'what'.padEnd(44)} ${'median'.padStart(8)} ${'min'.padStart(8)} ${'partner requests'.padStart(17)}`);
for (const row of rows) console.log(`${row.label.padEnd(44)} ${`${row.medianMs} ms`.padStart(8)} ${`${row.minMs} ms`.padStart(8)} ${String(row.requests).padStart(17)}`);
mkdirSync('reports/out', { recursive: true });
writeFileSync('reports/out/bench.json', JSON.stringify({ at: new Date().toISOString(), conditions, rows }, null, 2));
console.log('\nwrote reports/out/bench.json');
if (started) await sandbox.close();

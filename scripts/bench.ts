// `npm run bench`: wall time and partner requests of a reference certification, and what the parts cost. Prints tables
// and writes reports/out/bench.json. Not a test: it measures, it does not judge.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { accountInfoFieldRules } from '../checks/account-info';
import { evaluateAll } from '../checks/finding';
import type { Payload } from '../checks/payload';
import { accountInfoResource } from '../checks/resources';
import { loadProfile } from '../partners/profile';
import { runProbes } from '../probes/certification';
import { faultCatalogue, faultNames, type FaultSpec } from '../sandbox/reference-partner/faults';
import { dataApiClient } from '../client/data-api';
import { buildPlatform, platformSandbox } from '../sandbox/platform/server';
import { bodyOf } from '../sandbox/reference-partner/resources';
import { buildReferencePartner } from '../sandbox/reference-partner/server';
import { loadEmulator } from './load';
import { redact } from '../redaction/redact';
import { secretsOf } from '../redaction/secrets';
import { sandboxHost } from '../sandbox/sandbox';
import { ensureSandbox, httpSuites, median, playwright, sandboxOrigin as origin, timed as timedRuns } from './bench-support';
import { fleets, printFleets } from './bench-fleet';
import { populationFigures, printPopulation } from './bench-population';
import { budget, printBudget } from './bench-budget';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const partnerRequests = async () => ((await (await fetch(`${origin}/test-hooks/stats`)).json()) as { requests: number }).requests;

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

/**
 * Account-information validations per second on this one thread: every field rule plus the null rule
 * on one freshly parsed payload (parsing is done beforehand, outside the timing).
 */
function validationsPerSecond(texts: string[], rounds = 6, batch = 10_000): number {
  const ctx = { now: new Date(), collectMissingAccountInfo: false };
  let count = 0;
  let ms = 0;
  for (let round = 0; round < rounds; round++) {
    const payloads = Array.from({ length: batch }, (_, i) => JSON.parse(texts[i % texts.length]!) as Payload);
    const t0 = performance.now();
    for (const payload of payloads) {
      evaluateAll(accountInfoFieldRules, payload, ctx);
      evaluateAll([accountInfoResource.nullValues], payload, undefined);
    }
    // The first round warms up (ajv compiles each fragment on first use).
    if (round > 0) [count, ms] = [count + batch, ms + performance.now() - t0];
  }
  return Math.round(count / (ms / 1000));
}
/**
 * Latency sensitivity: the same certification against two reference partners of the bench's own, one
 * answering at once and one 200 ms later (every route, code minting included); the platform emulator
 * calls the slow one too. The added wall time per 100 ms of partner latency counts the round trips on
 * the critical path: 1 s per 100 ms is about 10 sequential round trips.
 */
async function latencySensitivity(latencies: readonly number[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-partners-'));
  const partners = await Promise.all(
    latencies.map(async (latencyMs) => {
      const app = buildReferencePartner({ latencyMs });
      await app.listen({ host: sandboxHost, port: 0 });
      const partnerOrigin = `http://${sandboxHost}:${(app.server.address() as AddressInfo).port}`;
      const name = `latency-${latencyMs}ms`;
      const file = path.join(dir, `${name}.json`);
      const reference = JSON.parse(readFileSync('partners/reference.json', 'utf8')) as { platform: object };
      writeFileSync(file, JSON.stringify({ ...reference, platform: { ...reference.platform, partnerName: name } }).replaceAll(origin, partnerOrigin));
      return { latencyMs, name, app, partnerOrigin, profile: loadProfile(file).profile!.profile };
    }),
  );
  const env = { PARTNERS_DIR: dir };
  const measured = [];
  for (const { latencyMs, name, profile, partnerOrigin } of partners) {
    measured.push({
      latencyMs,
      probesMs: await timed(() => runProbes(profile)),
      httpSuitesMs: await timed(playwright(httpSuites, name, env)),
      allSuitesMs: await timed(playwright([], name, env)),
      // How old the oldest code was when the partner exchanged it, over all these runs: what a partner
      // whose codes live 60 s would have refused (the harness drops minted codes older than 30 s).
      oldestCodeSpentMs: ((await (await fetch(`${partnerOrigin}/test-hooks/stats`)).json()) as { oldestCodeSpentMs: number }).oldestCodeSpentMs,
    });
  }
  await Promise.all(partners.map(({ app }) => app.close()));
  rmSync(dir, { recursive: true, force: true });
  const [fast, slow] = [measured[0]!, measured.at(-1)!];
  const per100 = (key: 'probesMs' | 'httpSuitesMs' | 'allSuitesMs') => Math.round(((slow[key] - fast[key]) / (slow.latencyMs - fast.latencyMs)) * 100);
  return { measured, addedPer100Ms: { probesMs: per100('probesMs'), httpSuitesMs: per100('httpSuitesMs'), allSuitesMs: per100('allSuitesMs') } };
}

const timed = (run: () => Promise<unknown>) => timedRuns(run, runs);

// The data API: the typed client walks one organization's bills with limit=100, on an emulator of its own.
async function dataApiWalk(bills: number) {
  const platform = buildPlatform({ dataSeed: { organizations: 1, bills } });
  await platform.listen({ host: sandboxHost, port: 0 });
  const baseUrl = `http://${sandboxHost}:${(platform.server.address() as AddressInfo).port}`;
  const api = dataApiClient({ baseUrl, token: platformSandbox.dataApiToken });
  const walls: number[] = [];
  let walked = 0;
  let pages = 0;
  // Round 0 warms up (JIT, sockets) and is not counted.
  for (let i = 0; i <= runs; i++) {
    [walked, pages] = [0, 0];
    const t0 = performance.now();
    for await (const page of api.pages('bills', { organizationId: 'org_0001', limit: 100 })) {
      walked += page.items.length;
      pages++;
    }
    if (i > 0) walls.push(performance.now() - t0);
  }
  await platform.close();
  const ms = median(walls);
  return { bills, walked, requests: pages, medianMs: Math.round(ms), requestsPerSecond: Math.round(pages / (ms / 1000)) };
}
/**
 * Masking throughput: redact() on 1 MiB and 4 MiB of three kinds of text, with 50 secrets. The ratio of
 * the two sizes shows it linear (about 4) whatever the text holds.
 */
function maskingThroughput() {
  const secrets = secretsOf(
    [],
    Array.from({ length: 50 }, (_, i) => `secret-${i}-${'x'.repeat(i % 7)}Zq8+/x"Y=kP3mN7vR2tW9s${i}`),
  );
  const kinds: Record<string, string> = {
    'prose, no secret': 'the token exchange answered 400 with invalid_grant; send the code once. ',
    'JSON full of escapes': '{\\"a\\":\\"\\u00e9%20&amp;+\\/\\"},',
    'dense with secret fragments': `${secrets[7]!.value.slice(0, 12)} ${encodeURIComponent(secrets[9]!.value).slice(0, 14)} `,
  };
  return Object.entries(kinds).map(([label, unit]) => {
    const time = (mib: number) => {
      const text = unit.repeat(Math.ceil((mib * 1024 * 1024) / unit.length));
      const walls = Array.from({ length: runs }, () => {
        const t0 = performance.now();
        redact(text, secrets);
        return performance.now() - t0;
      });
      return median(walls);
    };
    const [one, four] = [time(1), time(4)];
    return { label, msPerMiB: Math.round(one), ratio4to1: Number((four / one).toFixed(2)) };
  });
}

async function main() {
  const stopSandbox = await ensureSandbox();

  const today = new Date();
  const complete = JSON.stringify(bodyOf('account-info', 'complete', today, new Set()));
  const faulty = faultNames
    .filter((fault) => (faultCatalogue[fault] as FaultSpec).account)
    .map((fault) => JSON.stringify(bodyOf('account-info', 'complete', today, new Set([fault]))));
  // US phone verdicts are remembered per distinct number; 10,000 distinct numbers defeat that.
  const distinctPhones = Array.from({ length: 10_000 }, (_, i) => complete.replace('212-555-0142', `212-555-${String(i).padStart(4, '0')}`));
  const validations = [
    { label: 'complete user', perSecond: validationsPerSecond([complete]) },
    { label: `rotation through ${faulty.length} account faults`, perSecond: validationsPerSecond(faulty) },
    { label: 'complete user, every phone number new', perSecond: validationsPerSecond(distinctPhones) },
  ];

  const profile = loadProfile('partners/reference.json').profile!.profile;
  const probesOnly = await measure('probes in-process (all in parallel)', async () => {
    await runProbes(profile);
  });
  const withoutBrowser = await measure('playwright, HTTP suites only', playwright(httpSuites));
  const certification = await measure('playwright, all suites (browser included)', playwright([]));

  // What the partner's own app (four loads of its page) and a second platform (Ledgerly, with the app
  // embedding it) add to the run above: the same partner, the same sandbox.
  const withApp = await measure('all suites + the partner app (reference-app)', playwright([], 'reference-app'));
  const viaLedgerly = await measure('all suites through Ledgerly + the app', playwright([], 'reference-ledgerly'));

  const rows = [probesOnly, withoutBrowser, certification, withApp, viaLedgerly];

  const latency = await latencySensitivity([0, 200]);
  const walks = [await dataApiWalk(100_000), await dataApiWalk(200_000)];
  const linearity = Number((walks[1]!.medianMs / walks[0]!.medianMs).toFixed(2));
  const masking = maskingThroughput();
  const fleet = await fleets();
  const population = populationFigures();
  const conditions = {
    runs,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    node: process.version,
    partner: 'reference sandbox on loopback, no injected latency',
    workers: 4,
  };
  console.log(`\nreference certification, median of ${runs} runs (${conditions.cpus} cores, ${conditions.node}, ${conditions.partner})\n`);
  console.log(`${'what'.padEnd(44)} ${'median'.padStart(8)} ${'min'.padStart(8)} ${'partner requests'.padStart(17)}`);
  for (const row of rows)
    console.log(`${row.label.padEnd(44)} ${`${row.medianMs} ms`.padStart(8)} ${`${row.minMs} ms`.padStart(8)} ${String(row.requests).padStart(17)}`);
  console.log(`\naccount-information validations per second, one thread (${accountInfoFieldRules.length + 1} rules per payload)\n`);
  for (const row of validations) console.log(`${row.label.padEnd(44)} ${row.perSecond.toLocaleString('en-US').padStart(10)} /s`);
  console.log(`\ndata API: the typed client walks one organization's bills, limit=100, median of ${runs} (client and emulator in one process)\n`);
  console.log(`${'bills'.padEnd(10)} ${'requests'.padStart(9)} ${'median'.padStart(10)} ${'requests/s'.padStart(11)}`);
  for (const w of walks)
    console.log(
      `${w.walked.toLocaleString('en-US').padEnd(10)} ${String(w.requests).padStart(9)} ${`${w.medianMs} ms`.padStart(10)} ${String(w.requestsPerSecond).padStart(11)}`,
    );
  console.log(`200,000 bills take ${linearity}× the time of 100,000 (linear: about 2)`);
  console.log(`\nlatency sensitivity: a reference partner answering after 0 ms and after 200 ms, median of ${runs}\n`);
  console.log(
    `${'partner latency'.padEnd(16)} ${'probes in-process'.padStart(18)} ${'HTTP suites'.padStart(12)} ${'all suites'.padStart(11)} ${'oldest code spent'.padStart(18)}`,
  );
  for (const m of latency.measured)
    console.log(
      `${`${m.latencyMs} ms`.padEnd(16)} ${`${m.probesMs} ms`.padStart(18)} ${`${m.httpSuitesMs} ms`.padStart(12)} ${`${m.allSuitesMs} ms`.padStart(11)} ${`${(m.oldestCodeSpentMs / 1000).toFixed(1)} s`.padStart(18)}`,
    );
  const added = latency.addedPer100Ms;
  console.log(
    `${'added per 100 ms'.padEnd(16)} ${`${added.probesMs} ms`.padStart(18)} ${`${added.httpSuitesMs} ms`.padStart(12)} ${`${added.allSuitesMs} ms`.padStart(11)}   (target: 1000 ms or less)`,
  );
  const load = await loadEmulator({ durationS: 10, connections: 10 });
  console.log(`\nload: autocannon on loopback, 10 connections for 10 s each, against an emulator in this process\n`);
  console.log(`${'what'.padEnd(52)} ${'requests'.padStart(9)} ${'req/s'.padStart(7)} ${'p99'.padStart(7)} ${'errors'.padStart(7)} ${'5xx'.padStart(5)}`);
  for (const l of load)
    console.log(
      `${l.label.padEnd(52)} ${String(l.requests).padStart(9)} ${String(l.requestsPerSecond).padStart(7)} ${`${l.p99Ms} ms`.padStart(7)} ${String(l.errors + l.non2xx).padStart(7)} ${String(l.server5xx).padStart(5)}`,
    );
  console.log(`\nmasking: redact() with 50 secrets, median of ${runs}; 4 MiB over 1 MiB shows it linear (about 4)\n`);
  for (const m of masking) console.log(`${m.label.padEnd(32)} ${`${m.msPerMiB} ms per MiB`.padStart(16)} ${`${m.ratio4to1}×`.padStart(8)}`);
  printFleets(fleet);
  printPopulation(population);
  const budgetRows = await budget(runs);
  printBudget(budgetRows, runs);
  const roundTrips = { httpSuites: added.httpSuitesMs / 100, allSuites: added.allSuitesMs / 100 };
  console.log(
    `\nsequential partner round trips on the critical path: ${roundTrips.httpSuites.toFixed(1)} (HTTP suites), ${roundTrips.allSuites.toFixed(1)} (all suites)`,
  );
  mkdirSync('reports/out', { recursive: true });
  writeFileSync(
    'reports/out/bench.json',
    JSON.stringify(
      {
        at: new Date().toISOString(),
        conditions,
        rows,
        validations,
        dataApi: { walks, linearity },
        latency,
        criticalPathRoundTrips: roundTrips.allSuites,
        load,
        masking,
        fleet,
        population,
        budget: budgetRows,
      },
      null,
      2,
    ),
  );
  console.log('\nwrote reports/out/bench.json');
  await stopSandbox();
}

void main();

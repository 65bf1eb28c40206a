/**
 * A fleet of partner apps in one run: the reference partner's app conformant and under seven of its faults, each
 * served by a reference partner of its own (its page embeds the emulator under its own partner name), certified
 * in one run, then each alone. Every partner must finish (no INCOMPLETE) with the verdict and rule outcomes it
 * gets alone. `npx tsx scripts/bench-app-fleet.ts` (BENCH_APP_FLEET_WORKERS: the run's workers, 4 unless set).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Certification } from '../reports/certification';
import { buildReferencePartner } from '../sandbox/reference-partner/server';
import type { AppFault } from '../sandbox/reference-partner/app';
import { ensureSandbox, wholeRun } from './bench-support';

const fleet: (AppFault | 'conformant')[] = [
  'conformant',
  'app-trusts-any-origin',
  'app-origin-prefix',
  'app-trusts-opener-and-frames',
  'app-sandbox-breaks',
  'app-lookalike-frame',
  'app-ignores-auth-error',
  'app-reuses-code',
];
const platformOrigin = 'http://127.0.0.1:4401';

/** The reference-app profile for a partner at `origin`, under `name`, with the app's `fault` switched on. */
function appProfile(name: string, origin: string, fault: string): object {
  const text = readFileSync('partners/reference-app.json', 'utf8').replaceAll('http://127.0.0.1:4400', origin);
  const profile = JSON.parse(text) as Record<string, unknown> & {
    platform: Record<string, unknown>;
    partnerApp: { page: string; login: ({ goto: string } | object)[] };
  };
  const at = (url: string) => (fault === 'conformant' ? url : url.replace(origin, `${origin}/faults/${fault}`));
  delete profile.$schema;
  profile.platform.partnerName = name;
  profile.partnerApp.page = at(profile.partnerApp.page);
  profile.partnerApp.login = profile.partnerApp.login.map((step) => ('goto' in step ? { goto: at(step.goto) } : step));
  return profile;
}

/** One nested run of `names` (scripts/bench-support.ts): its wall time, CPU and each partner's certification. */
async function certify(dir: string, names: readonly string[], workers: number) {
  const certifications = new Map<string, Certification>();
  const read = (reports: string) => {
    for (const name of names) certifications.set(name, JSON.parse(readFileSync(path.join(reports, name, 'certification.json'), 'utf8')) as Certification);
  };
  const args = [`--workers=${workers}`, ...names.map((name) => `--project=${name}`)];
  const cost = await wholeRun(process.cwd(), args, { PARTNERS_DIR: dir }, { read, exitCodes: [0, 1] });
  return { ...cost, certifications };
}

/** What a verdict rests on: the verdict, and every rule's outcome. */
const judged = (cert: Certification) =>
  `${cert.verdict}${cert.incomplete ? ' INCOMPLETE' : ''} ${cert.rules.map((rule) => `${rule.id}:${rule.outcome}`).join(',')}`;

async function main() {
  const stop = await ensureSandbox();
  const partners = fleet.map((_, index) => buildReferencePartner({ appAuthUrl: `${platformOrigin}/app-fleet-${index + 1}/auth` }));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-app-fleet-partners-'));
  try {
    const names: string[] = [];
    for (const [index, partner] of partners.entries()) {
      await partner.listen({ host: '127.0.0.1', port: 0 });
      const name = `app-fleet-${index + 1}`;
      names.push(name);
      const origin = `http://127.0.0.1:${(partner.server.address() as AddressInfo).port}`;
      writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(appProfile(name, origin, fleet[index]!)));
    }
    const workers = Number(process.env.BENCH_APP_FLEET_WORKERS ?? 4);
    const together = await certify(dir, names, workers);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(`\n${names.length} partner apps in one run (${workers} workers): ${s(together.wallMs)} wall, ${s(together.cpuMs)} CPU\n`);
    let same = 0;
    for (const [index, name] of names.entries()) {
      const alone = await certify(dir, [name], 1);
      const [inFleet, byItself] = [together.certifications.get(name)!, alone.certifications.get(name)!];
      const agrees = judged(inFleet) === judged(byItself);
      same += agrees ? 1 : 0;
      console.log(
        `${fleet[index]!.padEnd(30)} in the fleet: ${inFleet.verdict.padEnd(16)} alone: ${byItself.verdict.padEnd(16)} ${agrees ? 'same rule outcomes' : 'DIFFERENT'} (alone ${s(alone.wallMs)})`,
      );
      if (!agrees) console.log(`  fleet: ${inFleet.summary}\n  alone: ${byItself.summary}`);
    }
    console.log(`\n${same} of ${names.length} partners: the same verdict and rule outcomes in the fleet as alone`);
    process.exitCode = same === names.length ? 0 : 1;
  } finally {
    await Promise.all(partners.map((partner) => partner.close()));
    rmSync(dir, { recursive: true, force: true });
    await stop();
  }
}

void main();

import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Certification } from '../../reports/certification';
import type { Fault } from '../../sandbox/reference-partner/faults';
import type { LeakFault } from '../../sandbox/reference-partner/hostile';
import { endpointsOf, referenceProfile } from './profiles';
import type { NestedRun } from './run-playwright';
import { tempDir } from './temp';

/**
 * Nested certification runs that sign what they certify, as the platform team's runs do, and what reads
 * their certificates back: the certification itself, `npm run verify`, and a merge of blob reports.
 */

const sandbox = 'http://127.0.0.1:4400';
// The platform team's key: it signs every run started with `signing`, and `publicPem` is the key a verify trusts.
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
export const signingPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
export const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
/** A nested run's environment: the partners in `dir`, signed with the platform team's key, a history of its own, and `more`. */
export const signing = (dir: string, more: Record<string, string> = {}) => ({
  PARTNERS_DIR: dir,
  CERTIFY_SIGNING_KEY: signingPem,
  CERTIFY_SIGNER: 'Platform integration team',
  CERTIFY_HISTORY_DIR: tempDir('history-'),
  ...more,
});
/** The reference partner's endpoints, with `faults`, on the bundled sandbox or at `origin`. */
export const profileOf = (faults: readonly (Fault | LeakFault)[], origin = sandbox) => endpointsOf(referenceProfile(origin, faults));

/** The certification.json written into `dir`, the certification folder of a run or a merge. */
export const certificationIn = (dir: string, partner: string) =>
  JSON.parse(readFileSync(path.join(dir, partner, 'certification.json'), 'utf8')) as Certification;
export const certificationOf = (run: NestedRun, partner: string) => {
  // A run that wrote no certification says why: what it printed.
  if (!existsSync(path.join(run.out, 'certification', partner, 'certification.json')))
    throw new Error(`no certification of ${partner} (exit ${run.code}):\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
  return certificationIn(path.join(run.out, 'certification'), partner);
};
const tsx = path.resolve('node_modules/.bin/tsx');
/** `npm run verify`, from `cwd` (where it looks for trusted-signers.pub). */
export const verify = (file: string, args: string[] = [], cwd = tempDir('verify-')) =>
  spawnSync(tsx, [path.resolve('scripts/verify.ts'), file, ...args], { encoding: 'utf8', cwd });
export const keyFile = (pem: string) => {
  const file = path.join(tempDir('keys-'), 'key.pub');
  writeFileSync(file, pem);
  return file;
};

/** `playwright merge-reports` of these blobs, with the certification reporter, into a folder of its own. */
export function merge(blobs: readonly string[], env: Record<string, string>): { status: number | null; out: string; stdout: string; stderr: string } {
  const dir = tempDir('blobs-');
  for (const [index, blob] of blobs.entries()) copyFileSync(blob, path.join(dir, `blob-${index + 1}.zip`));
  const out = tempDir('merged-');
  const merged = spawnSync(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'merge-reports', `--reporter=${path.resolve('reports/certification-reporter.ts')}`, dir],
    {
      encoding: 'utf8',
      env: { ...process.env, ...env, CERTIFICATION_REPORT_DIR: out },
    },
  );
  return { status: merged.status, out, stdout: merged.stdout, stderr: merged.stderr };
}
export const blobOf = (run: NestedRun) => path.join(run.out, 'blob-report', readdirSync(path.join(run.out, 'blob-report'))[0]!);

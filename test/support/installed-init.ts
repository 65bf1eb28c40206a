import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { load } from 'js-yaml';

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
/** A workflow's job steps, parsed as GitHub parses the YAML. */
export const workflowSteps = (file: string, job: string): Step[] =>
  (load(readFileSync(file, 'utf8')) as { jobs: Record<string, { steps: Step[] }> }).jobs[job]!.steps;

/** Whether `command` runs in `folder`: an executable on the PATH, or, after npx, a bin the folder installed. */
function exists(command: string, folder: string): boolean {
  const [program, first] = command
    .trim()
    .split(/\s+/)
    .filter((word) => word !== 'sudo');
  if (program === 'npx') return existsSync(path.join(folder, 'node_modules', '.bin', first!));
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * What `npx partner-certify init refcopy` (with a client id and every URL on `sandbox`) wrote into the installed
 * `folder`, file by file, and said, line by line.
 */
export function expectInitWrote(folder: string, stdout: string, sandbox: string): void {
  const read = (file: string) => readFileSync(path.join(folder, file), 'utf8');
  expect(stdout).toBe(
    [
      'wrote partners/refcopy.json',
      'wrote .env: PARTNER_REFCOPY_CLIENT_SECRET=',
      'wrote .gitignore: .env reports/out/ test-results/ playwright-report/ blob-report/ node_modules/',
      'wrote playwright.config.js',
      'wrote .github/workflows/certify-refcopy.yml',
      'next: put the client secret after PARTNER_REFCOPY_CLIENT_SECRET= in .env, then run npx partner-certify refcopy; on GitHub, add the repository secret PARTNER_REFCOPY_CLIENT_SECRET',
      '',
    ].join('\n'),
  );
  const profile = JSON.parse(read('partners/refcopy.json')) as Record<string, unknown>;
  expect(profile).toEqual({
    $schema: '../node_modules/partner-certify/partners/profile.schema.json',
    tokenExchangeUrl: `${sandbox}/oauth/token`,
    accountInfoUrl: `${sandbox}/api/account`,
    fundingSourcesUrl: `${sandbox}/api/funding-sources`,
    tokenExchangeEncoding: 'json',
    clientId: 'reference-client',
    clientSecret: 'env:PARTNER_REFCOPY_CLIENT_SECRET',
    collectMissingAccountInfo: true,
    codes: { mintUrl: `${sandbox}/test-hooks/codes?user=complete` },
  });
  expect(existsSync(path.join(folder, 'partners', profile.$schema as string)), 'the $schema resolves').toBe(true);
  expect(read('.env')).toBe('PARTNER_REFCOPY_CLIENT_SECRET=\n');
  expect(read('.gitignore')).toBe('.env\nreports/out/\ntest-results/\nplaywright-report/\nblob-report/\nnode_modules/\n');
  expect(read('playwright.config.js')).toBe(
    "// The harness's configuration: every partners/*.json here is a project.\nmodule.exports = require('partner-certify/playwright.config');\n",
  );

  const steps = workflowSteps(path.join(folder, '.github/workflows/certify-refcopy.yml'), 'certify');
  expect(steps.map((step) => step.uses ?? step.run)).toEqual([
    'actions/checkout@v4',
    'actions/setup-node@v4',
    'npm ci',
    'npx playwright install --with-deps chromium && sudo apt-get install -y libnss3-tools',
    'npx partner-certify refcopy',
    'actions/upload-artifact@v4',
  ]);
  const commands = steps.flatMap((step) => (step.run ? step.run.split('&&') : []));
  for (const command of commands) expect(exists(command, folder), `${command} runs`).toBe(true);
  const certify = steps.find((step) => step.run === 'npx partner-certify refcopy')!;
  // The secret is the one the profile reads, from the repository secret of the same name.
  expect(certify.env).toEqual({ PARTNER_REFCOPY_CLIENT_SECRET: '${{ secrets.PARTNER_REFCOPY_CLIENT_SECRET }}' });
  expect(profile.clientSecret).toBe(`env:${Object.keys(certify.env!)[0]}`);
  expect(steps.at(-1)).toEqual({ uses: 'actions/upload-artifact@v4', if: 'always()', with: { name: 'certification-refcopy', path: 'reports/out' } });
}

// What `init` writes, as text, before anything is written: the profile, the .env line, the .gitignore lines,
// the playwright.config.js and the GitHub Actions workflow. Pure but for `schemaReference`, which reads where
// the harness is installed.
import path from 'node:path';
import { defaultReportDir } from '../reports/history';
import { packageRoot } from '../run/package-root';

export interface InitAnswers {
  tokenUrl: string;
  accountUrl: string;
  fundingUrl?: string;
  mintUrl: string;
  clientId?: string;
  /** The variable the client secret is read from, with a client id (init-secrets.ts `secretVariable`, or one free of it). */
  secretVariable?: string;
  encoding: 'form' | 'json';
  collectMissing: boolean;
  /** The issuer whose discovery document init read (--issuer): the run holds the document against the endpoint. */
  issuer?: string;
}

/**
 * `$schema` of a profile in `partnersDir`: the profile schema of the harness that runs, relative, so an editor
 * checks the profile against the version installed (node_modules/partner-certify/partners/profile.schema.json).
 */
export function schemaReference(partnersDir: string, root: string = packageRoot): string {
  const relative = path
    .relative(partnersDir, path.join(root, 'partners', 'profile.schema.json'))
    .split(path.sep)
    .join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** The profile of `answers`, whose URLs hold env: references where they had credentials (init-secrets.ts). */
export function profileFor(answers: InitAnswers, $schema: string): Record<string, unknown> {
  return {
    $schema,
    tokenExchangeUrl: answers.tokenUrl,
    accountInfoUrl: answers.accountUrl,
    ...(answers.fundingUrl ? { fundingSourcesUrl: answers.fundingUrl } : {}),
    ...(answers.issuer ? { issuer: answers.issuer } : {}),
    tokenExchangeEncoding: answers.encoding,
    ...(answers.clientId && answers.secretVariable ? { clientId: answers.clientId, clientSecret: `env:${answers.secretVariable}` } : {}),
    collectMissingAccountInfo: answers.collectMissing,
    codes: { mintUrl: answers.mintUrl },
  };
}

/** What the partner's repository keeps out of git: the secret, the reports and Playwright's outputs, the packages. */
export const ignoredPaths = ['.env', `${defaultReportDir}/`, 'test-results/', 'playwright-report/', 'blob-report/', 'node_modules/'];

const ignoreKey = (line: string) => line.trim().replace(/^\//, '').replace(/\/$/, '');

/** The lines of `ignoredPaths` that `gitignore` lacks (`/node_modules` and `node_modules` count as `node_modules/`). */
export const missingIgnores = (gitignore: string): string[] => {
  const present = new Set(gitignore.split(/\r?\n/).map(ignoreKey));
  return ignoredPaths.filter((line) => !present.has(ignoreKey(line)));
};

/** Text that appends `lines` to `existing`, on lines of their own. */
export const appendedLines = (existing: string, lines: string[]): string =>
  `${existing === '' || existing.endsWith('\n') ? '' : '\n'}${lines.map((line) => `${line}\n`).join('')}`;

export const playwrightConfig =
  "// The harness's configuration: every partners/*.json here is a project.\nmodule.exports = require('partner-certify/playwright.config');\n";

export const workflowFile = (name: string): string => `.github/workflows/certify-${name}.yml`;

/**
 * The steps that make a runner ready, the same as the repository's example (.github/workflows/certify-partners.yml,
 * which test/self/init.spec.ts compares): Playwright's own Chromium, since GitHub's Ubuntu has no Debian chromium
 * package (the job sets PLAYWRIGHT_BUNDLED_BROWSER), and certutil to hand it a private CA.
 */
export const setupSteps = `      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 24
          cache: npm
      - run: npm ci
      - run: npx playwright install --with-deps chromium && sudo apt-get install -y libnss3-tools
`;

/** A workflow that certifies `name` by hand and every weekday, and keeps the report as an artifact whatever the verdict. */
export function workflowFor(name: string, variables: readonly string[]): string {
  const secrets = variables.length === 1 ? `the repository secret ${variables[0]}` : `the repository secrets ${variables.join(', ')}`;
  const env = variables.map((variable) => `\n          ${variable}: \${{ secrets.${variable} }}`).join('');
  return `# Certifies partners/${name}.json: by hand (Actions, "certify ${name}", Run workflow) and every weekday morning.
# The report is the run's artifact "certification-${name}", whatever the verdict.${variables.length > 0 ? `\n# Add ${secrets} (Settings, Secrets and variables, Actions).` : ''}
name: certify ${name}

on:
  workflow_dispatch:
  schedule:
    - cron: '0 5 * * 1-5'

jobs:
  certify:
    runs-on: ubuntu-latest
    timeout-minutes: 20
    env:
      PLAYWRIGHT_BUNDLED_BROWSER: '1'
    steps:
${setupSteps}      - run: npx partner-certify ${name}${variables.length > 0 ? `\n        env:${env}` : ''}
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: certification-${name}
          path: ${defaultReportDir}
`;
}

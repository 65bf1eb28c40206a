// `npx partner-certify <partner> [--slow] [--no-preflight] [--compare <certification.json or folder>] [playwright options…]`
// (in a clone, `npm run certify -- <partner> …`):
// one partner's project, with Playwright's progress as it runs; the run's coordinator prints the verdict and the
// report's path at the end. It exits with the run's outcome (run/outcome.ts): 0 certified, 1 not, 2 stopped before
// any test, 3 INCOMPLETE (nothing failed: run it again).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadProfiles } from '../partners/profile';
import { commandExitCode, keptOutcome } from '../run/outcome';
import { makeRunDir, runDirVariable } from '../run/run-dir';
import { asksForHelp, commandsLine, endQuietlyOnClosedPipe, helpText, invocation, usageOf } from './commands';

endQuietlyOnClosedPipe();

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const [partner, ...rest] = process.argv.slice(2);
if (partner === 'help' || asksForHelp(process.argv.slice(2, 3))) {
  console.log(helpText());
  process.exit(0);
}
if (asksForHelp(rest)) {
  console.log(usageOf('certify'));
  process.exit(0);
}
if (partner?.startsWith('-')) fail(`unknown option ${partner}; ${commandsLine()}`);
// Only the partner asked for is read: another profile's mistake is not this run's.
const { profiles, errors, others } = loadProfiles('partners', { only: (name) => name === partner });
const names = [...profiles.map((profile) => profile.name), ...others].sort();
const known = `${names.join(', ') || 'none yet'} (partners/*.json and $PARTNERS_DIR/*.json${names.length > 0 ? '' : `; ${invocation('init')} <name> adds one`})`;
if (!partner) fail(`${usageOf('certify')}\npartners: ${known}`);
if (errors.length > 0) fail(errors.map((error) => `invalid partner profile: ${error}`).join('\n'));
if (!names.includes(partner)) fail(`no partner "${partner}"; partners: ${known}; ${commandsLine()}`);

const passThrough: string[] = [];
let compare: string | undefined;
let slow = false;
let noPreflight = false;
for (let i = 0; i < rest.length; i++) {
  const arg = rest[i]!;
  if (arg === '--slow') {
    slow = true;
  } else if (arg === '--no-preflight') {
    noPreflight = true;
  } else if (arg === '--compare') {
    compare = rest[++i] ?? fail(`--compare needs a path: --compare <previous certification.json or its folder>`);
  } else if (arg.startsWith('--compare=')) {
    compare = arg.slice('--compare='.length);
  } else {
    passThrough.push(arg);
  }
}

const cli = require.resolve('@playwright/test/cli');
// In a folder of its own (npm install partner-certify) without a configuration, the harness's own.
const config = ['playwright.config.ts', 'playwright.config.js'].some((file) => existsSync(file))
  ? []
  : [`--config=${path.join(__dirname, '..', `playwright.config${path.extname(__filename)}`)}`];
// The run's private folder, where the run keeps its outcome for this command; removed as this command exits.
const runDir = makeRunDir({ removeOnExit: true });
const child = spawn(process.execPath, [cli, 'test', ...config, `--project=${partner}`, ...passThrough], {
  stdio: 'inherit',
  env: {
    ...process.env,
    [runDirVariable]: runDir,
    ...(compare ? { CERTIFY_COMPARE: path.resolve(compare) } : {}),
    ...(slow ? { CERTIFY_SLOW: '1' } : {}),
    ...(noPreflight ? { CERTIFY_NO_PREFLIGHT: '1' } : {}),
  },
});
// Ctrl-C reaches Playwright too, which stops the tests and still writes the report: wait for it.
process.on('SIGINT', () => {});
child.on('close', (code, signal) => process.exit(commandExitCode(keptOutcome(runDir), code ?? (signal ? 1 : 0))));

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Certification } from '../../reports/certification';
import { parentEnv } from '../support/run-playwright';
import { tempDir } from '../support/temp';
import { expectInitWrote } from '../support/installed-init';

/**
 * Run from a partner's own folder: `npm pack` of this project installs into an empty folder, where
 * `npx partner-certify init` writes a profile and `npx partner-certify <name>` certifies it, and so does
 * `npx playwright test --project=<name>` through the configuration the package provides.
 */

const run = (command: string, args: string[], cwd: string) => {
  const done = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...parentEnv(), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });
  return { ...done, output: `${done.stdout}\n${done.stderr}` };
};

test('npm pack, installed into an empty folder: init writes a profile, and the package certifies the reference partner there', async () => {
  test.setTimeout(300_000);
  const packs = tempDir('pack-');
  const packed = run('npm', ['pack', '--pack-destination', packs], process.cwd());
  expect(packed.status, packed.output).toBe(0);
  const tarball = path.resolve(
    packs,
    readdirSync(packs).find((name) => name.endsWith('.tgz'))!,
  );
  // A folder of the partner's own: with a package.json, so npm installs there, not into a project above it.
  const folder = path.resolve(tempDir('partner-folder-'));
  writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify({ name: 'acme-certification', private: true }, null, 2)}\n`);
  const installed = run('npm', ['install', '--prefer-offline', '--no-package-lock', tarball], folder);
  expect(installed.status, installed.output).toBe(0);

  // --help, for the tool and each of its commands, in a folder that has no partners/ nor a playwright config yet:
  // usage as the installed tool is run, exit 0, nothing written.
  for (const [args, first] of [
    [['--help'], 'usage: npx partner-certify <partner> [options] [playwright test options]'],
    [['acme', '--help'], 'usage: npx partner-certify <partner> [options] [playwright test options]'],
    [['init', '--help'], 'usage: npx partner-certify init <name> [options]'],
    [['verify', '--help'], 'usage: npx partner-certify verify <certification.json> [--key <public key>]'],
    [['population', '--help'], 'usage: npx partner-certify population <input | -> [options]'],
  ] as const) {
    const help = run('npx', ['partner-certify', ...args], folder);
    expect(help.status, `${args.join(' ')}: ${help.output}`).toBe(0);
    expect(help.stdout.split('\n')[0], args.join(' ')).toBe(first);
    expect(help.stdout, args.join(' ')).not.toContain('npm run');
  }
  const all = run('npx', ['partner-certify', '--help'], folder).stdout;
  for (const option of ['--slow', '--compare', '--token-url', '--collect-missing', '--key', '--shard'])
    expect(all, `--help lists ${option}`).toMatch(new RegExp(`^ +${option}`, 'm'));
  // An unknown option or command: one line naming it and the commands.
  const commands =
    'commands: npx partner-certify <partner> | npx partner-certify init <name> | npx partner-certify verify <certification.json> | npx partner-certify population <input | ->; add --help for their options';
  for (const [args, said] of [
    [['--frobnicate'], `unknown option --frobnicate; ${commands}`],
    [['certfy'], `no partner "certfy"; partners: none yet (partners/*.json and $PARTNERS_DIR/*.json; npx partner-certify init <name> adds one); ${commands}`],
    [
      ['init', 'acme', '--tokenurl', 'x'],
      `init: unknown option --tokenurl; its options: --token-url, --account-url, --funding-url, --mint-url, --client-id, --encoding, --collect-missing; ${commands}`,
    ],
  ] as const) {
    const wrong = run('npx', ['partner-certify', ...args], folder);
    expect(wrong.status, args.join(' ')).toBe(2);
    expect(wrong.stderr, args.join(' ')).toBe(`${said}\n`);
  }
  expect(readdirSync(folder).sort()).toEqual(['node_modules', 'package.json']);

  // No URL given and no one at the terminal: named, and nothing written.
  const asked = run('npx', ['partner-certify', 'init', 'refcopy'], folder);
  expect(asked.status).toBe(2);
  expect(asked.stderr).toBe('init: --token-url, --account-url, --mint-url are missing; give them (npx partner-certify init --help)\n');
  expect(existsSync(path.join(folder, 'partners'))).toBe(false);

  const sandbox = 'http://127.0.0.1:4400';
  const init = run(
    'npx',
    [
      'partner-certify',
      'init',
      'refcopy',
      '--token-url',
      `${sandbox}/oauth/token`,
      '--account-url',
      `${sandbox}/api/account`,
      '--funding-url',
      `${sandbox}/api/funding-sources`,
      '--mint-url',
      `${sandbox}/test-hooks/codes?user=complete`,
      '--client-id',
      'reference-client',
      '--encoding',
      'json',
      '--collect-missing',
    ],
    folder,
  );
  expect(init.status, init.output).toBe(0);
  expectInitWrote(folder, init.stdout, sandbox);
  writeFileSync(path.join(folder, '.env'), 'PARTNER_REFCOPY_CLIENT_SECRET=reference-sandbox-secret-4b1d\n');

  const certified = run('npx', ['partner-certify', 'refcopy'], folder);
  expect(certified.stdout, certified.output).toContain('refcopy: CERTIFIED: ');
  expect(certified.status).toBe(0);
  const cert = JSON.parse(readFileSync(path.join(folder, 'reports', 'out', 'refcopy', 'certification.json'), 'utf8')) as Certification;
  expect(cert.verdict).toBe('CERTIFIED');
  // The package's own configuration, under the folder's playwright.config.js, for Playwright's own command.
  const listed = run('npx', ['playwright', 'test', '--project=refcopy', '--list'], folder);
  expect(listed.stdout, listed.output).toMatch(/Total: 32 tests in 6 files/);
});

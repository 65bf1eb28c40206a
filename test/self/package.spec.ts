import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Certification } from '../../reports/certification';
import { parentEnv } from '../support/run-playwright';
import { tempDir } from '../support/temp';
import { expectInitWrote } from '../support/installed-init';
import type { PopulationReport } from '../../population/report-schema';
import { shardKey } from '../support/shard-key';

const now = '2026-11-28';
/** A private name planted in the population's input: no output may show it. */
const secret = 'Quorblewitz';

/**
 * Run from a partner's own folder: `npm pack` of this project installs into an empty folder, where
 * `npx partner-certify init` writes a profile and `npx partner-certify <name>` certifies it, and so does
 * `npx playwright test --project=<name>` through the configuration the package provides.
 */

const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) => {
  const done = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...parentEnv(), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...env },
    maxBuffer: 1 << 26,
  });
  return { ...done, output: `${done.stdout}\n${done.stderr}` };
};

test.describe.configure({ mode: 'serial' });
let installedIn: string | undefined;
/** The package packed and installed into an empty folder, once for this file's tests. */
function installed(): string {
  if (installedIn) return installedIn;
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
  const install = run('npm', ['install', '--prefer-offline', '--no-package-lock', tarball], folder);
  expect(install.status, install.output).toBe(0);
  return (installedIn = folder);
}

test('npm pack, installed into an empty folder: init writes a profile, and the package certifies the reference partner there', async () => {
  test.setTimeout(300_000);
  const folder = installed();

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
      `init: unknown option --tokenurl; its options: --issuer, --token-url, --account-url, --funding-url, --mint-url, --client-id, --encoding, --collect-missing; ${commands}`,
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
  expect(listed.stdout, listed.output).toMatch(/Total: 33 tests in 6 files/);
});

test('installed, the population check: each capability of issue 52 through the command the package ships', () => {
  test.setTimeout(300_000);
  const folder = installed();
  const population = (args: string[], env: Record<string, string> = {}) => run('npx', ['partner-certify', 'population', ...args], folder, env);
  const data = path.join(folder, 'data');
  mkdirSync(data, { recursive: true });
  const at = (...parts: string[]) => path.join(data, ...parts);
  const report = (dir: string) => JSON.parse(readFileSync(at(dir, 'population.json'), 'utf8')) as PopulationReport;
  const generated = population(['generate', '--users', '3000', '--seed', '4', '--now', now, '--out', 'data/users.jsonl']);
  expect(generated.status, generated.output).toBe(0);
  expect(generated.stderr).toContain('(37 kinds of defect: node_modules/partner-certify/dist/population/generate.js)');
  // Planted: a private name on five users (k is 5), one id given twice, and funding answers with a masked number.
  const users = readFileSync(at('users.jsonl'), 'utf8').trim().split('\n');
  const planted = users.map((line, i) => (i < 5 ? line.replace(/"firstName":"[^"]*"/, `"firstName":"${secret}"`) : line));
  planted.push(planted[10]!);
  writeFileSync(at('users.jsonl'), planted.join('\n'));
  const source = (n: number, account: string) => ({ id: `fs-${n}`, type: 'ach', bankAccountNumber: account, bankRoutingNumber: '011000015' });
  writeFileSync(
    at('funding.jsonl'),
    [0, 1, 2].map((n) => JSON.stringify({ fundingSources: [source(n, n === 0 ? '****6789' : `00012345678${n}`)] })).join('\n'),
  );

  const first = population(['data/users.jsonl', '--funding', 'data/funding.jsonl', '--now', now, '--out', 'data/first', '--records-out', 'mine/records.csv']);
  expect(first.status, first.output).toBe(0);
  const judged = report('first');
  // 1: the records file, a row a record with the outcome the report counts.
  const rows = readFileSync(path.join(folder, 'mine', 'records.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  expect(rows).toHaveLength(planted.length);
  for (const [outcome, { count }] of Object.entries(judged.outcomes))
    expect(
      rows.filter((row) => row.split(',')[3] === outcome),
      outcome,
    ).toHaveLength(count);
  // 2: what each fix gains; 3: the tool's own numbers intact in advice; 7: the id given twice and the masked number.
  expect(judged.fixPlan.steps.length).toBeGreaterThan(3);
  expect(JSON.stringify(judged.fixFirst)).toContain('send a 2, 4 or 6 digit NAICS code (e.g. 54 or 541511)');
  expect(judged.sharedIds).toMatchObject({ repeats: 1, sharedIds: 1, exact: true });
  expect(judged.funding!.fixFirst.map(({ rule, warned }) => [rule, warned])).toEqual([['funding-sources/bankAccountNumber/full-number', 1]]);
  // 8: no one's data in any output; 12: the lists the rules name are shipped.
  for (const name of ['population.json', 'population.html']) expect(readFileSync(at('first', name), 'utf8')).not.toContain(secret);
  expect(first.stdout + first.stderr).not.toContain(secret);
  expect(existsSync(path.join(folder, 'node_modules', 'partner-certify', 'docs', 'REFERENCE-LISTS.md'))).toBe(true);

  // 4: garbage refused, and a gate crossed; 5: your own column names; 6: this export against the last.
  writeFileSync(at('users.db'), Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(84)]));
  const sqlite = population(['data/users.db', '--out', 'data/db']);
  expect([sqlite.status, sqlite.stderr]).toEqual([1, expect.stringContaining('this is a SQLite database')]);
  const gated = population(['data/users.jsonl', '--now', now, '--out', 'data/gated', '--fail-if', 'error-screen>5%']);
  expect([gated.status, gated.stderr]).toEqual([1, expect.stringContaining('error-screen')]);
  writeFileSync(at('own.csv'), 'first_name,user.lastName,company.id\nAnn,Lee,c1\nBo,Ng,c2\n');
  const columns = population(['data/own.csv', '--column', 'first_name=user.firstName', '--now', now, '--out', 'data/own', '--max-unreadable', '100%']);
  expect(columns.status, columns.output).toBe(0);
  expect(report('own').input.payloads).toBe(2);
  const compared = population(['compare', 'data/first/population.json', 'data/gated/population.json']);
  expect(compared.status, compared.output).toBe(0);

  // 9: shards sealed under a key, merged into the run one machine gives; 10: a worker that dies loses nothing.
  const key = { POPULATION_SHARD_KEY: shardKey };
  for (const n of [1, 2]) expect(population(['data/users.jsonl', '--now', now, '--shard', `${n}/2`, '--out', 'data/parts'], key).status).toBe(0);
  const merged = population(['merge', 'data/parts/population-summary.1-of-2.json', 'data/parts/population-summary.2-of-2.json', '--out', 'data/merged'], key);
  expect(merged.status, merged.output).toBe(0);
  expect(report('merged').outcomes).toEqual(report('gated').outcomes);
  const eater = JSON.stringify({ user: { id: 'eater', firstName: Array.from({ length: 340_000 }, () => ({})) }, company: {} });
  writeFileSync(at('eater.jsonl'), [eater, ...users].join('\n'));
  const died = population(['data/eater.jsonl', '--now', now, '--out', 'data/eater', '--workers', '1'], { PARTNER_CERTIFY_WORKER_HEAP_MB: '24' });
  expect(died.status, died.output).toBe(0);
  expect(report('eater').input.unreadable).toEqual([{ problem: 'worker-died', count: 1, lines: [1] }]);
});

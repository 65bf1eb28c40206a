import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { partnerAppRules } from '../../checks/partner-app';
import { loadProfile } from '../../partners/profile';
import { platformOf } from '../../probes/platform';
import type { Profile } from '../../profile/profile-schema';
import type { Certification } from '../../reports/certification';
import { referenceClient } from '../../sandbox/reference-partner/client';
import { startNewcomerPartner } from '../support/newcomer-partner';
import { parentEnv, runNode, runPlaywright } from '../support/run-playwright';
import { startReferencePartner } from '../support/sandbox';
import { tempDir } from '../support/temp';

/**
 * The README is what a partner engineer reads first: short, true, and every command it shows works. Its
 * "Certify your endpoints" is followed word for word against a partner written from the spec alone, and its
 * "Your app that embeds the platform" through the bundled emulator, with the emulator's values as written.
 */

const readme = readFileSync('README.md', 'utf8');
const pages = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name)),
];

/** The code blocks of a Markdown text whose info string is `lang` (and, with `marked`, carries that word too). */
const blocks = (text: string, lang: string, marked?: string) =>
  [...text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```/gm)]
    .filter(([, info]) => info!.split(/\s+/)[0] === lang && (marked === undefined || info!.split(/\s+/).includes(marked)))
    .map(([, , body]) => body!);
const section = (title: string) => readme.slice(readme.indexOf(`## ${title}`), readme.indexOf('\n## ', readme.indexOf(`## ${title}`) + 3));

/**
 * A section's worked example, as a reader copies it: the profile it says to save as `partners/<file>.json`, the
 * `.env` lines it shows, and its commands marked runnable.
 */
function example(title: string) {
  const text = section(title);
  const file = /Save this as `partners\/([a-z0-9-]+)\.json`/.exec(text)![1]!;
  const env = Object.fromEntries(
    blocks(text, 'sh').flatMap((body) => [...body.matchAll(/^(PARTNER_[A-Z0-9_]+)=(\S+)$/gm)].map(([, name, value]) => [name!, value!])),
  );
  return { text, file, profile: blocks(text, 'json')[0]!, env, commands: blocks(text, 'sh', 'runnable').map((body) => body.trim()) };
}
/** Saves an example's profile (or `text`, the reader's edit of it) into `dir`, its `$schema` the repository's. */
const save = (dir: string, { file, profile }: { file: string; profile: string }, text = profile) =>
  writeFileSync(path.join(dir, `${file}.json`), text.replace('"./profile.schema.json"', JSON.stringify(path.resolve('partners/profile.schema.json'))));
/** The sections whose worked example ends in a runnable command. */
const examples = ['Certify your endpoints', 'Your app that embeds the platform'];

/** Runs a README's `npm run certify -- …` as npm would, its reports and history in a folder of the test's own. */
async function certify(command: string, env: Record<string, string>) {
  const words = command.split(/\s+/);
  expect(words.slice(0, 4)).toEqual(['npm', 'run', 'certify', '--']);
  const out = tempDir('reports-');
  const run = await runNode(['--import', 'tsx', 'scripts/certify.ts', ...words.slice(4), `--output=${path.join(out, 'test-results')}`], {
    ...env,
    CERTIFICATION_REPORT_DIR: out,
    CERTIFY_HISTORY_DIR: path.join(out, 'history'),
    // Not the clone's playwright-report/: two of these runs at once would rewrite it while each masks it as it exits.
    PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(out, 'html-report'),
  });
  console.log(
    run.stdout
      .split('\n')
      .filter((line) => line.startsWith(`${words[4]}:`) || line.startsWith('  platform:'))
      .join('\n'),
  );
  return { run, out };
}

test('the README is under 2,000 words, and no page cites a file the repository does not have', () => {
  const words = readme.split(/\s+/).filter(Boolean).length;
  console.log(`README: ${words} words`);
  expect(words).toBeLessThan(2000);
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    expect(text, page).not.toMatch(/DESIGN(\.md| §)|\.\.\/shared/);
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      expect(existsSync(path.join(path.dirname(page), target!)), `${page} links ${target}`).toBe(true);
    }
  }
});

test('Certify your endpoints, word for word, against a partner written from the spec: CERTIFIED', async () => {
  test.setTimeout(180_000);
  const steps = example('Certify your endpoints');
  const profile = JSON.parse(steps.profile) as { clientId: string };
  const [[name, value]] = Object.entries(steps.env) as [[string, string]];
  const [command] = steps.commands;
  expect(command).toBe(`npm run certify -- ${steps.file}`);
  const partner = await startNewcomerPartner({ clientId: profile.clientId, clientSecret: value });
  try {
    // The user's own server stands where the README's example URLs point.
    const dir = tempDir('my-profiles-');
    save(dir, steps, steps.profile.replaceAll('http://localhost:3000', partner.origin));
    const { run, out } = await certify(command!, { PARTNERS_DIR: dir, [name]: value });
    expect(run.stdout, run.stderr).toContain(`${steps.file}: CERTIFIED: `);
    expect(run.code).toBe(0);
    expect(existsSync(path.join(out, steps.file, 'certification.html'))).toBe(true);
  } finally {
    await partner.close();
  }
});

test("Your app that embeds the platform, word for word through the bundled emulator, with the reference partner's app as the reader's: CERTIFIED, every app rule passed", async () => {
  test.setTimeout(240_000);
  const app = example('Your app that embeds the platform');
  const env = { ...example('Certify your endpoints').env, ...app.env };
  const profile = JSON.parse(app.profile) as Profile;
  const { platform, partnerApp } = profile as Required<Profile>;
  expect(new URL(partnerApp.page).origin).toBe(platform.hostOrigin);
  // What the README tells the reader's page to frame, and whom to heed: the emulator's auth URL under the profile's partner name.
  const [, framed, heeded] = /your page frames `([^`?]+)\?code=…` and heeds messages from\s+`([^`]+)` only/.exec(app.text)!;
  expect(framed).toBe(`${platform.url}/${platform.partnerName}/auth`);
  expect(heeded).toBe(new URL(framed!).origin);
  // The reader's app and endpoints: the reference partner's, framing what the README says, with the README's secrets. Its
  // app was written by the harness's authors, not for this example: the repository has no app written without them.
  const secret = (value: string | undefined) => env[value!.replace(/^env:/, '')]!;
  const [password] = partnerApp.login!.flatMap((step) => ('value' in step && step.value.startsWith('env:') ? [step.value] : []));
  const partner = await startReferencePartner({ appAuthUrl: framed!, clientSecret: secret(profile.clientSecret), loginPassword: secret(password) });
  try {
    // What the reader changes: where their server is (on this machine's loopback, as written), and the client the reference partner knows.
    const yours = new URL(partner.origin).port;
    const text = app.profile
      .replaceAll('http://localhost:3000', `http://localhost:${yours}`)
      .replace('"clientId": "platform"', `"clientId": "${referenceClient.id}"`);
    const dir = tempDir('my-app-profiles-');
    save(dir, app, text);
    expect(app.commands).toEqual([`npm run certify -- ${app.file}`]);
    const { run, out } = await certify(app.commands[0]!, { PARTNERS_DIR: dir, ...env });
    expect(run.stdout, run.stderr).toContain(`${app.file}: CERTIFIED: `);
    const cert = JSON.parse(readFileSync(path.join(out, app.file, 'certification.json'), 'utf8')) as Certification;
    expect(cert.verdict, run.stdout + run.stderr).toBe('CERTIFIED');
    expect(cert.rules.filter((rule) => rule.id.startsWith('sign-on/partner-app/')).map((rule) => `${rule.id}: ${rule.outcome}`)).toEqual(
      partnerAppRules.map((rule) => `${rule.id}: passed`),
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
  } finally {
    await partner.close();
  }
});

test("the real platform sandbox's profile is complete and valid, under the name it is given", () => {
  const env = { PARTNER_ACME_CLIENT_SECRET: 's', PARTNER_ACME_PLATFORM_API_KEY: 'k', PARTNER_ACME_DATA_API_TOKEN: 't' };
  const load = (title: string) => {
    const text = section(title);
    const file = /`partners\/([a-z0-9-]+)\.json`:/.exec(text)![1]!;
    const dir = tempDir('readme-profile-');
    writeFileSync(
      path.join(dir, `${file}.json`),
      blocks(text, 'json')[0]!.replace('"./profile.schema.json"', JSON.stringify(path.resolve('partners/profile.schema.json'))),
    );
    const loaded = loadProfile(path.join(dir, `${file}.json`), env);
    expect(loaded.errors, title).toEqual([]);
    return loaded.profile!.profile;
  };
  const platform = load('Certifying through the real platform sandbox');
  expect(platformOf(platform.platform!)).toMatchObject({
    kind: 'external',
    configure: false,
    storeTestData: false,
    hostOrigin: 'https://app.acme.example',
    servesHostPage: true,
  });
  expect(platform.dataApi?.organizationField).toBe('orgId');
});

test("the real platform sandbox's profile, filled in for Ledgerly with what its docs say, certifies the reference partner and finds Ledgerly conforming", async () => {
  test.setTimeout(180_000);
  const profile = JSON.parse(blocks(section('Certifying through the real platform sandbox'), 'json')[0]!) as Record<string, unknown> & {
    platform: Record<string, unknown>;
    dataApi: Record<string, unknown>;
  };
  // What a person fills in: the addresses, names and secrets of docs/SANDBOX.md; every other value as the README wrote it.
  const ledgerly = {
    ...profile,
    $schema: undefined,
    tokenExchangeUrl: 'http://127.0.0.1:4400/oauth/token',
    accountInfoUrl: 'http://127.0.0.1:4400/api/account',
    fundingSourcesUrl: 'http://127.0.0.1:4400/api/funding-sources',
    tokenExchangeEncoding: 'json',
    clientId: 'reference-client',
    codes: { mintUrl: 'http://127.0.0.1:4400/test-hooks/codes?user=complete' },
    fundingSync: { mintUrl: 'http://127.0.0.1:4400/test-hooks/codes?user=complete&funding-sources=without-last' },
    platform: {
      ...profile.platform,
      url: 'http://127.0.0.1:4403',
      partnerName: 'reference',
      hostOrigin: 'http://app.reference.example',
      authUrl: 'http://127.0.0.1:4404/sso/{partnerName}?code={code}',
      appOrigins: ['http://127.0.0.1:4404'],
    },
    dataApi: { ...profile.dataApi, baseUrl: 'http://127.0.0.1:4403' },
  };
  const dir = tempDir('readme-ledgerly-');
  writeFileSync(path.join(dir, 'acme.json'), JSON.stringify(ledgerly));
  const run = await runPlaywright(['--project=acme'], {
    PARTNERS_DIR: dir,
    PARTNER_ACME_CLIENT_SECRET: 'reference-sandbox-secret-4b1d',
    PARTNER_ACME_PLATFORM_API_KEY: 'ledgerly-sandbox-api-key',
    PARTNER_ACME_DATA_API_TOKEN: 'ledgerly-data-api-token',
  });
  const summary = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('acme:') || line.startsWith('  platform:'))
    .join('\n');
  console.log(summary);
  expect(summary, run.stdout + run.stderr).toMatch(/^acme: CERTIFIED: .*\n {2}platform: CONFORMS: /);
});

test('every command a page marks runnable selects tests (checked with --list)', () => {
  const dir = tempDir('listed-profiles-');
  const saved = examples.map(example);
  for (const each of saved) save(dir, each);
  const env = Object.assign({}, ...saved.map((each) => each.env)) as Record<string, string>;
  const commands = pages.flatMap((page) =>
    blocks(readFileSync(page, 'utf8'), 'sh', 'runnable').flatMap((body) =>
      body
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '').trim())
        .filter(Boolean)
        .map((line) => ({ page, line })),
    ),
  );
  expect(commands.length).toBeGreaterThan(2);
  for (const { page, line } of commands) {
    const words = line.match(/"[^"]*"|\S+/g)!.map((word) => word.replace(/^"(.*)"$/, '$1'));
    const args =
      words[0] === 'npx' && words[1] === 'playwright'
        ? ['node_modules/@playwright/test/cli.js', ...words.slice(2)]
        : words[0] === 'npm' && words[2] === 'certify'
          ? ['--import', 'tsx', 'scripts/certify.ts', ...words.slice(4)]
          : undefined;
    expect(args, `${page}: ${line} is neither npx playwright nor npm run certify`).toBeDefined();
    const run = spawnSync(process.execPath, [...args!, '--list', `--output=${tempDir('listed-')}`], {
      encoding: 'utf8',
      env: { ...parentEnv(), PARTNERS_DIR: dir, ...env },
    });
    expect(run.status, `${page}: ${line}\n${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout, `${page}: ${line}`).toMatch(/Total: [1-9]\d* tests? in/);
  }
});

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadProfile } from '../../partners/profile';
import { platformOf } from '../../probes/platform';
import { startNewcomerPartner } from '../support/newcomer-partner';
import { parentEnv, runNode, runPlaywright } from '../support/run-playwright';
import { tempDir } from '../support/temp';

/**
 * The README is what a partner engineer reads first: short, true, and every command it shows works. Its
 * "Certify your endpoints" is followed word for word against a partner written from the spec alone.
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
  const steps = section('Certify your endpoints');
  const profileText = blocks(steps, 'json')[0]!;
  const profile = JSON.parse(profileText) as { clientId: string };
  const file = /Save this as `partners\/([a-z0-9-]+)\.json`/.exec(steps)![1]!;
  const [name, value] = blocks(steps, 'sh')[0]!.trim().split('=') as [string, string];
  const [command] = blocks(steps, 'sh', 'runnable');
  expect(command!.trim()).toBe(`npm run certify -- ${file}`);
  const partner = await startNewcomerPartner({ clientId: profile.clientId, clientSecret: value });
  try {
    // The user's own server stands where the README's example URLs point.
    const dir = tempDir('my-profiles-');
    writeFileSync(
      path.join(dir, `${file}.json`),
      profileText
        .replaceAll('http://localhost:3000', partner.origin)
        .replace('"./profile.schema.json"', JSON.stringify(path.resolve('partners/profile.schema.json'))),
    );
    const out = tempDir('reports-');
    const run = await runNode(
      ['--import', 'tsx', 'scripts/certify.ts', ...command!.trim().split(/\s+/).slice(4), `--output=${path.join(out, 'test-results')}`],
      {
        PARTNERS_DIR: dir,
        [name]: value,
        CERTIFICATION_REPORT_DIR: out,
        CERTIFY_HISTORY_DIR: path.join(out, 'history'),
      },
    );
    console.log(
      run.stdout
        .split('\n')
        .filter((line) => line.startsWith(`${file}:`) || line.startsWith('  platform:'))
        .join('\n'),
    );
    expect(run.stdout, run.stderr).toContain(`${file}: CERTIFIED: `);
    expect(run.code).toBe(0);
    expect(existsSync(path.join(out, file, 'certification.html'))).toBe(true);
  } finally {
    await partner.close();
  }
});

test("the real platform sandbox's profile and the partner app's are each complete and valid, under the names they are given", () => {
  const env = { PARTNER_ACME_CLIENT_SECRET: 's', PARTNER_ACME_PLATFORM_API_KEY: 'k', PARTNER_ACME_DATA_API_TOKEN: 't', PARTNER_ACME_APP_PASSWORD: 'p' };
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
  const app = load('Your app that embeds the platform');
  expect(new URL(app.partnerApp!.page).origin).toBe(app.platform!.hostOrigin);
  expect(app.partnerApp!.login?.length).toBe(4);
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
  const steps = section('Certify your endpoints');
  const dir = tempDir('listed-profiles-');
  const file = /Save this as `partners\/([a-z0-9-]+)\.json`/.exec(steps)![1]!;
  writeFileSync(path.join(dir, `${file}.json`), blocks(steps, 'json')[0]!.replace('"./profile.schema.json"', '"x"'));
  const secret = blocks(steps, 'sh')[0]!.trim().split('=') as [string, string];
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
      env: { ...parentEnv(), PARTNERS_DIR: dir, [secret[0]]: secret[1] },
    });
    expect(run.status, `${page}: ${line}\n${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout, `${page}: ${line}`).toMatch(/Total: [1-9]\d* tests? in/);
  }
});

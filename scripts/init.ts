// `npx partner-certify init <name> [--token-url … --account-url … --funding-url … --mint-url … --client-id … --encoding form|json --collect-missing]`:
// writes partners/<name>.json in this folder, its client secret read from env: with a line for it in .env,
// and a playwright.config.js that runs the harness's own configuration, so `npx playwright test --project=<name>`
// works here too. Asks for what the flags leave out when a person is at the terminal; otherwise names it.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { loadProfile } from '../partners/profile';
import { asksForHelp, optionsProblem, usageOf } from './commands';

const usage = usageOf('init');

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const questions = [
  ['token-url', 'Token exchange URL (TokenExchangeUrl)'],
  ['account-url', 'Account information URL (AccountInfoUrl)'],
  ['funding-url', 'Funding sources URL (FundingSourcesUrl; empty if none)'],
  ['mint-url', 'Staging hook that mints a fresh code (POST, answers {"code": "…"})'],
  ['client-id', 'The client_id the platform sends you (empty if none)'],
] as const;
const optional = new Set(['funding-url', 'client-id']);

function parsed(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        ...Object.fromEntries(questions.map(([name]): [string, { type: 'string' }] => [name, { type: 'string' }])),
        encoding: { type: 'string' },
        'collect-missing': { type: 'boolean' },
      },
      allowPositionals: true,
    });
  } catch (error) {
    return fail(optionsProblem('init', error));
  }
}

async function main() {
  if (asksForHelp(process.argv.slice(3))) {
    console.log(usage);
    process.exit(0);
  }
  const { values, positionals } = parsed(process.argv.slice(3));
  const [name] = positionals;
  if (!name) fail(usage);
  const file = path.join('partners', `${name}.json`);
  if (existsSync(file)) fail(`${file} exists already; edit it, or choose another name`);
  const answers = values as Record<string, string | boolean | undefined>;
  const missing = questions.filter(([flag]) => answers[flag] === undefined);
  if (missing.length > 0 && process.stdin.isTTY) {
    const terminal = createInterface({ input: process.stdin, output: process.stdout });
    for (const [flag, question] of missing) answers[flag] = (await terminal.question(`${question}: `)).trim();
    terminal.close();
  }
  const absent = questions.filter(([flag]) => !optional.has(flag) && !answers[flag]).map(([flag]) => `--${flag}`);
  if (absent.length > 0) fail(`${absent.join(', ')} ${absent.length === 1 ? 'is' : 'are'} missing\n${usage}`);
  const encoding = answers.encoding ?? 'form';
  if (encoding !== 'form' && encoding !== 'json')
    fail(`--encoding is "${String(encoding)}"; write form (what OAuth libraries take) or json, as the platform is configured to send it\n${usage}`);
  const variable = `PARTNER_${name.toUpperCase().replace(/-/g, '_')}_CLIENT_SECRET`;
  const clientId = answers['client-id'] || undefined;
  const profile = {
    tokenExchangeUrl: answers['token-url'],
    accountInfoUrl: answers['account-url'],
    ...(answers['funding-url'] ? { fundingSourcesUrl: answers['funding-url'] } : {}),
    tokenExchangeEncoding: encoding,
    ...(clientId ? { clientId, clientSecret: `env:${variable}` } : {}),
    collectMissingAccountInfo: answers['collect-missing'] === true,
    codes: { mintUrl: answers['mint-url'] },
  };
  mkdirSync('partners', { recursive: true });
  writeFileSync(file, `${JSON.stringify(profile, null, 2)}\n`);
  // The profile is checked as a run would (the secret may not be set yet).
  const problems = loadProfile(file, { [variable]: 'set-later' }).errors;
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    fail(`${file} was written, but it is not valid yet; fix what is named above`);
  }
  if (clientId) {
    const env = existsSync('.env') ? readFileSync('.env', 'utf8') : '';
    if (!env.split('\n').some((line) => line.startsWith(`${variable}=`)))
      appendFileSync('.env', `${env === '' || env.endsWith('\n') ? '' : '\n'}${variable}=\n`);
  }
  if (!existsSync('playwright.config.js') && !existsSync('playwright.config.ts'))
    writeFileSync(
      'playwright.config.js',
      "// The harness's configuration: every partners/*.json here is a project.\nmodule.exports = require('partner-certify/playwright.config');\n",
    );
  console.log(`wrote ${file}${clientId ? `; put the client secret in .env, as ${variable}=…` : ''}`);
  console.log(`then: npx partner-certify ${name}`);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));

// `npx partner-certify init <name> [options]` (scripts/commands.ts lists them): writes partners/<name>.json, its client
// secret read from env: with a line for it in .env, the credentials of its URLs moved to .env (init-secrets.ts), the .gitignore lines a partner's repository needs, a
// playwright.config.js that runs the harness's own configuration (so `npx playwright test --project=<name>` works
// here too) and a GitHub Actions workflow that certifies it. Asks for what the options leave out when a person is at
// the terminal; otherwise names it. Everything is checked before the first byte is written, and a file that is
// there already is kept.
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { parse as parseDotenv } from 'dotenv';
import { profileNameProblem, profileOf } from '../partners/profile';
import { partWords } from '../partners/url-references';
import { redact } from '../redaction/redact';
import { asksForHelp, endQuietlyOnClosedPipe, invocation, optionsProblem, usageOf } from './commands';
import { appendedLines, missingIgnores, playwrightConfig, profileFor, schemaReference, workflowFile, workflowFor } from './init-files';
import { credentialsIn, referencedVariables, secretVariable, variableChooser, variablePrefix, withoutCredentials, type MovedCredential } from './init-secrets';
import { wayProblem, writeAll, type PlannedWrite } from './safe-write';
import { discover } from './init-discovery';

endQuietlyOnClosedPipe();

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

// Each option, the profile field it fills, and the question asked when it is left out.
const questions = [
  ['token-url', 'tokenExchangeUrl', 'Token exchange URL (TokenExchangeUrl)'],
  ['account-url', 'accountInfoUrl', 'Account information URL (AccountInfoUrl)'],
  ['funding-url', 'fundingSourcesUrl', 'Funding sources URL (FundingSourcesUrl; empty if none)'],
  ['mint-url', 'codes.mintUrl', 'Staging hook that mints a fresh code (POST, answers {"code": "…"})'],
  ['client-id', 'clientId', 'The client_id the platform sends you (empty if none)'],
] as const;
const optional = new Set(['funding-url', 'client-id']);
const options = {
  ...Object.fromEntries(questions.map(([flag]): [string, { type: 'string' }] => [flag, { type: 'string' }])),
  encoding: { type: 'string' },
  issuer: { type: 'string' },
  'collect-missing': { type: 'boolean' },
} as const;

function parsed(args: string[]) {
  try {
    return parseArgs({ args, options, allowPositionals: true });
  } catch (error) {
    return fail(optionsProblem('init', error));
  }
}

async function ask(answers: Record<string, string | boolean | undefined>) {
  const missing = questions.filter(([flag]) => answers[flag] === undefined);
  if (missing.length === 0 || !process.stdin.isTTY) return;
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  for (const [flag, , question] of missing) answers[flag] = (await terminal.question(`${question}: `)).trim();
  terminal.close();
}

/** A profile problem named by the option that gave the field: `--token-url: "tokenExchangeUrl" is not …`. */
const asOption = (problem: string) => {
  const question = questions.find(([, field]) => problem.startsWith(`"${field}" `));
  return question ? `--${question[0]}: ${problem}` : problem;
};

const readIfThere = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');

interface Secrets {
  /** The client secret's variable, with a client id; `kept` when .env has it already. */
  client?: { variable: string; kept: boolean };
  moved: MovedCredential[];
}

/** The lines .env lacks, and one line of output for each variable: what was written, or that it was kept. */
function envLines({ client, moved }: Secrets): { add: string[]; lines: string[] } {
  const add: string[] = [];
  const lines: string[] = [];
  if (client?.kept) lines.push(`kept .env: it has ${client.variable}`);
  else if (client) {
    add.push(`${client.variable}=`);
    lines.push(`${existsSync('.env') ? 'added to' : 'wrote'} .env: ${client.variable}=`);
  }
  for (const { field, part, variable, value, kept } of moved) {
    const what = `${partWords(part, 'the')} of "${field}"`;
    if (kept) lines.push(`kept .env: it has ${variable}, ${what}`);
    else {
      add.push(`${variable}=${value}`);
      lines.push(`moved ${what} to .env: ${variable}`);
    }
  }
  return { add, lines };
}

/** What to write beside the profile, and one line for each file: what was written, or that it was kept. */
function companions(name: string, secrets: Secrets): { writes: PlannedWrite[]; lines: string[] } {
  const writes: PlannedWrite[] = [];
  const { add, lines } = envLines(secrets);
  if (add.length > 0) writes.push({ file: '.env', mode: 'append', text: appendedLines(readIfThere('.env'), add), private: true });
  const write = (planned: PlannedWrite, line: string) => {
    writes.push(planned);
    lines.push(line);
  };
  const gitignore = readIfThere('.gitignore');
  const ignores = missingIgnores(gitignore);
  if (ignores.length === 0) lines.push('kept .gitignore: it ignores them all');
  else
    write(
      { file: '.gitignore', mode: 'append', text: appendedLines(gitignore, ignores) },
      `${existsSync('.gitignore') ? 'added to' : 'wrote'} .gitignore: ${ignores.join(' ')}`,
    );
  const config = ['playwright.config.js', 'playwright.config.ts'].find((file) => existsSync(file));
  if (config) lines.push(`kept ${config}: it is there already`);
  else write({ file: 'playwright.config.js', mode: 'create', text: playwrightConfig }, 'wrote playwright.config.js');
  const workflow = workflowFile(name);
  if (existsSync(workflow)) lines.push(`kept ${workflow}: it is there already`);
  else write({ file: workflow, mode: 'create', text: workflowFor(name, variablesOf(secrets)) }, `wrote ${workflow}`);
  return { writes, lines };
}

const variablesOf = ({ client, moved }: Secrets) => [...new Set([...(client ? [client.variable] : []), ...moved.map(({ variable }) => variable)])];

async function main() {
  const args = process.argv.slice(3);
  if (asksForHelp(args)) {
    console.log(usageOf('init'));
    process.exit(0);
  }
  const { values, positionals } = parsed(args);
  const [name, ...extra] = positionals;
  if (!name) fail(`init: name the partner: ${invocation('init')} <name>, for example ${invocation('init')} acme`);
  if (extra.length > 0)
    fail(`init: one name only, and "${extra.join(' ')}" is one more; join words with dashes: ${invocation('init')} ${[name, ...extra].join('-')}`);
  const nameProblem = profileNameProblem(name, { subject: `the name "${name}"`, counted: '', fix: 'choose another name' });
  if (nameProblem) fail(`init: ${nameProblem}`);
  const file = `partners/${name}.json`;
  const way = [file, '.env', '.gitignore', 'playwright.config.js', 'playwright.config.ts', workflowFile(name)].map(wayProblem).find(Boolean);
  if (way) fail(`init: ${way}`);
  if (existsSync(file)) fail(`init: ${file} exists already; edit it, or choose another name`);

  const answers = values as Record<string, string | boolean | undefined>;
  const issuer = typeof answers.issuer === 'string' ? answers.issuer : undefined;
  const discovered = issuer === undefined ? undefined : await discover(issuer);
  if (discovered && 'problem' in discovered) fail(`init: --issuer ${issuer}: ${discovered.problem}`);
  if (discovered && answers['token-url'] === undefined) answers['token-url'] = discovered.tokenEndpoint;
  await ask(answers);
  const absent = questions.filter(([flag]) => !optional.has(flag) && !answers[flag]).map(([flag]) => `--${flag}`);
  if (absent.length > 0)
    fail(
      `init: ${absent.join(', ')} ${absent.length === 1 ? 'is' : 'are'} missing; give ${absent.length === 1 ? 'it' : 'them'} (${invocation('init')} --help)`,
    );
  const encoding = answers.encoding ?? 'form';
  if (encoding !== 'form' && encoding !== 'json')
    fail(`init: --encoding is "${String(encoding)}"; write form (what OAuth libraries take) or json, as the platform is configured to send it`);
  const text = (flag: string) => (typeof answers[flag] === 'string' && answers[flag] !== '' ? answers[flag] : undefined);
  const clientId = text('client-id');
  const choose = variableChooser({
    referenced: referencedVariables(['partners', ...(process.env.PARTNERS_DIR ? [process.env.PARTNERS_DIR] : [])]),
    dotenv: parseDotenv(readIfThere('.env')),
    environment: process.env,
  });
  const secrets: Secrets = { ...(clientId ? { client: choose(secretVariable(name)) } : {}), moved: [] };
  // Each URL's credentials go to .env as PARTNER_<NAME>_<TOKEN|ACCOUNT|FUNDING|MINT>_<PART>, env: in their place.
  const url = (flag: (typeof questions)[number][0]) => {
    const given = text(flag);
    if (given === undefined) return undefined;
    const field = questions.find(([option]) => option === flag)![1];
    // A fragment is never sent to a server, and one may hold a token (#access_token=…): none is written.
    if (/#./.test(given)) fail(`init: --${flag}: a URL's fragment (#…) is never sent to your server, and may hold a token; give the URL without it`);
    const done = withoutCredentials(given, field, `${variablePrefix(name)}_${flag.replace(/-url$/, '').toUpperCase()}`, choose);
    secrets.moved.push(...done.moved);
    return done.url;
  };
  const profile = profileFor(
    {
      tokenUrl: url('token-url')!,
      accountUrl: url('account-url')!,
      fundingUrl: url('funding-url'),
      mintUrl: url('mint-url')!,
      clientId,
      ...(secrets.client ? { secretVariable: secrets.client.variable } : {}),
      encoding,
      collectMissing: answers['collect-missing'] === true,
      ...(issuer !== undefined ? { issuer } : {}),
    },
    schemaReference('partners'),
  );
  // Checked as a run would check it (the secret may not be set yet), before anything is written; a URL it quotes
  // is shown without its credentials.
  const env: NodeJS.ProcessEnv = Object.fromEntries([
    ...(secrets.client ? [[secrets.client.variable, 'set-later'] as const] : []),
    ...secrets.moved.map((moved) => [moved.variable, moved.value] as const),
  ]);
  const problems = profileOf(file, profile, env).errors;
  if (problems.length > 0) {
    const given = questions.flatMap(([flag]) => credentialsIn(text(flag) ?? '')).map((value) => ({ value }));
    fail(problems.map((problem) => redact(`init: ${asOption(problem.replace(`${file}: `, ''))}`, given)).join('\n'));
  }

  const { writes, lines } = companions(name, secrets);
  const all: PlannedWrite[] = [{ file, mode: 'create', text: `${JSON.stringify(profile, null, 2)}\n` }, ...writes];
  try {
    writeAll(all);
  } catch (error) {
    fail(`init: wrote nothing, since ${error instanceof Error ? error.message : String(error)}; fix that, and run init again`);
  }
  // What init took from the discovery document, or that --token-url was kept over it.
  const [took = [], auth = []] = discovered ? [discovered.lines.slice(0, 1), discovered.lines.slice(1)] : [];
  const tokenLine = discovered && text('token-url') !== discovered.tokenEndpoint ? [`kept --token-url; the document names ${discovered.tokenEndpoint}`] : took;
  console.log([`wrote ${file}`, ...tokenLine, ...auth, ...lines].join('\n'));
  const variables = variablesOf(secrets);
  const secretStep = secrets.client ? `put the client secret after ${secrets.client.variable}= in .env, then ` : '';
  const ciStep = variables.length > 0 ? `; on GitHub, add the repository secret${variables.length > 1 ? 's' : ''} ${variables.join(', ')}` : '';
  console.log(`next: ${secretStep}run ${invocation('certify')} ${name}${ciStep}`);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));

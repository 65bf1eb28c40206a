// The commands and their options, as `--help` and the usage errors name them: one source for cli.ts, certify.ts,
// init.ts, verify.ts and population.ts. Installed, the package runs compiled (`npx partner-certify …`); in a clone,
// through tsx, where the same commands are npm scripts.
import { writeSync } from 'node:fs';
import path from 'node:path';
import { escaped } from '../population/records';
import { shardKeyVariable } from '../population/shard-file';

export type Command = 'certify' | 'init' | 'verify' | 'population';

const installed = path.extname(__filename) !== '.ts';

/** How the user runs `command` here: `npx partner-certify init` installed, `npx tsx scripts/cli.ts init` in a clone. */
export const invocation = (command: Command): string =>
  installed
    ? `npx partner-certify${command === 'certify' ? '' : ` ${command}`}`
    : { certify: 'npm run certify --', init: 'npx tsx scripts/cli.ts init', verify: 'npm run verify --', population: 'npm run population --' }[command];

interface Usage {
  synopsis: string[];
  about: string;
  options: [string, string][];
  after?: string;
}

const usages: Record<Command, Usage> = {
  certify: {
    synopsis: ['<partner> [options] [playwright test options]'],
    about: "certifies partners/<partner>.json: the preflight, the tests, then the verdict and the report's path",
    options: [
      ['--slow', 'the opt-in slow checks too (about 10 minutes more)'],
      ['--no-preflight', 'skip the checks of the set-up before the tests'],
      ['--compare <certification.json or folder>', 'compare with that run instead of the previous one'],
    ],
    after: 'exit 0: CERTIFIED; 1: NOT CERTIFIED; 3: INCOMPLETE (nothing failed: run it again); 2: a usage error',
  },
  init: {
    synopsis: ['<name> [options]'],
    about:
      'writes partners/<name>.json, .env lines for its client secret and for the credentials in its URLs (a password, an api key: the profile reads them with env:), .gitignore lines, a playwright.config.js and .github/workflows/certify-<name>.yml; asks for what the options leave out; keeps every file that exists',
    options: [
      ['--issuer <url>', 'your OAuth issuer: its discovery document (RFC 8414 or OpenID) gives the token URL, and the run holds it against the endpoint'],
      ['--token-url <url>', 'your token exchange endpoint (TokenExchangeUrl), unless --issuer gives it'],
      ['--account-url <url>', 'your account information endpoint (AccountInfoUrl)'],
      ['--funding-url <url>', 'your funding sources endpoint (FundingSourcesUrl), if you have one'],
      ['--mint-url <url>', 'a staging hook that mints a fresh code (POST, answers {"code": "…"})'],
      ['--client-id <id>', 'the client_id the platform sends you, if any (its secret goes in .env)'],
      ['--encoding form|json', 'the token request body the platform sends you (default form)'],
      ['--collect-missing', 'the platform asks your users for missing Yes* fields (collectMissingAccountInfo)'],
    ],
  },
  verify: {
    synopsis: ['<certification.json> [--key <public key>]'],
    about: 'checks a signed certificate: the signature beside the file (certification.json.jws) and the digests it holds',
    options: [['--key <PEM or JWK file, or its SHA-256 thumbprint>', 'the signer to trust (default: the keys in trusted-signers.pub)']],
    after: 'exit 0: every file holds and a trusted key signed; 1: a file changed, the signature does not hold, or no trusted key checked it; 2: a usage error',
  },
  population: {
    synopsis: [
      '<input | -> [options]',
      'merge <summary.json…> [--out <dir>] [--k <n>]',
      'compare <earlier population.json> <later population.json>',
      'generate --users <n> [--seed <n>] [--now YYYY-MM-DD] [--out <file>]',
    ],
    about:
      'how every user will fare at sign-on. <input>: account-information payloads, one a user: JSON Lines, a JSON array, or CSV whose columns are spec paths (user.firstName, company.address.line1, …); gzip or not; - reads standard input',
    options: [
      ['--collect-missing-account-info', "the platform is configured with collectMissingAccountInfo on for the partner (default: off, or the profile's)"],
      ['--profile <partners/x.json>', 'read collectMissingAccountInfo from a partner profile'],
      ['--funding <input>', 'the users\' funding-sources answers too ({"fundingSources": […]} a user, any format)'],
      ['--now <YYYY-MM-DD>', 'the date ages are judged on (default: today, UTC)'],
      ['--invalid-required <error-screen|typed-again>', "a present but invalid Yes* value (default: error-screen, the emulator's)"],
      ['--invalid-optional <error-screen|dropped>', "a present but invalid no**/no*/no value (default: error-screen, the emulator's)"],
      ['--k <n>', 'show a shape only when at least n people share it, by user.id (default 5, at most 20)'],
      ['--out <dir>', 'where the reports go (default population-report)'],
      ['--shard <i/n>', `judge part i of n; writes a summary for \`population merge\` (needs ${shardKeyVariable})`],
      ['--format <jsonl|json-array|csv>', 'instead of detecting it'],
      ['--column <name>=<spec path>', 'a CSV column of your own name, and the spec path it holds (repeatable)'],
      ['--columns <map.json>', 'the same for many: {"first_name": "user.firstName", …}'],
      ['--workers <n>', 'worker threads (default: one a core)'],
      ['--compare <population.json>', 'also show how each outcome and rule moved since that earlier report'],
      [
        '--records-out <file.csv|.jsonl>',
        "a row a record: its line, user.id, company.id, outcome and the rules that decided it (your users' ids: for you alone)",
      ],
      ['--fail-if <outcome>><share|users>', 'exit 1 when more users meet the outcome, e.g. error-screen>5% (repeatable)'],
      ['--max-unreadable <share>', 'exit 1 when more records than this could not be judged: not JSON objects, too large, too deep (default 1%)'],
    ],
    after:
      'exit 0: the report is written; 1: no record could be judged (a database, an archive, a CSV of unknown columns: nothing written), more records unreadable than --max-unreadable, or a --fail-if crossed; 2: a usage error; 141: generate cut short, its reader stopped early',
  },
};

const commandOrder: Command[] = ['certify', 'init', 'verify', 'population'];

/** `command`'s usage: its synopsis, what it does, and one line per option. */
export function usageOf(command: Command): string {
  const { synopsis, about, options, after } = usages[command];
  const width = Math.max(...options.map(([flag]) => flag.length));
  return [
    ...synopsis.map((line, i) => `${i === 0 ? 'usage:' : '      '} ${invocation(command)} ${line}`),
    `  ${about}`,
    ...options.map(([flag, text]) => `    ${flag.padEnd(width)}  ${text}`),
    ...(after ? [`  ${after}`] : []),
  ].join('\n');
}

/** Every command's usage, for `--help`. */
export const helpText = (): string => commandOrder.map(usageOf).join('\n\n');

/** The commands on one line, for the end of a usage error. */
export const commandsLine = (): string =>
  `commands: ${commandOrder.map((command) => `${invocation(command)} ${usages[command].synopsis[0]!.replace(/ \[.*$/, '')}`).join(' | ')}; add --help for their options`;

/** Whether the arguments ask for help. */
export const asksForHelp = (args: readonly string[]): boolean => args.some((arg) => arg === '--help' || arg === '-h');

/** One line for an argument `parseArgs` refused (an unknown option, a value missing), naming it and `command`'s options. */
export function optionsProblem(command: Command, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^']*)'/.exec(message)?.[1];
  const known = usages[command].options.map(([flag]) => flag.split(' ')[0]).join(', ');
  const what = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option ? `unknown option ${option}` : message.split('\n')[0];
  return `${command}: ${what}; its options: ${known}; ${commandsLine()}`;
}

/**
 * A reader that stops early (`| head`) closes the pipe: the rest of the output is not wanted, and is no crash; the
 * command ends as it would have (files it writes are written before what it prints about them), or, where the output
 * is the product (`population generate`), with the exit code it set before writing it. A full disk under a redirected
 * output is one line and exit 2.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      // Any other (a full disk): one line on the other stream, written at once, and exit 2, as for a file not written.
      const other = stream === process.stdout ? 2 : 1;
      try {
        writeSync(
          other,
          `${stream === process.stdout ? 'standard output' : 'standard error'} could not be written (${error.code ?? error.message}), so what it holds is cut short; free the space, or write to a file\n`,
        );
      } catch {
        // Both are gone: the exit code says it.
      }
      process.exit(2);
    });
}

/**
 * What a command prints names the user's files, whose names may hold an escape sequence or a bidirectional mark: each
 * line is written with those as \uXXXX (population/records.ts `escaped`), never raw. A line break is one too where it
 * is the user's, in a file name or an option's value (`given`, each part of a path and the value of `--name=value`), so
 * that an error stays one line and none of its lines is the user's to write.
 */
export function printVisibly(given: readonly string[] = process.argv.slice(2)): void {
  const values = given.flatMap((arg) => [arg, ...(arg.startsWith('--') && arg.includes('=') ? [arg.slice(arg.indexOf('=') + 1)] : [])]);
  const breaking = [...new Set(values.flatMap((value) => value.split(/[/\\]/)))].filter((part) => part.includes('\n')).sort((a, b) => b.length - a.length);
  const visible = (text: string) =>
    breaking
      .reduce((within, part) => within.split(part).join(escaped(part)), text)
      .split('\n')
      .map(escaped)
      .join('\n');
  for (const stream of ['log', 'error'] as const) {
    const write = console[stream].bind(console);
    console[stream] = (...args: unknown[]) => write(...args.map((arg) => visible(String(arg))));
  }
}

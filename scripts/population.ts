// `npx partner-certify population <input> [options]` (`npm run population -- …` in a clone): how a partner's users
// will fare at sign-on (DESIGN §7); `population merge <summary.json…>` adds shards' summaries; `population generate`
// writes a synthetic population. Exits 2 on a usage error, naming the option and the fix.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeGenerated } from '../population/generate-file';
import type { PopulationSummary } from '../population/summary-schema';
import { mergeShardFiles } from '../population/merge-files';
import { peopleKept } from '../population/kept';
import { sealSummary, shardKeyProblem, shardKeyVariable } from '../population/shard-file';
import { populationConsole, recordsLine } from '../population/report-html';
import { escaped, openRecords, recordsFormatOf } from '../population/records';
import { writeReports } from '../population/write';
import { WriteProblem, writeWhole } from '../population/whole-file';
import { comparePopulations, readPopulationReport } from '../population/compare';
import { comparisonLines } from '../population/report-compare';
import { progressBar } from '../population/progress';
import { accountInfoPaths, judgePopulation } from '../population/run';
import { columnMapOf } from '../population/column-map';
import {
  dateProblem,
  generateOutProblem,
  heapProblem,
  inputsProblem,
  outProblem,
  profileSetting,
  recordsOutProblem,
  shardOf,
  unreadOptions,
  workersProblem,
} from '../population/option-checks';
import { foreignRecords, inputRefusal } from '../population/input-gate';
import { crossed, parseFailIf, shareOf } from '../population/fail-if';
import { emulatorSettings, type Settings } from '../population/summary-schema';
import { invalidOptionalChoices, invalidRequiredChoices } from '../checks/sign-on-decision';
import { endQuietlyOnClosedPipe, optionsProblem, printVisibly, usageOf } from './commands';

endQuietlyOnClosedPipe();
printVisibly();

const usage = usageOf('population');

/** A merge that cannot stand: one line, exit 1, nothing written. */
function refuse(message: string): never {
  console.error(`population merge: ${message}`);
  process.exit(1);
}

const orFail = <T>(value: T | string): T => (typeof value === 'string' ? fail(value) : value);

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

const argv = process.argv.slice(process.argv[2] === 'population' ? 3 : 2);
const subcommand = argv[0] === 'merge' || argv[0] === 'generate' || argv[0] === 'compare' ? (argv.shift() as 'merge' | 'generate' | 'compare') : undefined;
let parsed;
try {
  parsed = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      'collect-missing-account-info': { type: 'boolean' },
      profile: { type: 'string' },
      funding: { type: 'string' },
      now: { type: 'string' },
      'invalid-required': { type: 'string' },
      'invalid-optional': { type: 'string' },
      k: { type: 'string' },
      out: { type: 'string' },
      shard: { type: 'string' },
      format: { type: 'string' },
      workers: { type: 'string' },
      users: { type: 'string' },
      seed: { type: 'string' },
      'fail-if': { type: 'string', multiple: true },
      'max-unreadable': { type: 'string' },
      'records-out': { type: 'string' },
      compare: { type: 'string' },
      column: { type: 'string', multiple: true },
      columns: { type: 'string' },
    },
  });
} catch (error) {
  console.error(optionsProblem('population', error));
  process.exit(2);
}
const { values: options, positionals } = parsed;
if (options.help) {
  console.log(usage);
  process.exit(0);
}

const unread = unreadOptions(subcommand, Object.keys(options));
if (unread) fail(unread);

const positive = (name: string, value: string | undefined, fallback: number, most = Number.MAX_SAFE_INTEGER) => {
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  const range = most === Number.MAX_SAFE_INTEGER ? 'of 1 or more' : `from 1 to ${most.toLocaleString('en-US')}`;
  if (!Number.isInteger(n) || n < 1 || n > most) fail(`--${name} ${value}: give a whole number ${range}`);
  return n;
};
const date = options.now ?? new Date().toISOString().slice(0, 10);
const dateWrong = dateProblem(date);
if (dateWrong) fail(dateWrong);
const k = positive('k', options.k, 5);
if (k > peopleKept) fail(`--k ${k}: at most ${peopleKept}, the people a shape remembers`);
const out = options.out ?? 'population-report';
const gates = (options['fail-if'] ?? []).map((text) => orFail(parseFailIf(text)));
const maxUnreadable = orFail(shareOf('max-unreadable', options['max-unreadable'] ?? '1%'));
/** What the input's unreadable records crossed (refuseUnread): said after the report. */
let unreadableOver: string[] = [];
/** Removes this run's records file before it is put in place (openRecords), when the run is refused. */
let dropRecords = () => {};
// Checked before anything is read: a folder, or nothing yet.
const read = subcommand === 'merge' ? positionals : subcommand === undefined ? positionals.slice(0, 1) : [];
const inputs = [...read, options.funding, options.columns, options.profile, options.compare];
const outWrong = subcommand === 'generate' ? undefined : outProblem(out, inputs);
if (outWrong) fail(outWrong);
const columnMap =
  options.column === undefined && options.columns === undefined ? undefined : orFail(columnMapOf(options.column ?? [], options.columns, accountInfoPaths));
const before = options.compare === undefined ? undefined : orFail(readPopulationReport(options.compare));
const recordsOut = options['records-out'];
const recordsFormat = recordsOut === undefined ? undefined : recordsFormatOf(recordsOut);
if (options.shard !== undefined && (gates.length > 0 || before))
  fail('--fail-if and --compare judge the whole input: give them to population merge, not to a --shard');
const recordsWrong = recordsOut === undefined ? undefined : recordsOutProblem(recordsOut, { inputs, out });
if (recordsWrong) fail(recordsWrong);
const workers = positive('workers', options.workers, 0);
const workersWrong = workersProblem(workers) ?? (subcommand ? undefined : heapProblem(process.env.PARTNER_CERTIFY_WORKER_HEAP_MB));
if (workersWrong) fail(workersWrong);
if (subcommand === undefined && positionals.length > 1) fail(`population: one input, not ${positionals.length}; give --funding for the funding answers`);

async function main() {
  if (subcommand === 'generate') {
    // About 600 bytes a user: 100 million is 60 GB, more than a test population needs.
    const users = positive('users', options.users, 0, 100_000_000);
    if (options.users === undefined) fail('population generate: give --users <n>');
    const outWrong = options.out === undefined || options.out === '-' ? undefined : generateOutProblem(options.out);
    if (outWrong) fail(outWrong);
    await writeGenerated({
      users,
      // The generator's state is 32 bits: a seed past it would give another seed's users.
      seed: positive('seed', options.seed, 1, 2 ** 32 - 1),
      now: new Date(`${date}T00:00:00Z`),
      file: options.out === '-' ? undefined : options.out,
    });
  } else if (subcommand === 'compare') {
    if (positionals.length !== 2) fail('population compare: give the earlier population.json, then the later one');
    const [before, after] = positionals.map((file) => orFail(readPopulationReport(file)));
    console.log(comparisonLines(comparePopulations(before!, after!)).join('\n'));
  } else if (subcommand === 'merge') {
    if (positionals.length === 0) fail("population merge: name the shards' summary files");
    const secret = process.env[shardKeyVariable];
    const keyProblem = shardKeyProblem(secret);
    if (keyProblem) fail(`population merge: ${keyProblem}`);
    const merging = mergeShardFiles(positionals, secret!);
    if ('usage' in merging) fail(merging.usage);
    if ('refused' in merging) refuse(merging.refused);
    const { merged } = merging;
    refuseUnread(merged);
    report(merged);
  } else {
    const [input] = positionals;
    if (input === undefined) fail('population: name the input file, or - for standard input');
    const inputWrong = inputsProblem(input, options.funding);
    if (inputWrong) fail(inputWrong);
    const settings: Settings = {
      collectMissingAccountInfo: options['collect-missing-account-info'] ?? orFail(profileSetting(options.profile)),
      invalidRequired: choice('invalid-required', options['invalid-required'], invalidRequiredChoices, emulatorSettings.invalidRequired),
      invalidOptional: choice('invalid-optional', options['invalid-optional'], invalidOptionalChoices, emulatorSettings.invalidOptional),
      date,
    };
    const shard = options.shard === undefined ? undefined : orFail(shardOf(options.shard));
    const secret = process.env[shardKeyVariable];
    const keyProblem = shard && shardKeyProblem(secret);
    if (keyProblem) fail(`--shard: ${keyProblem}`);
    const format = options.format === undefined ? undefined : choice('format', options.format, ['jsonl', 'json-array', 'csv'] as const, 'jsonl');
    const started = performance.now();
    const progress = progressBar(input);
    const recordsFile = recordsOut === undefined ? undefined : openRecords(recordsOut, recordsFormat!);
    if (recordsFile !== undefined) dropRecords = recordsFile.drop;
    const summary = await judgePopulation(input, {
      settings,
      ...(shard ? { shard } : {}),
      ...(format ? { format } : {}),
      workers: workers || undefined,
      numberColumns: new Set(['company.industry.naicsCode']),
      ...(columnMap ? { columnMap } : {}),
      onProgress: progress,
      ...(recordsFile === undefined ? {} : { records: { format: recordsFormat!, write: recordsFile.write } }),
    });
    const recordsFailure = recordsFile?.failure();
    if (recordsFailure) {
      dropRecords();
      throw recordsFailure;
    }
    if (options.funding !== undefined) {
      const funding = await judgePopulation(options.funding, {
        settings,
        endpoint: 'funding-sources',
        ...(shard ? { shard } : {}),
        onProgress: progressBar(options.funding),
      });
      summary.funding = funding.funding;
      // A merge compares what its shards read: the funding answers too (funding.seen.digest is set for a shard only).
      summary.seen.funding = funding.seen.digest;
    }
    progress(undefined);
    const seconds = (performance.now() - started) / 1000;
    const inputs = [summary.input, ...(summary.funding ? [summary.funding.input] : [])];
    const records = inputs.reduce((sum, { payloads, unreadable }) => sum + payloads + Object.values(unreadable).reduce((a, n) => a + n, 0), 0);
    const peak = Math.round(process.resourceUsage().maxRSS / 1024);
    const stats = `judged ${records.toLocaleString('en-US')} records in ${seconds.toFixed(1)} s (${Math.round(records / seconds).toLocaleString('en-US')}/s), peak memory ${peak} MB`;
    // A shard judges its own records only: the gates on them (none an answer, too many unreadable) are the merge's,
    // on the whole input, as one run would judge them; it refuses alone an input with no record at all.
    if (!shard || summary.seen.lines === 0) refuseUnread(summary);
    // The records file is put in place once what the run writes beside it is: never beside a report that failed.
    if (shard) {
      const file = path.join(out, `population-summary.${shard.index}-of-${shard.count}.json`);
      writeWhole([file, sealSummary({ ...summary, shard }, secret!)]);
      recordsFile?.keep();
      console.log(`shard ${shard.index}/${shard.count}: ${stats}; summary: ${file}`);
      if (recordsOut !== undefined) console.log(recordsLine(recordsOut));
    } else {
      report(summary, () => recordsFile?.keep());
      console.log(stats);
    }
  }
}

main().catch((error: unknown) => {
  dropRecords();
  console.error(`population: ${error instanceof Error ? error.message : String(error)}`);
  // A file that could not be written is no gate crossed: its own exit code.
  process.exit(error instanceof WriteProblem ? 2 : 1);
});

function report(summary: PopulationSummary, written = () => {}) {
  const { model, files } = writeReports(summary, { k, out, records: recordsOut === undefined ? undefined : escaped(recordsOut), before });
  written();
  console.log(populationConsole(model, files));
  const over = [...unreadableOver, ...crossed(gates, summary.outcomes)];
  for (const line of over) console.error(`population: ${line}`);
  if (over.length > 0) process.exitCode = 1;
}

/** An input that held no record to judge stops here, nothing written; one with too many unreadable records is reported, then fails. */
function refuseUnread(summary: PopulationSummary) {
  for (const [input, name, foreign] of [
    [summary.input, '', foreignRecords(summary.input.payloads, summary.rules, 'account-info')],
    [summary.funding?.input, '--funding: ', summary.funding && foreignRecords(summary.funding.input.payloads, summary.funding.rules, 'funding-sources')],
  ] as const) {
    if (!input) continue;
    const refusal = foreign ?? inputRefusal(input, maxUnreadable);
    if (refusal === undefined) continue;
    if (input.payloads === 0 || foreign) {
      // Nothing written: not even the records file's header, and an earlier run's file stays as it was.
      dropRecords();
      console.error(`population: ${name}${refusal}`);
      process.exit(1);
    }
    unreadableOver = [...unreadableOver, `${name}${refusal}`];
  }
}

function choice<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) fail(`--${name} ${value}: give one of ${allowed.join(', ')}`);
  return value as T;
}

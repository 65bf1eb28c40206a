import { isUtf8 } from 'node:buffer';
import { parentPort, workerData } from 'node:worker_threads';
import { accountInfoFieldRules } from '../checks/account-info';
import { isObject } from '../checks/evidence';
import { evaluateAll } from '../checks/finding';
import { fundingSourceRules } from '../checks/funding-sources';
import type { Endpoint } from '../checks/payload';
import { addFundingAnswer, addUnreadable, addUser, emptyFunding, emptySummary, personOf } from './tally';
import { deeperThan, depthMost, sourcesMost } from './record-bounds';
import { recordRow, type RecordsFormat } from './records';
import { idCheck } from './shared-ids';
import { decidingRules } from '../checks/sign-on-decision';
import type { PopulationSummary, Settings } from './summary-schema';
import type { Batch } from './batches';

/**
 * A worker thread of the population check (population/run.ts): parses the JSON texts of each batch it is sent, judges
 * each payload with the certification's field rules (evaluateAll, problems only), keeps one summary, and hands it back
 * when told the input has ended.
 */
export interface WorkerSetup {
  settings: Settings;
  /** Whose answers the input holds: account information (the default), or funding sources (`--funding`). */
  endpoint?: Endpoint;
  /** Judge only the records whose line number n has (n - 1) mod count = index - 1. */
  shard?: { index: number; count: number };
  /** Each record's row of the partner's records file (population/records.ts), handed back with its batch. */
  records?: RecordsFormat;
  /** The summary of a worker that died, as of its last checkpoint (population/worker-pool.ts): this one goes on from it. */
  from?: PopulationSummary;
  /** The run's own key of each id's idCheck (population/shared-ids.ts). */
  idKey: number;
}
/** A batch to judge; `replay`: judged before, by a worker that died since, so only its summary counts; `died`: a worker
 * died judging it, so its records are counted as such, not judged again. */
export type ToWorker = { batch: Batch; replay?: true; died?: true } | { checkpoint: true } | { end: true };
export type Ack = { judged: number; rows?: string; ids?: Float64Array };
export type FromWorker = Ack | { replayed: true } | { summary: PopulationSummary; checkpoint?: true };

const { settings, shard, endpoint = 'account-info', records, from, idKey } = workerData as WorkerSetup;
const summary = from ?? emptySummary(settings);
const funding = endpoint === 'funding-sources' ? (summary.funding ??= emptyFunding()) : undefined;
const input = funding?.input ?? summary.input;
const rules = funding ? fundingSourceRules : accountInfoFieldRules;
const problemsOnly = { problemsOnly: true };
const ctx = { now: new Date(`${settings.date}T00:00:00Z`), collectMissingAccountInfo: settings.collectMissingAccountInfo };
const decoder = new TextDecoder();
const ours = (line: number) => !shard || (line - 1) % shard.count === shard.index - 1;

let rows = '';
let ids: number[] = [];
const unreadable = (problem: string, line: number) => {
  addUnreadable(input, problem, line);
  if (records) rows += recordRow(records, line, undefined, 'unreadable', [problem]);
};

function countDied(lines: Float64Array): number {
  let judged = 0;
  for (const given of lines) {
    const line = Math.abs(given);
    if (!ours(line)) continue;
    judged++;
    unreadable('worker-died', line);
  }
  return judged;
}

/**
 * The records of a batch that are not UTF-8 (an export in Windows-1252 or Latin-1): decoded, each bad byte would be
 * U+FFFD, and ids that differ there would read as one. Looked for only in a batch that is not UTF-8 as a whole.
 */
function notUtf8(bytes: Uint8Array, count: number): Set<number> | undefined {
  if (isUtf8(bytes)) return undefined;
  const bad = new Set<number>();
  for (let i = 0, start = 0; i < count; i++) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    if (!isUtf8(bytes.subarray(start, end))) bad.add(i);
    start = end + 1;
  }
  return bad;
}

function judgeBatch(bytes: Uint8Array, lines: Float64Array): number {
  const texts = decoder.decode(bytes).split('\n');
  const badBytes = notUtf8(bytes, lines.length);
  let judged = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = Math.abs(lines[i]!);
    if (!ours(line)) continue;
    judged++;
    // A reader's note in place of the record (population/batches.ts ReaderNote), under its line negated: its kind.
    if (lines[i]! < 0) {
      unreadable(texts[i]!.slice(0, texts[i]!.indexOf(':')), line);
      continue;
    }
    if (badBytes?.has(i)) {
      unreadable('not-utf8', line);
      continue;
    }
    let payload: unknown;
    try {
      // A byte-order mark where files were joined (`cat a.jsonl b.jsonl`, each written with one) begins no record.
      payload = JSON.parse(texts[i]!.charCodeAt(0) === 0xfeff ? texts[i]!.slice(1) : texts[i]!);
    } catch {
      unreadable('not-json', line);
      continue;
    }
    if (!isObject(payload)) unreadable('not-an-object', line);
    else if (deeperThan(payload, depthMost)) unreadable('too-deep', line);
    else if (funding && Array.isArray(payload.fundingSources) && payload.fundingSources.length > sourcesMost) unreadable('too-many-sources', line);
    else if (funding) addFundingAnswer(funding, payload, evaluateAll(rules, payload, ctx, problemsOnly), personOf(payload, line));
    else {
      const problems = evaluateAll(rules, payload, ctx, problemsOnly);
      const person = personOf(payload, line);
      const outcome = addUser(summary, payload, problems, person);
      // Its id, counted for uniqueness by the thread that sees every batch (population/shared-ids.ts).
      const user = payload.user;
      if (isObject(user) && typeof user.id === 'string' && user.id !== '') ids.push(person, idCheck(user.id, idKey));
      if (records) rows += recordRow(records, line, payload, outcome, decidingRules(problems, settings));
    }
  }
  return judged;
}

parentPort!.on('message', (message: ToWorker) => {
  if ('end' in message) return parentPort!.postMessage({ summary } satisfies FromWorker);
  if ('checkpoint' in message) return parentPort!.postMessage({ summary, checkpoint: true } satisfies FromWorker);
  const { batch, replay, died } = message;
  const judged = died ? countDied(batch.lines) : judgeBatch(batch.bytes, batch.lines);
  if (replay) {
    [rows, ids] = ['', []];
    return parentPort!.postMessage({ replayed: true } satisfies FromWorker);
  }
  const batchIds = Float64Array.from(ids);
  parentPort!.postMessage((records ? { judged, rows, ids: batchIds } : { judged, ids: batchIds }) satisfies FromWorker, [batchIds.buffer]);
  [rows, ids] = ['', []];
});

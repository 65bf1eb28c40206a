import { parentPort, workerData } from 'node:worker_threads';
import { isObject } from '../checks/evidence';
import { problemsOf } from './judge';
import type { Endpoint } from '../checks/payload';
import { addFundingAnswer, addUnreadable, addUser, emptyFunding, emptySummary } from './tally';
import type { Settings } from './summary-schema';

/**
 * A worker thread of the population check (population/run.ts): parses and judges the JSON texts of each batch
 * it is sent, keeps one summary, and hands it back when told the input has ended.
 */
export interface WorkerSetup {
  settings: Settings;
  /** Whose answers the input holds: account information (the default), or funding sources (`--funding`). */
  endpoint?: Endpoint;
  /** Judge only the records whose line number n has (n - 1) mod count = index - 1. */
  shard?: { index: number; count: number };
}
export type ToWorker = { batch: { bytes: Uint8Array; lines: Int32Array } } | { end: true };
export type FromWorker = { judged: number } | { summary: ReturnType<typeof emptySummary> };

const { settings, shard, endpoint = 'account-info' } = workerData as WorkerSetup;
const summary = emptySummary(settings);
const funding = endpoint === 'funding-sources' ? (summary.funding = emptyFunding()) : undefined;
const input = funding?.input ?? summary.input;
const ctx = { now: new Date(`${settings.date}T00:00:00Z`), collectMissingAccountInfo: settings.collectMissingAccountInfo };
const decoder = new TextDecoder();
const ours = (line: number) => !shard || (line - 1) % shard.count === shard.index - 1;

function judgeBatch(bytes: Uint8Array, lines: Int32Array): number {
  const texts = decoder.decode(bytes).split('\n');
  let judged = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!ours(line)) continue;
    judged++;
    let payload: unknown;
    try {
      payload = JSON.parse(texts[i]!);
    } catch {
      addUnreadable(input, 'not-json', line);
      continue;
    }
    if (!isObject(payload)) addUnreadable(input, 'not-an-object', line);
    else if (funding) addFundingAnswer(funding, payload, problemsOf(payload, ctx, 'funding-sources'));
    else addUser(summary, problemsOf(payload, ctx));
  }
  return judged;
}

parentPort!.on('message', (message: ToWorker) => {
  if ('end' in message) parentPort!.postMessage({ summary } satisfies FromWorker);
  else parentPort!.postMessage({ judged: judgeBatch(message.batch.bytes, message.batch.lines) } satisfies FromWorker);
});

import { adviceKept, bump, emptyFunding, emptySummary, linesKept, shapesKept } from './tally';
import { addKept, noneKept } from './kept';
import { addSharedIds } from './shared-ids';
import { addCauses } from './fix-gains';
import { alternativeSettings, outcomeKeys, type FundingSummary, type OutcomeCounts, type PopulationSummary } from './summary-schema';

/**
 * Summaries add up: every count is a sum, so the parts of one input (workers, `--shard i/n` on several machines)
 * give, added, what one run over the whole input gives.
 */

const addCounts = (into: Record<string, number>, from: Readonly<Record<string, number>>) => {
  for (const [key, count] of Object.entries(from)) bump(into, key, count);
};
const addOutcomes = (into: OutcomeCounts, from: OutcomeCounts) => {
  for (const key of outcomeKeys) into[key] += from[key];
};

function addInput(into: PopulationSummary['input'], from: PopulationSummary['input']): void {
  into.payloads += from.payloads;
  addCounts(into.unreadable, from.unreadable);
  for (const [problem, lines] of Object.entries(from.unreadableLines)) {
    into.unreadableLines[problem] = [...(into.unreadableLines[problem] ?? []), ...lines].sort((a, b) => a - b).slice(0, linesKept);
  }
  into.problems = [...new Set([...into.problems, ...from.problems])];
  into.notes = [...new Set([...into.notes, ...from.notes])];
}

function addRules(into: PopulationSummary['rules'], from: PopulationSummary['rules']): void {
  for (const [id, tally] of Object.entries(from)) {
    const mine = (into[id] ??= { failed: 0, warned: 0, codes: {}, shapes: noneKept(), advice: {} });
    mine.failed += tally.failed;
    mine.warned += tally.warned;
    addCounts(mine.codes, tally.codes);
    addKept(mine.shapes, tally.shapes, shapesKept);
    for (const [code, texts] of Object.entries(tally.advice)) addKept((mine.advice[code] ??= noneKept()), texts, adviceKept);
  }
}

function addFunding(into: FundingSummary, from: FundingSummary): void {
  addInput(into.input, from.input);
  addCounts(into.outcomes, from.outcomes);
  into.sources += from.sources;
  into.unusableSources += from.unusableSources;
  addRules(into.rules, from.rules);
}

/** Adds `from` into `into` (same settings: the caller checks). */
export function addSummary(into: PopulationSummary, from: PopulationSummary): void {
  addInput(into.input, from.input);
  addOutcomes(into.outcomes, from.outcomes);
  addCounts(into.errorReasons, from.errorReasons);
  addCounts(into.typedFields, from.typedFields);
  addCounts(into.beforePayment, from.beforePayment);
  for (const setting of alternativeSettings) addOutcomes(into.alternatives[setting], from.alternatives[setting]);
  addRules(into.rules, from.rules);
  // The largest sets first, so that a bound reached in the merge leaves out the fewest users.
  for (const [key, users] of Object.entries(from.causes).sort((a, b) => b[1] - a[1])) addCauses(into, key, users);
  into.causesUncounted += from.causesUncounted;
  into.sharedIds = addSharedIds(into.sharedIds, from.sharedIds);
  // The shards of one input each read all of it (population/shard-file.ts checks they did).
  into.seen = {
    ...from.seen,
    ...into.seen,
    bytes: Math.max(into.seen.bytes, from.seen.bytes),
    lines: Math.max(into.seen.lines, from.seen.lines),
    digest: into.seen.digest || from.seen.digest,
  };
  if (from.funding) addFunding((into.funding ??= emptyFunding()), from.funding);
}

/**
 * The summaries of an input's parts, added one at a time (a merge holds one part besides the sum, however many
 * shards: a shard's summary may be megabytes); they must have been judged with the same settings.
 */
export class SummaryMerger {
  private sum: PopulationSummary | undefined;
  private settings = '';

  add(part: PopulationSummary): void {
    const settings = JSON.stringify(part.settings);
    if (this.sum === undefined) [this.sum, this.settings] = [{ ...emptySummary(part.settings), parts: 0 }, settings];
    else if (settings !== this.settings)
      throw new Error(`the summaries were judged with different settings (${this.settings} and ${settings}); judge every shard alike`);
    addSummary(this.sum, part);
    this.sum.parts += part.parts;
  }

  merged(): PopulationSummary {
    if (this.sum === undefined) throw new RangeError('no summary to merge');
    return this.sum;
  }
}

export function mergeSummaries(parts: readonly PopulationSummary[]): PopulationSummary {
  const merger = new SummaryMerger();
  for (const part of parts) merger.add(part);
  return merger.merged();
}

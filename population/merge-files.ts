import { SummaryMerger } from './merge';
import { openSummary, shardsProblem } from './shard-file';
import { readSmallFile } from './small-file';
import type { PopulationSummary } from './summary-schema';

/**
 * `population merge`: the shards' summary files, each read, opened with the key and added before the next is read,
 * so that a merge of thousands of shards holds one summary besides the sum. `usage` is a file that is no summary to
 * read (exit 2); `refused`, shards that do not make one input (exit 1). Nothing is written either way.
 */
export function mergeShardFiles(names: readonly string[], secret: string): { merged: PopulationSummary } | { usage: string } | { refused: string } {
  const merger = new SummaryMerger();
  const parts: { name: string; summary: Pick<PopulationSummary, 'shard' | 'seen'> }[] = [];
  let settingsProblem: string | undefined;
  for (const name of names) {
    const read = readSmallFile(name, 256 * 1024 * 1024);
    if ('problem' in read) return { usage: `population merge: ${name}: ${read.problem}; give the summary files the shards wrote` };
    const summary = openSummary(read.text, secret, name);
    if (typeof summary === 'string') return { refused: summary };
    parts.push({ name, summary: { shard: summary.shard, seen: summary.seen } });
    try {
      merger.add(summary);
    } catch (error) {
      // Judged with other settings: said unless the shards are no one input's in the first place.
      settingsProblem ??= (error as Error).message;
    }
  }
  const problem = shardsProblem(parts) ?? settingsProblem;
  return problem ? { refused: problem } : { merged: merger.merged() };
}

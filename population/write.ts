import path from 'node:path';
import { populationReport } from './report-model';
import type { PopulationReport } from './report-schema';
import { populationHtml } from './report-html';
import { comparePopulations } from './compare';
import type { PopulationSummary } from './summary-schema';
import { writeWhole } from './whole-file';

/** population.json and population.html in `out`: the summary seen through the privacy rule (shapes k users share). */
export function writeReports(
  summary: PopulationSummary,
  { k, out, records, before }: { k: number; out: string; records?: string | undefined; before?: PopulationReport | undefined },
): { model: PopulationReport; files: { html: string; json: string } } {
  const judged = populationReport(summary, { k, records });
  const model = before ? { ...judged, comparison: comparePopulations(before, judged) } : judged;
  const files = { json: path.join(out, 'population.json'), html: path.join(out, 'population.html') };
  // Both whole, or both as they were (a full disk, an interrupt), and through no link already there; the folder made
  // for them is taken away again when they cannot be written.
  writeWhole([files.json, `${JSON.stringify(model, null, 2)}\n`], [files.html, populationHtml(model)]);
  return { model, files };
}

import { readSmallFile } from './small-file';
import { alternativeSettings, outcomeKeys, type AlternativeSetting } from './summary-schema';
import { populationReportSchema, type PopulationReport } from './report-schema';

/**
 * This export against the last: how each outcome and each rule moved between two population reports (their
 * population.json), as the certification's run diff does for a partner's runs.
 */
export interface PopulationComparison {
  before: { payloads: number; date: string };
  outcomes: { outcome: (typeof outcomeKeys)[number]; before: number; after: number; change: number; shareChange: number }[];
  /** Rules by users failed or warned, before and after; a rule of one run only has 0 in the other. */
  rules: { rule: string; before: number; after: number; change: number }[];
  /** Settings judged with that differ (the date aside): part of what moved is theirs. */
  settingsChanged: { setting: AlternativeSetting; before: string; after: string }[];
}

/** A population.json read back, or why it is none: a line naming the file, never quoting it. */
export function readPopulationReport(file: string): PopulationReport | string {
  const read = readSmallFile(file, 64 * 1024 * 1024);
  if ('problem' in read) return `${file}: ${read.problem}; give the population.json a run wrote`;
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    return `${file}: not a population.json (not JSON)`;
  }
  const report = populationReportSchema.safeParse(json);
  return report.success ? report.data : `${file}: not a population.json of this version; give the population.json a run wrote`;
}

export function comparePopulations(before: PopulationReport, after: PopulationReport): PopulationComparison {
  const usersOf = (report: PopulationReport) => new Map(report.fixFirst.map((fix) => [fix.rule, fix.users]));
  const [was, now] = [usersOf(before), usersOf(after)];
  const rules = [...new Set([...was.keys(), ...now.keys()])]
    .map((rule) => ({ rule, before: was.get(rule) ?? 0, after: now.get(rule) ?? 0 }))
    .map((row) => ({ ...row, change: row.after - row.before }))
    .filter((row) => row.change !== 0)
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || (a.rule < b.rule ? -1 : 1));
  return {
    before: { payloads: before.input.payloads, date: before.settings.date },
    outcomes: outcomeKeys.map((outcome) => {
      const [then, nowCount] = [before.outcomes[outcome], after.outcomes[outcome]];
      return {
        outcome,
        before: then.count,
        after: nowCount.count,
        change: nowCount.count - then.count,
        shareChange: Number((nowCount.share - then.share).toFixed(4)),
      };
    }),
    rules,
    settingsChanged: alternativeSettings
      .filter((setting) => before.settings[setting] !== after.settings[setting])
      .map((setting) => ({ setting, before: String(before.settings[setting]), after: String(after.settings[setting]) })),
  };
}

import type { Finding } from '../../checks/finding';
import { answeredBy } from '../../probes/executor';
import type { AnyProbe } from '../../probes/platform';
import { judgedOf, type Probe, type ProbeResult } from '../../probes/probe';
import type { Profile } from '../../profile/profile-schema';

/**
 * What a probe declares is what it judges: each finding is of a rule it owns or says it also judges, and
 * every rule it owns gets a verdict; a probe stopped by an unmet need before its body ran, or by its body
 * midway, still speaks of every rule it answers for (the executor completes them).
 */

export function undeclared(probes: readonly AnyProbe[], results: readonly ProbeResult[]): string[] {
  return results.flatMap((result, index) => {
    const probe = probes[index]!;
    const declared = new Set([...probe.rules, ...(probe.alsoJudges ?? [])].map((rule) => rule.id));
    const judged = new Set(result.findings.map((finding: Finding) => finding.rule));
    return [
      ...[...judged].filter((id) => !declared.has(id)).map((id) => `${probe.id} judged ${id}, which it does not declare`),
      ...probe.rules.filter((rule) => !judged.has(rule.id)).map((rule) => `${probe.id} left ${rule.id} without a verdict`),
    ];
  });
}

/** The probes, each body watched: which stopped midway (its body returned a stop), and which an unmet need stopped before it ran. */
export function watched<P extends AnyProbe>(probes: readonly P[]) {
  const ran = new Set<string>();
  const stoppedMidway = new Set<string>();
  const watching = probes.map((probe): P => {
    const body = probe as unknown as Probe;
    const run: Probe['run'] = async (ctx, met, http) => {
      ran.add(probe.id);
      const judged = judgedOf(await body.run(ctx, met, http));
      if (judged.stop) stoppedMidway.add(probe.id);
      return judged;
    };
    return { ...probe, run };
  });
  const stoppedBefore = () => probes.filter((probe) => !ran.has(probe.id)).map((probe) => probe.id);
  return { probes: watching, stoppedMidway, stoppedBefore };
}

/** The rules a stopped probe answers for and left without a verdict: none, the executor completes them. */
export function unanswered(probes: readonly AnyProbe[], results: readonly ProbeResult[], profile: Profile, stopped: ReadonlySet<string>): string[] {
  return results.flatMap((result, index) => {
    const probe = probes[index]!;
    if (!stopped.has(probe.id)) return [];
    const judged = new Set(result.findings.map((finding) => finding.rule));
    return answeredBy(probe, profile)
      .filter((rule) => !judged.has(rule.id))
      .map((rule) => `${probe.id} stopped and left ${rule.id} without a verdict`);
  });
}

/** Which probes a run cuts short: midway (the body stopped), and before the body (a need unmet). */
export interface Stops {
  midway?: string[];
  before?: string[];
}

/** The probes each run cut short, in the probes' order. */
export function stopsOf(probes: readonly AnyProbe[], midway: ReadonlySet<string>, before: readonly string[]): Stops {
  const stoppedMidway = probes.filter((probe) => midway.has(probe.id)).map((probe) => probe.id);
  return { ...(stoppedMidway.length > 0 ? { midway: stoppedMidway } : {}), ...(before.length > 0 ? { before: [...before] } : {}) };
}

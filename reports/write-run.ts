import type { FullConfig } from '@playwright/test/reporter';
import type { Certify } from '../run/steps';
import type { RunFacts } from '../run/outcome';
import { writeOverview } from './overview-files';
import type { Written } from './partner-files';
import { writePartnerReport, type ReportContext } from './partner-report';
import type { ReportDirs } from './report-dirs';
import { harnessVersion } from './run-info';
import { signingKeyFrom, signingKeyVariable, type SigningKey } from './signing';
import type { Certification } from './certification';

/** The run's signing key, or why it cannot be used (the reports are then written unsigned, and the run fails). */
function runSigning(): { signing?: SigningKey; problem?: string } {
  try {
    const signing = signingKeyFrom();
    return signing ? { signing } : {};
  } catch (error) {
    return { problem: `${error instanceof Error ? error.message : String(error)}; the reports are written unsigned` };
  }
}

/**
 * How the run's coordinator has its certification written (run/coordinator.ts `finish`): every partner's report,
 * signed when the run has a key, then the fleet overview; one partner's failing to write costs no other its
 * report. Returns each partner's verdict, and what could not be written.
 */
export const certifyRun =
  (config: FullConfig, dirs: ReportDirs): Certify =>
  async ({ partners, result, egress, learn }) => {
    const { signing, problem } = runSigning();
    // The signing key is the harness's own secret, masked in every partner's files.
    learn([...(signing?.secrets ?? []), ...(process.env[signingKeyVariable] ? [process.env[signingKeyVariable]] : [])]);
    const problems = problem ? [problem] : [];
    if (problem) egress.warn(problem);
    // The tests' own times, also in a merge, where the merge's clock says nothing of when the partner was tested.
    const span = { startedAt: new Date(result.startTime), finishedAt: new Date(result.startTime.getTime() + result.duration) };
    const context: ReportContext = {
      result,
      span,
      stamps: partners.flatMap((partner) => partner.stamps),
      harness: harnessVersion(config.rootDir),
      config,
      partners: new Map(partners.map((partner) => [partner.name, partner])),
      egress,
      signing,
      dirs,
    };
    const written: { partner: { name: string; history: readonly Certification[] }; out: Written }[] = [];
    for (const partner of partners) {
      try {
        const out = await writePartnerReport(partner, context);
        written.push({ partner: { name: partner.name, history: out.history }, out });
      } catch (error) {
        const line = `${partner.name}: the certification report could not be written: ${error instanceof Error ? error.message : String(error)}`;
        egress.for(partner.name).warn(`\n${line}`);
        problems.push(line);
      }
    }
    try {
      await writeOverview(written, span.finishedAt, dirs, egress);
    } catch (error) {
      const line = `the fleet overview could not be written: ${error instanceof Error ? error.message : String(error)}`;
      egress.warn(`\n${line}`);
      problems.push(line);
    }
    // A platform fails the run only when it is the bundled emulator, whose checks are the harness's own
    // self-check: another platform's failure is reported, never the partner's to fix.
    const verdicts: RunFacts['verdicts'] = written.map(({ out: { certification: cert } }) => ({
      partner: cert.run.partner,
      verdict: cert.verdict,
      ...(cert.platform?.emulator ? { emulator: cert.platform.verdict } : {}),
    }));
    return { verdicts, problems };
  };

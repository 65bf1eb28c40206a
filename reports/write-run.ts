import type { FullConfig, FullResult } from '@playwright/test/reporter';
import { harnessWords } from '../checks/harness-words';
import { ordinaryText } from '../redaction/secrets';
import { Vault } from '../redaction/vault';
import { runFolder } from '../run/run-dir';
import { writeOverview } from './overview-files';
import type { Written } from './partner-files';
import { writePartnerReport } from './partner-report';
import type { Partner, ReportDirs } from './partner-state';
import { harnessVersion } from './run-info';
import { signingKeyFrom, signingKeyVariable, type SigningKey } from './signing';

/** What a run's certification leaves to say when it is written: which partners it did not certify, and whether writing failed. */
export interface RunVerdicts {
  /** `<partner> NOT CERTIFIED` or `<partner> INCOMPLETE`, and a bundled emulator that did not conform. */
  uncertified: string[];
  /** A report that could not be written, or a signing key that could not be used. */
  failed: boolean;
  /** Each partner's verdicts, as its report states them (the certification reporter annotates its first test with them). */
  summaries: Record<string, { partner: string; platform?: string }>;
}

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
 * The run's secrets as the reports mask them: each profile's secrets mask its partner's artifacts only, the
 * signing key and the harness's own words every partner's, and what the workers learned (redaction/vault.ts).
 */
function runVault(partners: Iterable<Partner>, signing: SigningKey | undefined): Vault {
  const signingSecrets = (signing?.secrets ?? (process.env[signingKeyVariable] ? [process.env[signingKeyVariable]] : [])).map((value) => ({ value }));
  return new Vault(
    [
      ...[...partners].flatMap((partner) => partner.secrets.map((secret) => ({ ...secret, partner: partner.name }))),
      ...signingSecrets,
      ...ordinaryText(harnessWords),
    ],
    { dir: runFolder('vault') },
  );
}

export interface RunToWrite {
  partners: ReadonlyMap<string, Partner>;
  result: FullResult;
  config: FullConfig;
  dirs: ReportDirs;
}

/**
 * Every partner's report, signed when the run has a key, then the fleet overview; one partner's failing to write
 * costs no other its report. Returns the verdicts, and the run's secrets the reports were masked with.
 */
export async function writeRun({ partners, result, config, dirs }: RunToWrite): Promise<{ verdicts: RunVerdicts; vault: Vault }> {
  const { signing, problem } = runSigning();
  if (problem) console.error(problem);
  const vault = runVault(partners.values(), signing);
  const verdicts: RunVerdicts = { uncertified: [], failed: problem !== undefined, summaries: {} };
  // The tests' own times, also in a merge, where the merge's clock says nothing of when the partner was tested.
  const span = { startedAt: new Date(result.startTime), finishedAt: new Date(result.startTime.getTime() + result.duration) };
  const stamps = [...partners.values()].flatMap((partner) => partner.stamps);
  const context = { result, span, stamps, harness: harnessVersion(config.rootDir), config, partners, vault, signing, historyDir: dirs.historyDir };
  const written: { partner: Partner; out: Written }[] = [];
  for (const partner of partners.values()) {
    try {
      written.push({ partner, out: await writePartnerReport(partner, context) });
    } catch (error) {
      console.error(`\n${partner.name}: the certification report could not be written: ${error instanceof Error ? error.message : String(error)}`);
      verdicts.failed = true;
    }
  }
  try {
    writeOverview(written, span.finishedAt, dirs);
  } catch (error) {
    console.error(`\nthe fleet overview could not be written: ${error instanceof Error ? error.message : String(error)}`);
    verdicts.failed = true;
  }
  // A partner not certified fails the run; a platform only when it is the bundled emulator, whose checks are
  // the harness's own self-check: another platform's failure is reported, never the partner's to fix.
  for (const { partner, out } of written) {
    const cert = out.certification;
    if (cert.verdict === 'NOT CERTIFIED' || cert.verdict === 'INCOMPLETE') verdicts.uncertified.push(`${partner.name} ${cert.verdict}`);
    if (cert.platform?.emulator && cert.platform.verdict !== 'CONFORMS' && cert.platform.verdict !== 'NOT CHECKED')
      verdicts.uncertified.push(`the bundled emulator ${cert.platform.verdict} (with ${partner.name})`);
    verdicts.summaries[partner.name] = { partner: cert.summary, ...(cert.platform ? { platform: cert.platform.summary } : {}) };
  }
  return { verdicts, vault };
}

/** A partner not certified, or reports that could not be written or masked: the run fails. */
export const failsRun = (verdicts: RunVerdicts): boolean => verdicts.failed || verdicts.uncertified.length > 0;

/** How a run fails that only an error can fail (a run without the certification reporter, a merge): naming who. */
export function notCertifiedError(verdicts: RunVerdicts): Error {
  const error = new Error(`not certified: ${verdicts.uncertified.join(', ') || 'the reports could not be written'}`);
  error.stack = error.message;
  return error;
}

/** Every partner not certified is INCOMPLETE, nothing else went wrong: the harness's command exits 3 (reports/run-outcome.ts). */
export const incompleteOnly = (verdicts: RunVerdicts): boolean =>
  !verdicts.failed && verdicts.uncertified.length > 0 && verdicts.uncertified.every((one) => one.endsWith(' INCOMPLETE'));

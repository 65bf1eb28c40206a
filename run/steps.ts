import type { FullResult } from '@playwright/test/reporter';
import type { LoadedProfile } from '../partners/profile';
import type { Vault } from '../redaction/vault';
import type { CollectedPartner } from './collected';
import type { Egress } from './egress';
import type { RunFacts } from './outcome';

/**
 * The two steps of a run its coordinator (run/coordinator.ts) is handed by the layers above it: the preflight
 * (fixtures/preflight.ts, in globalSetup) and the writing of the certification (reports/write-run.ts, at the end).
 */

/** A line about one partner (masked with its secrets), or about the run. */
export type Line = { partner?: string; line: string };

/** The preflight: what stops the run, each partner's refused platform set-up, and warnings. */
export type Preflight = (
  partners: readonly LoadedProfile[],
  vault: Vault,
) => Promise<{ stop: Line[]; footer: string; setupProblems: Record<string, readonly string[]>; warnings: Line[] }>;

/** Writes the run's certification: each partner's verdict, and what went wrong in writing. */
export type Certify = (run: {
  partners: readonly CollectedPartner[];
  result: FullResult;
  egress: Egress;
  /** Hands the masking a secret of the harness's own (the signing key). */
  learn: (values: readonly string[]) => void;
}) => Promise<Pick<RunFacts, 'verdicts' | 'problems'>>;

import type { Owner } from '../checks/finding';
import type { Waiver } from '../checks/waivers';
import type { LoadedProfile } from '../partners/profile';
import type { AttemptSaid, AttemptStatus, RunStamp, WorkerEvent } from './events';
import type { RecordedExchange, RecordedFinding } from './probe-record';

/**
 * What the run's coordinator gathers of each partner through a run (or a merge of blob reports): the tests the
 * run chose, and each attempt's events, folded into one test each. Every attempt's findings and exchanges count (a
 * partner that accepts a made-up code once, then refuses it, fails the rule), and the earlier attempts are listed.
 * Nothing is decided here: each record carries its decision, made once, in the worker.
 */

export type TestStatus = AttemptStatus | 'not-run';

export interface CollectedTest {
  title: string;
  /** The probe the test ran, and its area (`token-exchange`), and whose rules it judges. */
  probe?: string;
  area: string;
  owner?: Owner;
  status: TestStatus;
  durationMs: number;
  errors: string[];
  skipReason?: string;
  findings: RecordedFinding[];
  exchanges: RecordedExchange[];
  /** The attempts before the last, when Playwright retried the test. */
  earlierAttempts?: { status: TestStatus; errors: string[] }[];
  /** Why each code request the code source asked again while the test ran (every attempt) was retried. */
  codeRetries: string[];
  /** The screens a browser showed, as files the report reads when it is written. */
  screens: { name: string; path: string }[];
}

/** A test the run chose, as Playwright's reporter API shows it when the run begins. */
export interface ChosenTest {
  id: string;
  title: string;
  details: TestDetails;
}

/** What a probe's test declares of itself (suites/: run/test-details.ts): known before it runs. */
export interface TestDetails {
  probe?: string;
  area?: string;
  owner?: Owner;
}

export interface CollectedPartner {
  name: string;
  loaded?: LoadedProfile;
  waivers: readonly Waiver[];
  platformWaivers: readonly Waiver[];
  tests: Map<string, CollectedTest>;
  /** Which run each result belongs to, as the tests stamped it. */
  stamps: RunStamp[];
  /** The partner whose tests judged this one's platform, when not its own (also in a merge: the tests say so). */
  platformJudgedBy?: string;
  /** Its own platform credentials that the platform refused, as the preflight found them. */
  setupProblems: readonly string[];
  chromium: string | null;
  /** Whether any of its tests began: `--list`, or a run stopped before it reached the partner, writes no report. */
  ran: boolean;
}

/** A partner as the run begins to gather it: its profile (where it could be read) and the waivers it is decided with. */
export const newPartner = (name: string, waivers: Pick<CollectedPartner, 'waivers' | 'platformWaivers'>, loaded?: LoadedProfile): CollectedPartner => ({
  name,
  ...(loaded ? { loaded } : {}),
  waivers: waivers.waivers,
  platformWaivers: waivers.platformWaivers,
  tests: new Map(),
  stamps: [],
  setupProblems: [],
  chromium: null,
  ran: false,
});

/** A test that is no probe's (none of the suites has one): its area is not known. */
export const unknownArea = 'unknown';

/** The tests the run chose, none run yet: those whose attempts never come did not finish. */
export function chosenTests(partner: CollectedPartner, chosen: readonly ChosenTest[]): void {
  for (const { id, title, details } of chosen) {
    partner.tests.set(id, {
      title,
      ...(details.probe !== undefined ? { probe: details.probe } : {}),
      area: details.area ?? unknownArea,
      ...(details.owner ? { owner: details.owner } : {}),
      status: 'not-run',
      durationMs: 0,
      errors: [],
      findings: [],
      exchanges: [],
      codeRetries: [],
      screens: [],
    });
  }
}

/** One event of an attempt, folded into its test. An attempt begun and never ended (a worker that died) is interrupted. */
export function collect(partner: CollectedPartner, event: WorkerEvent, attempts: Map<string, Attempt>): void {
  const key = `${event.testId}\u0000${event.retry}`;
  if (event.type === 'attempt-begun') {
    partner.ran = true;
    attempts.set(key, { title: event.title, testId: event.testId, retry: event.retry });
    return;
  }
  const attempt = attempts.get(key) ?? { title: partner.tests.get(event.testId)?.title ?? event.testId, testId: event.testId, retry: event.retry };
  attempts.set(key, attempt);
  if (event.type === 'attempt-said') attempt.said = event.said;
  else endAttempt(partner, attempt, event.status, event.durationMs, event.errors);
}

/** The attempts begun and never ended, once the run is over: each counts as interrupted. */
export function endUnfinished(partner: CollectedPartner, attempts: ReadonlyMap<string, Attempt>): void {
  for (const attempt of attempts.values()) if (!attempt.ended) endAttempt(partner, attempt, 'interrupted', 0, []);
}

/** What one attempt of a test has said so far. */
export interface Attempt {
  title: string;
  testId: string;
  retry: number;
  said?: AttemptSaid;
  /** Why its record could not be read (a merge's attachment that does not parse). */
  unreadable?: string;
  ended?: true;
}

/** Folds an ended attempt into its test. */
export function endAttempt(partner: CollectedPartner, attempt: Attempt, status: AttemptStatus, durationMs: number, errors: readonly string[]): void {
  partner.ran = true;
  attempt.ended = true;
  const { said } = attempt;
  if (said) {
    partner.stamps.push(said.stamp);
    if (said.browser) partner.chromium = said.browser;
    if (said.judgedBy) partner.platformJudgedBy = said.judgedBy;
  }
  const before = attempt.retry > 0 ? partner.tests.get(attempt.testId) : undefined;
  const earlier = before && before.status !== 'not-run' ? [...(before.earlierAttempts ?? []), { status: before.status, errors: before.errors }] : [];
  const chosen = partner.tests.get(attempt.testId);
  partner.tests.set(attempt.testId, {
    title: attempt.title,
    ...(said?.probe !== undefined || chosen?.probe !== undefined ? { probe: said?.probe ?? chosen!.probe! } : {}),
    area: said?.area ?? chosen?.area ?? unknownArea,
    ...(said?.owner || chosen?.owner ? { owner: said?.owner ?? chosen!.owner! } : {}),
    // A test whose record cannot be read did not complete, whatever it returned: what it judged is not known.
    status: attempt.unreadable && status === 'passed' ? 'failed' : status,
    durationMs: durationMs + (before?.durationMs ?? 0),
    errors: [...errors, ...(attempt.unreadable ? [`"${attempt.title}": ${attempt.unreadable}`] : [])],
    ...(said?.skipReason !== undefined ? { skipReason: said.skipReason } : {}),
    findings: [...(before?.findings ?? []), ...(said?.record?.findings ?? [])],
    exchanges: [...(before?.exchanges ?? []), ...(said?.record?.exchanges ?? [])],
    ...(earlier.length > 0 ? { earlierAttempts: earlier } : {}),
    codeRetries: [...(before?.codeRetries ?? []), ...(said?.codeRetries ?? [])],
    screens: [...(before?.screens ?? []), ...(said?.screens ?? [])],
  });
}

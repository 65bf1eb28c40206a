import { existsSync, readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { decide } from '../checks/outcome';
import { attachmentRecord, attemptRecordVersion, type AttemptRecord } from '../run/attempt-record';
import { readTest } from '../run/channel';
import { unknownArea, type Partner } from './partner-state';

/**
 * How one attempt of one test counts in its partner's report: the one way a run's results reach a
 * certification, from the records a run's workers leave (reports/certification-teardown.ts) or from the
 * results of a merge of blob reports (the certification reporter, through `attemptOf`).
 */
export function collectAttempt(partner: Partner, attempt: AttemptRecord): void {
  partner.ran = true;
  const said = readTest(attempt.annotations, attempt.attachments);
  if (said.browser) partner.chromium = said.browser;
  if (said.run) partner.stamps.push(said.run);
  if (said.judgedBy) partner.platformJudgedBy = said.judgedBy;
  const errors = [...attempt.errors.map((error) => stripVTControlCharacters(error)), ...(said.recordError ? [`"${attempt.title}": ${said.recordError}`] : [])];
  // Decided as the test decided (checks/outcome.ts), from its record: the same findings, waivers and clock.
  const record = said.record;
  const decided = record
    ? decide(record.findings, said.owner === 'platform' ? partner.platformWaivers : partner.waivers, new Date(record.judgedAt))
    : undefined;
  // A retry never hides an attempt: every attempt's findings and exchanges count (a partner that accepts
  // a made-up code once, then refuses it, fails the rule), and the earlier attempts are listed.
  const before = attempt.retry > 0 ? partner.tests.get(attempt.testId) : undefined;
  const earlier = before && before.status !== 'not-run' ? [...(before.earlierAttempts ?? []), { status: before.status, errors: before.errors }] : [];
  partner.tests.set(attempt.testId, {
    title: attempt.title,
    ...(said.probe !== undefined ? { probe: said.probe } : {}),
    area: said.area ?? unknownArea,
    ...(said.owner ? { owner: said.owner } : {}),
    // A test whose record cannot be read did not complete, whatever it returned: what it judged is not known.
    status: said.recordError && attempt.status === 'passed' ? 'failed' : attempt.status,
    durationMs: attempt.durationMs + (before?.durationMs ?? 0),
    errors,
    ...(said.skipReason !== undefined ? { skipReason: said.skipReason } : {}),
    findings: [...(before?.findings ?? []), ...(decided?.findings ?? [])],
    exchanges: [...(before?.exchanges ?? []), ...(record?.exchanges ?? [])],
    ...(earlier.length > 0 ? { earlierAttempts: earlier } : {}),
    codeRetries: [...(before?.codeRetries ?? []), ...said.codeRetries],
    screenshots: [
      ...(before?.screenshots ?? []),
      ...said.screens.filter((screen) => existsSync(screen.path)).map((screen) => ({ name: screen.name, png: readFileSync(screen.path) })),
    ],
  });
}

/** The record of an attempt, from what Playwright handed a reporter (a merge's results), as a worker writes it. */
export function attemptOf(test: TestCase, result: TestResult): AttemptRecord {
  return {
    version: attemptRecordVersion,
    project: test.parent.project()?.name ?? '',
    testId: test.id,
    title: test.title,
    retry: result.retry,
    outputDir: '',
    status: result.status,
    durationMs: result.duration,
    errors: result.errors.map((error) => error.message ?? error.value ?? 'unknown error'),
    annotations: [...result.annotations, ...test.annotations],
    attachments: result.attachments.map(attachmentRecord),
  };
}

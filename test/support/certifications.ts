import { allRules } from '../../checks/catalogue';
import type { Exchange } from '../../checks/evidence';
import type { Finding } from '../../checks/finding';
import type { RunInfo, TestRecord } from '../../reports/certification';

/** A run's details, as the reporter gives them, for a partner's run that finished at `finishedAt`. */
export const runInfo = (over: Partial<RunInfo> = {}): RunInfo => ({
  partner: 'acme',
  id: 'run-1',
  shards: null,
  targets: {},
  harness: { version: '0', commit: null },
  startedAt: '2026-12-01T00:00:00.000Z',
  finishedAt: '2026-12-01T00:01:00.000Z',
  status: 'passed',
  node: 'v20',
  playwright: '1.65',
  chromium: null,
  machine: null,
  ...over,
});

/** A passing finding of a rule of the catalogue. */
export const passedFinding = (rule: (typeof allRules)[number]): Finding => ({
  rule: rule.id,
  field: rule.field,
  clause: rule.clause,
  level: rule.level,
  outcome: 'passed',
  message: rule.requirement,
  impact: rule.impact,
});

/**
 * A test that judged every rule of the catalogue: `findings` as given, and every rule they leave out
 * passed. The positive evidence a CERTIFIED verdict needs, around what a test is about.
 */
export function everyRuleJudged(findings: readonly Finding[] = [], over: Partial<TestRecord> = {}): TestRecord {
  const judged = new Set(findings.map((finding) => finding.rule));
  return {
    title: 'every rule',
    area: 'token-exchange',
    status: 'passed',
    durationMs: 1,
    errors: [],
    exchanges: [],
    ...over,
    findings: [...findings, ...allRules.filter((rule) => !judged.has(rule.id)).map(passedFinding)],
  };
}

/** An exchange of `request`, answered 200 with the JSON `body` after `durationMs`. */
export const exchange = (request: Exchange['request'], body = '{}', durationMs = 10): Exchange => ({
  request,
  response: { status: 200, headers: { 'content-type': 'application/json' }, body, bytes: body.length },
  startedAt: '2026-11-21T00:00:00.000Z',
  durationMs,
});

import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { FullConfig } from '@playwright/test/reporter';
import type { Finding } from '../../checks/finding';
import { decide } from '../../checks/outcome';
import type { Waiver } from '../../checks/waivers';
import { loadProfile } from '../../partners/profile';
import { Vault } from '../../redaction/vault';
import type { Certification } from '../../reports/certification';
import { certifyRun } from '../../reports/write-run';
import { collect, endUnfinished, type Attempt, type CollectedPartner } from '../../run/collected';
import { Egress } from '../../run/egress';
import { eventsVersion, parseSaid, type AttemptSaid } from '../../run/events';
import { tempDir } from '../support/temp';

/** What a probe's test says (run/events.ts), and the one decision made of it, in the worker (checks/outcome.ts). */

const failure: Finding = {
  rule: 'token-exchange/redirect',
  field: 'tokenExchangeUrl',
  clause: 'RFC9110 §15.4',
  level: 'MUST',
  outcome: 'failed',
  message: 'answered 302',
  impact: 'no user signs in',
};
const waiver: Waiver = { rule: failure.rule, reason: 'fixed in the next release', approvedBy: 'Platform Integration', expires: '2026-01-01' };
// Its last day: the waiver was in force then, and has expired by the time any report of this test is written.
const beforeMidnight = new Date('2026-01-01T23:59:00Z');

const said = (findings: readonly Finding[]): AttemptSaid => ({
  version: eventsVersion,
  stamp: { id: 'run-1', shard: null, profile: 'digest' },
  probe: 'token-exchange/configured',
  area: 'token-exchange',
  owner: 'partner',
  codeRetries: [],
  screens: [],
  record: { judgedAt: beforeMidnight.toISOString(), findings: [...findings], exchanges: [] },
});

test('what a test said is read back as it wrote it', () => {
  const written = said(decide([failure], [waiver], beforeMidnight).findings);
  expect(parseSaid(JSON.stringify(written))).toEqual({ said: written });
});

test('what does not parse is an error naming what is wrong, never an empty list', () => {
  const good = said([failure]);
  const { rule: _rule, ...withoutRule } = failure;
  const error = (value: unknown) => {
    const read = parseSaid(typeof value === 'string' ? value : JSON.stringify(value));
    return 'error' in read ? read.error : undefined;
  };
  expect(error('{"version":2,')).toMatch(/^its certification record is not JSON/);
  expect(error({ ...good, version: 1 })).toContain(`is of version 1, and this harness reads version ${eventsVersion}`);
  expect(error({ ...good, record: { ...good.record, findings: [withoutRule] } })).toMatch(
    /^its certification record does not parse: "record\.findings\.0\.rule"/,
  );
  expect(error({ ...good, record: { ...good.record, judgedAt: 'yesterday' } })).toMatch(/"record\.judgedAt"/);
  expect(error({ ...good, record: { ...good.record, exchanges: [{ request: {} }] } })).toMatch(/"record\.exchanges\.0\.request\.method"/);
});

/** One partner, one test: its attempt collected and its report written, as the run's coordinator does, with the reference profile. */
async function reportOfOneTest(outputDir: string, attempt: Partial<Attempt>, waivers: readonly Waiver[] = []): Promise<Certification> {
  const profileFile = path.join(outputDir, 'reference.json');
  copyFileSync('partners/reference.json', profileFile);
  if (waivers.length > 0) writeFileSync(path.join(outputDir, 'reference.waivers.json'), JSON.stringify({ waivers }));
  const loaded = loadProfile(profileFile).profile!;
  const partner: CollectedPartner = {
    name: 'reference',
    loaded,
    waivers: loaded.waivers,
    platformWaivers: [],
    tests: new Map(),
    stamps: [],
    setupProblems: [],
    chromium: null,
    ran: false,
  };
  const attempts = new Map<string, Attempt>();
  collect(partner, { type: 'attempt-begun', project: 'reference', testId: 'one', retry: 0, title: 'token exchange' }, attempts);
  Object.assign(attempts.get('one\u00000')!, attempt);
  collect(partner, { type: 'attempt-ended', project: 'reference', testId: 'one', retry: 0, status: 'passed', durationMs: 5, errors: [] }, attempts);
  const config = { rootDir: process.cwd(), version: 'test', shard: null, projects: [] } as unknown as FullConfig;
  const dirs = { outputDir, historyDir: path.join(outputDir, 'history'), compare: undefined };
  const result = { status: 'passed' as const, startTime: new Date(), duration: 10 };
  await certifyRun(config, dirs)({ partners: [partner], result, egress: new Egress(new Vault()), learn: () => {} });
  return JSON.parse(readFileSync(path.join(outputDir, 'reference', 'certification.json'), 'utf8')) as Certification;
}

test("the report takes the decision its test made: a waiver in force on the test's clock waives the failure there too, never decided again", async () => {
  // The test ran before midnight: the waiver was in force, and the test passed (no unwaived failure).
  const decided = decide([failure], [waiver], beforeMidnight);
  expect(decided.failures).toEqual([]);
  // The report is written after the waiver expired, from the test's own decision; the waivers file now holds none.
  const cert = await reportOfOneTest(tempDir('record-'), { said: said(decided.findings) });
  expect(cert.findings.filter((f) => f.rule === failure.rule).map((f) => f.outcome)).toEqual(['waived']);
  expect(cert.verdict).not.toBe('NOT CERTIFIED');
});

test('a test whose record does not parse did not complete, and the report names it', async () => {
  const read = parseSaid('{"version":2,"findings":[{}]}');
  const cert = await reportOfOneTest(tempDir('record-'), { unreadable: 'error' in read ? read.error : 'parsed' });
  expect(cert.verdict).toBe('INCOMPLETE');
  const test = cert.tests.find((t) => t.title === 'token exchange')!;
  expect(test.status).toBe('failed');
  expect(test.errors.join('\n')).toContain('"token exchange": its certification record does not parse:');
});

test('an attempt that began and never ended did not finish', () => {
  const partner: CollectedPartner = {
    name: 'p',
    waivers: [],
    platformWaivers: [],
    tests: new Map(),
    stamps: [],
    setupProblems: [],
    chromium: null,
    ran: false,
  };
  const attempts = new Map<string, Attempt>();
  collect(partner, { type: 'attempt-begun', project: 'p', testId: 'gone', retry: 0, title: 'a test whose worker died' }, attempts);
  endUnfinished(partner, attempts);
  expect(partner.tests.get('gone')).toMatchObject({ title: 'a test whose worker died', status: 'interrupted' });
});

import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { FullConfig } from '@playwright/test/reporter';
import type { Finding } from '../../checks/finding';
import { decide } from '../../checks/outcome';
import type { Waiver } from '../../checks/waivers';
import { collectAttempt } from '../../reports/collect-attempt';
import { partnerOf } from '../../reports/partner-state';
import { writeRun } from '../../reports/write-run';
import type { AttemptRecord } from '../../run/attempt-record';
import type { Certification } from '../../reports/certification';
import { probeAnnotations, readTest, recordAttachment } from '../../run/channel';
import { probeRecord, type ProbeRecord } from '../../run/probe-record';
import { tempDir } from '../support/temp';

/** What a probe's test hands the report (run/probe-record.ts), and the one decision both sides make of it (checks/outcome.ts). */

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

const attachmentOf = (body: string) => [{ name: 'probe record', contentType: 'application/json', body: Buffer.from(body) }];
const read = (body: string) => readTest([], attachmentOf(body));

test('a record is read back as the test wrote it', () => {
  const record = probeRecord([failure], [], beforeMidnight);
  const { body } = recordAttachment(record);
  expect(read(body).record).toEqual(record);
  expect(read(body).recordError).toBeUndefined();
});

test('a record that does not parse is an error naming what is wrong, never an empty list', () => {
  const good = probeRecord([failure], [], beforeMidnight);
  const { rule: _rule, ...withoutRule } = failure;
  expect(read('{"version":1,').recordError).toMatch(/^its probe record is not JSON/);
  expect(read(JSON.stringify({ ...good, version: 2 })).recordError).toContain('is of version 2, and this harness reads version 1');
  expect(read(JSON.stringify({ ...good, findings: [withoutRule] })).recordError).toMatch(/^its probe record does not parse: "findings\.0\.rule"/);
  expect(read(JSON.stringify({ ...good, judgedAt: 'yesterday' })).recordError).toMatch(/"judgedAt"/);
  expect(read(JSON.stringify({ ...good, exchanges: [{ request: {} }] })).recordError).toMatch(/"exchanges\.0\.request\.method"/);
  for (const bad of ['{"version":1,', JSON.stringify({ ...good, findings: [withoutRule] })]) expect(read(bad).record).toBeUndefined();
});

/** One partner, one test: its attempt collected and its report written, as the teardown and a merge do, with the reference profile. */
function reportOfOneTest(outputDir: string, waivers: readonly Waiver[] = []) {
  const profileFile = path.join(outputDir, 'reference.json');
  copyFileSync('partners/reference.json', profileFile);
  if (waivers.length > 0) writeFileSync(path.join(outputDir, 'reference.waivers.json'), JSON.stringify({ waivers }));
  const dirs = { outputDir, historyDir: path.join(outputDir, 'history'), compare: undefined };
  const annotations = probeAnnotations({ id: 'token-exchange', area: 'token-exchange', owner: 'partner' });
  const partner = partnerOf({ name: 'reference', use: { profileFile } as object, metadata: {} }, [{ id: 'one', title: 'token exchange', annotations }], dirs)!;
  const config = { rootDir: process.cwd(), version: 'test', shard: null } as unknown as FullConfig;
  return async (record: ProbeRecord | string, status: AttemptRecord['status']) => {
    const body = typeof record === 'string' ? record : recordAttachment(record).body;
    const attempt = {
      version: 1,
      project: 'reference',
      testId: 'one',
      title: 'token exchange',
      retry: 0,
      outputDir,
      status,
      durationMs: 5,
      errors: [],
      annotations,
    } as const;
    collectAttempt(partner, { ...attempt, errors: [], attachments: [{ name: 'probe record', contentType: 'application/json', body }] });
    const result = { status: 'passed' as const, startTime: new Date(), duration: 10 };
    await writeRun({ partners: new Map([['reference', partner]]), result, config, dirs });
    return JSON.parse(readFileSync(path.join(outputDir, 'reference', 'certification.json'), 'utf8')) as Certification;
  };
}

test('the report decides a record as its test did: a waiver in force on the clock the test recorded waives the failure there too', async () => {
  // The test ran before midnight: the waiver was in force, and the test passed (no unwaived failure).
  expect(decide([failure], [waiver], beforeMidnight).failures).toEqual([]);
  // The report is written after the waiver expired, yet reads the test's own clock from its record.
  const cert = await reportOfOneTest(tempDir('record-'), [waiver])(probeRecord([failure], [], beforeMidnight), 'passed');
  const decided = decide([failure], [waiver], beforeMidnight).findings;
  expect(cert.findings.filter((f) => f.rule === failure.rule).map((f) => f.outcome)).toEqual(decided.map((f) => f.outcome));
  expect(cert.verdict).not.toBe('NOT CERTIFIED');
  expect(cert.waivers.map((w) => [w.status, w.findings])).toEqual([['used', 1]]);
});

test('a test whose record does not parse did not complete, and the report names it', async () => {
  const cert = await reportOfOneTest(tempDir('record-'))('{"version":1,"judgedAt":"2026-11-26T10:00:00.000Z","findings":[{}],"exchanges":[]}', 'passed');
  expect(cert.verdict).toBe('INCOMPLETE');
  const test = cert.tests.find((t) => t.title === 'token exchange')!;
  expect(test.status).toBe('failed');
  expect(test.errors.join('\n')).toContain('"token exchange": its probe record does not parse: "findings.0.rule"');
});

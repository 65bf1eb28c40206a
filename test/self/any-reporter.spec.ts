import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Certification } from '../../reports/certification';
import { partnersDir, referenceAs } from '../support/profiles';
import { profileOf } from '../support/signed-runs';
import { readCertification, runPlaywright, runPlaywrightWith } from '../support/run-playwright';

/**
 * A certification whatever reporters the command names (issue 41): the run's teardown writes it from the
 * attempts the workers left (reports/certification-teardown.ts), with or without the certification reporter.
 */

test('any --reporter certifies and writes the report: line, dot, json, junit, blob, two --reporter flags; a partner not certified fails the run without the certification reporter', async () => {
  test.setTimeout(240_000);
  // Each in an output folder of its own (runPlaywrightWith): Playwright empties its output folder when a run
  // starts, and the default one holds every other test's.
  // A whole certification, with Playwright's line reporter alone: certified, as with the configured reporters. Its
  // partner has no platform, so no browser starts (a whole browser run without the certification reporter is
  // redaction.spec.ts's).
  const line = await runPlaywrightWith(['--project=alpha', '--reporter=line'], {
    PARTNERS_DIR: partnersDir({ alpha: profileOf([]) }),
  });
  expect(line.code, line.stderr).toBe(0);
  const whole = readCertification(line, 'alpha');
  expect(whole.verdict).toBe('CERTIFIED');
  expect(whole.counts.testsNotCompleted).toBe(0);
  // One suite, with each reporter: the same partial certification, judged alike, as the configured reporters give.
  const suite = ['--project=reference', 'suites/funding-sources.spec.ts'];
  const configured = await runPlaywright(suite, {});
  const expected = readCertification(configured, 'reference');
  expect(expected.verdict).toBe('PARTIAL');
  const outcomes = (cert: Certification) => cert.rules.map((rule) => `${rule.id} ${rule.outcome}`);
  const combinations = [
    ['--reporter=dot'],
    ['--reporter=json'],
    ['--reporter=junit'],
    ['--reporter=blob'],
    ['--reporter=reports/certification-reporter.ts', '--reporter=html'],
  ];
  for (const reporter of combinations) {
    const run = await runPlaywrightWith([...suite, ...reporter]);
    expect(run.code, `${reporter.join(' ')}: ${run.stderr}`).toBe(0);
    const cert = readCertification(run, 'reference');
    expect(cert.verdict, reporter.join(' ')).toBe('PARTIAL');
    expect(outcomes(cert), reporter.join(' ')).toEqual(outcomes(expected));
  }
  // Without the certification reporter to fail the run, the teardown does, naming the partner.
  const faultyRun = await runPlaywrightWith(['--project=faulty', 'suites/token-exchange.spec.ts', '--reporter=dot'], {
    PARTNERS_DIR: referenceAs('faulty', ['expires-in-string']),
  });
  expect(faultyRun.code).toBe(1);
  expect(faultyRun.stdout + faultyRun.stderr).toContain('not certified: faulty NOT CERTIFIED');
  expect(readCertification(faultyRun, 'faulty').verdict).toBe('NOT CERTIFIED');
  // The harness's own projects write no certification.
  const unit = await runPlaywrightWith(['--project=unit', '--reporter=dot', 'test/unit/clauses.spec.ts']);
  expect(unit.code).toBe(0);
  expect(existsSync(path.join(unit.out, 'certification'))).toBe(false);
});

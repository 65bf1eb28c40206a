import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import type { Finding } from '../../checks/finding';
import { runProbes } from '../../probes/certification';
import type { Certification } from '../../reports/certification';
import type { Fault } from '../../sandbox/reference-partner/faults';
import { hostileFaultNames, type HostileFault } from '../../sandbox/reference-partner/hostile';
import { endpointsOf, partnersDir, referenceProfile } from '../support/profiles';
import { runPlaywright } from '../support/run-playwright';
import { startReferencePartner } from '../support/sandbox';

/**
 * Hostile partners (the reference partner's hostile faults, plus the catalogue's redirect loops, JSON
 * as text/plain and 401 without WWW-Authenticate): each is reported by name in its rule, and the
 * certification finishes within its timeouts. A nested run then proves the report is still written.
 */

// The partner is served by this test's own worker, beside the probes: on a busy 2-core machine 2 s was not always
// enough to pass on a 1 MiB body before the cap cut it, and a timeout was named instead of the cap.
const requestTimeoutMs = 4_000;
// The longest chain of calls a probe makes one after another, each bounded by requestTimeoutMs.
const deadlineMs = requestTimeoutMs * 4 + 5_000;

type Behaviour = HostileFault | Extract<Fault, 'account-info-redirect' | 'account-info-text-plain' | 'no-www-authenticate'>;

/** The rule that names each behaviour, and how it names it. */
const named: Record<Behaviour, { rule: string; message: RegExp; outcome?: Finding['outcome'] }> = {
  'token-html-page': { rule: 'token-exchange/body-json', message: /the body is an HTML page, not JSON; it starts "<!doctype html>/ },
  'token-503-retry-after': {
    rule: 'token-exchange/rate-limit',
    message: /"tokenExchangeUrl" answered 503 with "Retry-After: 120", longer than the 5 s the harness waits/,
  },
  'token-500': { rule: 'token-exchange/encoding', message: /was answered 500, a server error without Retry-After/ },
  'token-truncated-json': { rule: 'token-exchange/body-json', message: /the body is JSON cut off after \d+ characters/ },
  'token-oversized-body': { rule: 'token-exchange/transport', message: /the response body is larger than the 1 MiB cap/ },
  'token-gzip-bomb': {
    rule: 'token-exchange/transport',
    message: /once decompressed \("content-encoding: gzip"\), the response body is larger than the 1 MiB cap/,
  },
  'token-slow-drip': {
    rule: 'token-exchange/transport',
    message: /no complete response within \d+ ms \("requestTimeoutMs"\): the headers arrived but the body never finished/,
  },
  'token-no-headers': { rule: 'token-exchange/transport', message: /no complete response within \d+ ms \("requestTimeoutMs"\): no response headers arrived/ },
  'token-reset-mid-body': { rule: 'token-exchange/transport', message: /closed the connection in the middle of the body/ },
  'token-redirect-other-host': { rule: 'token-exchange/redirect', message: /answered 307 redirecting to another host, attacker\.invalid/ },
  'account-info-redirect': { rule: 'account-info/redirect', message: /answered 302 redirecting to itself .*, a redirect loop/ },
  'token-bom': { rule: 'token-exchange/utf-8', message: /the body starts with a UTF-8 byte order mark/ },
  'account-info-latin-1': { rule: 'account-info/utf-8', message: /the body is not valid UTF-8: byte 0xFC at offset \d+/ },
  'account-info-text-plain': { rule: 'account-info/content-type', message: /"content-type" is "text\/plain; charset=utf-8"; send "application\/json"/ },
  'account-info-duplicate-keys': {
    rule: 'account-info/unique-keys',
    message: /"user\.email" appears twice in its object; JSON\.parse would silently keep the last one/,
    outcome: 'warning',
  },
  'account-info-proto-key': { rule: 'account-info/no-proto-keys', message: /"user\.__proto__" is a "__proto__" key/, outcome: 'warning' },
  'account-info-deep-nesting': { rule: 'account-info/body-json', message: /the body is not JSON \(it nests more than 64 levels deep\)/ },
  // 1 MiB floods inside the cap: each check stays linear, and a rule lists 20 issues, then counts the rest.
  'account-info-null-flood': { rule: 'account-info/null-values', message: /and 199,980 more like these, not listed one by one/, outcome: 'warning' },
  'account-info-key-flood': { rule: 'account-info/unique-keys', message: /and 59,979 more like these, not listed one by one/, outcome: 'warning' },
  'funding-sources-flood': { rule: 'funding-sources/type/present', message: /and 61,980 more like these, not listed one by one/ },
  // SHOULDs (DESIGN §4, §5: RFC 8259 §4's unique names, header hygiene): named in a warning, not a failure.
  'no-www-authenticate': { rule: 'token-exchange/www-authenticate', message: /"WWW-Authenticate" is missing on a 401/, outcome: 'warning' },
};
const behaviours = Object.keys(named) as Behaviour[];

test('every hostile fault of the catalogue has its expectation here', () => {
  expect(hostileFaultNames.filter((fault) => !(fault in named))).toEqual([]);
});

test('each hostile behaviour is reported by name, and its certification finishes within its timeouts', async () => {
  test.setTimeout(behaviours.length * deadlineMs);
  const partner = await startReferencePartner();
  const timings: string[] = [];
  try {
    // One at a time, so each wall time is its own.
    for (const behaviour of behaviours) {
      const profile = { ...referenceProfile(partner.origin, [behaviour]), requestTimeoutMs };
      const started = performance.now();
      // A certification that never ends is named, and the others still run: the test's own timeout would name none.
      const results = await Promise.race([runProbes(profile), setTimeout(2 * deadlineMs, undefined)]);
      const wallMs = Math.round(performance.now() - started);
      if (!results) {
        expect.soft(wallMs, `${behaviour}: the certification had not ended after ${2 * deadlineMs} ms`).toBeLessThan(deadlineMs);
        continue;
      }
      const findings = results.flatMap((result) => result.findings);
      timings.push(`${behaviour.padEnd(28)} ${String(wallMs).padStart(5)} ms`);
      const { rule, message, outcome = 'failed' } = named[behaviour];
      const hits = findings.filter((f) => f.rule === rule && f.outcome === outcome);
      expect.soft(hits.map((f) => f.message).join('\n'), `${behaviour}: ${rule} ${outcome}, naming it`).toMatch(message);
      expect.soft(wallMs, `${behaviour}: within ${deadlineMs} ms`).toBeLessThan(deadlineMs);
    }
    // Still serving, and still conformant, after all of that.
    const after = (await runProbes({ ...referenceProfile(partner.origin), requestTimeoutMs })).flatMap((result) => result.findings);
    expect(after.filter((f) => f.outcome === 'failed')).toEqual([]);
  } finally {
    await partner.close();
  }
  console.log(`hostile behaviours, wall time of each certification (requestTimeoutMs ${requestTimeoutMs}):\n${timings.join('\n')}`);
  // The prototype of every object is as it was: nothing in the harness merged the "__proto__" key.
  expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
});

// Each partner is a project, and each project costs a worker start: the behaviours most likely to hang, flood or
// crash a run stand for all here (every behaviour is judged through the same probes above).
const inOneRun: Behaviour[] = [
  'token-slow-drip',
  'token-no-headers',
  'token-gzip-bomb',
  'account-info-proto-key',
  'account-info-null-flood',
  'funding-sources-flood',
];

test('a run against several hostile partners at once still writes each certification report, naming the behaviour', async () => {
  test.setTimeout(180_000);
  // A partner's probes run at once, so a hung partner costs about one requestTimeoutMs, not one a test; and the
  // six partners' probes together load the one sandbox process on 2 cores, so not less than this.
  // The partners that hang get a short deadline, which bounds the run; the others the default, so that a
  // loaded 2-core machine (six partners, one sandbox, the other self-tests) cannot time them out by chance.
  const hangs = new Set<Behaviour>(['token-slow-drip', 'token-no-headers']);
  const dir = partnersDir(
    Object.fromEntries(
      inOneRun.map((behaviour) => [
        `hostile-${behaviour}`,
        { ...endpointsOf(referenceProfile('http://127.0.0.1:4400', [behaviour])), ...(hangs.has(behaviour) ? { requestTimeoutMs: 3_000 } : {}) },
      ]),
    ),
  );
  const started = performance.now();
  const httpSuites = ['suites/token-exchange.spec.ts', 'suites/account-info.spec.ts', 'suites/funding-sources.spec.ts'];
  const run = await runPlaywright(
    [...inOneRun.map((behaviour) => `--project=hostile-${behaviour}`), ...httpSuites],
    { PARTNERS_DIR: dir },
    { reporters: ['certification'] },
  );
  const wallMs = Math.round(performance.now() - started);
  expect(run.code).toBe(1);
  for (const behaviour of inOneRun) {
    const certification = JSON.parse(readFileSync(path.join(run.out, 'certification', `hostile-${behaviour}`, 'certification.json'), 'utf8')) as Certification;
    const { rule, message, outcome = 'failed' } = named[behaviour];
    // The HTTP suites only: a run a file filter chose is partial, never CERTIFIED.
    expect.soft(certification.verdict, behaviour).toBe(outcome === 'failed' ? 'NOT CERTIFIED' : 'PARTIAL');
    expect
      .soft(
        certification.findings
          .filter((f) => f.rule === rule && f.outcome === outcome)
          .map((f) => f.message)
          .join('\n'),
        behaviour,
      )
      .toMatch(message);
  }
  console.log(`${inOneRun.length} hostile partners certified in one run: ${wallMs} ms`);
});

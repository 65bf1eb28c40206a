import { expect, test } from '@playwright/test';
import { allRules } from '../../checks/catalogue';
import type { Finding } from '../../checks/finding';
import { buildCertification, type RunInfo, type TestRecord } from '../../reports/certification';
import { certificationHtml } from '../../reports/html-report';
import { everyRuleJudged, exchange, runInfo } from '../support/certifications';

test.describe('the certification and its verdict', () => {
  const partnerRules = allRules.filter((rule) => rule.owner === 'partner').length;
  const run: RunInfo = runInfo({
    targets: { 'token exchange': 'https://p.example/oauth/token' },
    startedAt: '2026-11-21T00:00:00.000Z',
    finishedAt: '2026-11-21T00:00:10.000Z',
  });
  const finding = (rule: string, outcome: Finding['outcome'], field = '', message = 'a message'): Finding => ({
    rule,
    field,
    clause: 'spec §2.3',
    level: 'MUST',
    outcome,
    message,
    impact: 'an impact',
  });
  const record = (title: string, findings: Finding[], extra: Partial<TestRecord> = {}): TestRecord => ({
    title,
    area: 'x',
    status: 'passed',
    durationMs: 5,
    errors: [],
    findings,
    exchanges: [],
    ...extra,
  });

  test('CERTIFIED when no rule failed, every rule was judged or does not apply, and every test completed; warnings are counted', () => {
    const cert = buildCertification(run, [
      everyRuleJudged([finding('token-exchange/cache-control', 'warning'), finding('account-info/user.phone/present', 'skipped')]),
    ]);
    expect(cert.verdict).toBe('CERTIFIED');
    expect(cert.counts).toMatchObject({
      rules: partnerRules,
      passed: partnerRules - 2,
      warning: 1,
      skipped: 1,
      failed: 0,
      notChecked: 0,
      testsNotCompleted: 0,
    });
    expect(cert.summary).toBe(`CERTIFIED: ${partnerRules - 2} of ${partnerRules} rules passed, 1 warning, 1 not applicable`);
    expect(cert.platform).toMatchObject({ verdict: 'CONFORMS', counts: { rules: allRules.length - partnerRules, passed: allRules.length - partnerRules } });
    expect(cert.incomplete).toEqual([]);
  });

  test('code requests the code source retried are counted by why, in the summary and in codeRetries, and change no verdict', () => {
    const cert = buildCertification(run, [
      everyRuleJudged([], { codeRetries: ['answered 500', 'timed out'] }),
      record('t', [], { codeRetries: ['answered 500'] }),
    ]);
    expect(cert.verdict).toBe('CERTIFIED');
    expect(cert.codeRetries).toEqual([
      { reason: 'answered 500', count: 2 },
      { reason: 'timed out', count: 1 },
    ]);
    expect(cert.summary).toBe(
      `CERTIFIED: ${partnerRules} of ${partnerRules} rules passed, 0 warnings, 3 code requests retried (the code source answered 500 2 times, timed out once)`,
    );
    // The control: without retries, no note and an empty list.
    expect(buildCertification(run, [everyRuleJudged()]).codeRetries).toEqual([]);
    expect(buildCertification(run, [everyRuleJudged()]).summary).toBe(`CERTIFIED: ${partnerRules} of ${partnerRules} rules passed, 0 warnings`);
  });

  test('INCOMPLETE, never CERTIFIED, when a single rule was not judged: no test spoke of it, or a rule it depends on could not be judged', () => {
    const missing = everyRuleJudged().findings.filter((f) => f.rule !== 'token-exchange/code-expires');
    const cert = buildCertification(run, [record('t', missing)]);
    expect(cert.verdict).toBe('INCOMPLETE');
    expect(cert.summary).toMatch(/^INCOMPLETE: .*1 not checked \(1 judged by no test that ran\)$/);
    expect(cert.incomplete).toEqual(['1 rule not checked (1 judged by no test that ran)']);
  });

  test('NOT CERTIFIED only for a failed rule; a test that did not complete, or a run that did not finish, is INCOMPLETE', () => {
    const failing = buildCertification(run, [
      record('t', [finding('token-exchange/status', 'failed'), finding('token-exchange/status', 'passed')], { status: 'failed' }),
    ]);
    expect(failing.rules.find((rule) => rule.id === 'token-exchange/status')?.outcome).toBe('failed');
    expect(failing.summary).toMatch(new RegExp(`^NOT CERTIFIED: 1 rule failed, 0 of ${partnerRules} rules passed`));
    expect(failing.counts.testsNotCompleted).toBe(0);
    const timedOut = buildCertification(run, [everyRuleJudged(), record('t', [], { status: 'timedOut', errors: ['Test timeout of 55000ms exceeded.'] })]);
    expect(timedOut.verdict).toBe('INCOMPLETE');
    expect(timedOut.summary).toMatch(/^INCOMPLETE: 1 test did not complete/);
    expect(timedOut.incomplete).toEqual(['1 test did not complete (t)']);
    expect(buildCertification({ ...run, status: 'interrupted' }, [everyRuleJudged()]).summary).toMatch(/^INCOMPLETE: the run ended interrupted/);
  });

  test('every attempt of a retried test counts: a failure in the first attempt is NOT CERTIFIED, a first attempt that stopped short INCOMPLETE', () => {
    const retried = everyRuleJudged([finding('token-exchange/unknown-code-rejected', 'failed'), finding('token-exchange/unknown-code-rejected', 'passed')], {
      earlierAttempts: [{ status: 'failed', errors: ['1 MUST rule failed'] }],
    });
    const cert = buildCertification(run, [retried]);
    expect(cert.verdict).toBe('NOT CERTIFIED');
    expect(cert.tests[0]).toMatchObject({ attempts: 2, earlierAttempts: [{ status: 'failed', errors: ['1 MUST rule failed'] }] });
    const timedOutFirst = buildCertification(run, [everyRuleJudged([], { earlierAttempts: [{ status: 'timedOut', errors: ['Test timeout'] }] })]);
    expect(timedOutFirst.verdict).toBe('INCOMPLETE');
  });

  test('a waiver never makes a rule judged: rules blocked by a waived failure keep the run INCOMPLETE', () => {
    const transport = 'token-exchange/transport';
    const blockedByTransport = (rule: string): Finding => ({ ...finding(rule, 'not-checked'), blockedBy: transport });
    const cert = buildCertification(run, [
      everyRuleJudged([
        { ...finding(transport, 'waived'), waivedOutcome: 'failed' },
        blockedByTransport('token-exchange/status'),
        blockedByTransport('token-exchange/access-token'),
      ]),
    ]);
    expect(cert.verdict).toBe('INCOMPLETE');
    expect(cert.summary).toContain('2 not checked (2 blocked by token-exchange/transport (waived, yet what it blocked was not judged))');
  });

  test("two verdicts: a platform that fails its own rules leaves the partner CERTIFIED, told it is not the partner's to fix", () => {
    const cert = buildCertification(run, [
      everyRuleJudged([finding('mock-link/landing/referrer-policy', 'failed'), finding('sign-on/frame/foreign-host-blocked', 'failed')]),
    ]);
    expect(cert.verdict).toBe('CERTIFIED');
    expect(cert.summary).toMatch(/^CERTIFIED; the platform failed 2 of its checks, not yours to fix: /);
    expect(cert.platform).toMatchObject({ verdict: 'DOES NOT CONFORM', counts: { failed: 2 } });
    expect(cert.rules.find((rule) => rule.id === 'mock-link/landing/referrer-policy')).toMatchObject({ owner: 'platform', outcome: 'failed' });
  });

  test("a partner rule the platform kept from being judged makes the partner INCOMPLETE, naming the platform's rule", () => {
    const blockedByPlatform = (rule: string): Finding => ({ ...finding(rule, 'not-checked'), blockedBy: 'sign-on/mock-link-app/shown' });
    const cert = buildCertification(run, [
      everyRuleJudged([
        finding('sign-on/mock-link-app/shown', 'failed'),
        blockedByPlatform('sign-on/app/shown'),
        blockedByPlatform('sign-on/message/navigated'),
      ]),
    ]);
    expect(cert.verdict).toBe('INCOMPLETE');
    expect(cert.incomplete).toEqual(["2 rules not checked (2 blocked by the platform's sign-on/mock-link-app/shown)"]);
    expect(cert.platform?.verdict).toBe('DOES NOT CONFORM');
  });

  test('a certificate that rests on a waiver says so first', () => {
    const cert = buildCertification(
      run,
      [
        everyRuleJudged([
          {
            ...finding('account-info/user.lastName/pattern', 'waived'),
            waivedOutcome: 'failed',
            waiver: { waiver: 1, reason: 'r', approvedBy: 'Dana Ruiz', expires: '2027-01-01' },
          },
        ]),
      ],
      undefined,
      { waivers: [{ rule: 'account-info/user.lastName/pattern', reason: 'r', approvedBy: 'Dana Ruiz', expires: '2027-01-01' }] },
    );
    expect(cert.verdict).toBe('CERTIFIED');
    expect(cert.summary).toMatch(/^CERTIFIED with 1 waiver: /);
    expect(certificationHtml(cert, [])).toMatch(
      /<div class="banner certified-waived" id="verdict" data-verdict="CERTIFIED">\s*<strong>CERTIFIED with 1 waiver<\/strong>/,
    );
  });

  test('a rule blocked by another failure is not checked, blocked by it, never not applicable; judged elsewhere, it counts as judged', () => {
    const blocked = (rule: string): Finding => ({ ...finding(rule, 'not-checked'), blockedBy: 'token-exchange/encoding' });
    const cert = buildCertification(run, [
      record('exchange', [finding('token-exchange/encoding', 'failed')], { status: 'failed' }),
      record('payload', [blocked('account-info/user.email/format'), blocked('account-info/status')]),
      record('mock link', [finding('account-info/status', 'passed'), finding('account-info/user.phone/present', 'skipped')]),
    ]);
    expect(cert.rules.find((rule) => rule.id === 'account-info/user.email/format')).toMatchObject({
      outcome: 'not-checked',
      blockedBy: 'token-exchange/encoding',
    });
    expect(cert.rules.find((rule) => rule.id === 'account-info/status')).toMatchObject({ outcome: 'passed' });
    expect(cert.rules.find((rule) => rule.id === 'account-info/status')).not.toHaveProperty('blockedBy');
    expect(cert.rules.find((rule) => rule.id === 'account-info/user.phone/present')?.outcome).toBe('skipped');
    expect(cert.summary).toMatch(/, 1 not applicable, \d+ not checked \(1 blocked by token-exchange\/encoding, \d+ judged by no test that ran\)$/);
  });

  test('what users will be asked to type comes from missing Yes*, no** and no* fields', () => {
    const cert = buildCertification(run, [
      record('t', [
        finding('account-info/user.phone/present', 'warning', 'user.phone'),
        finding('account-info/user.dateOfBirth/present', 'failed', 'user.dateOfBirth'),
        finding('account-info/company.taxInfo/present', 'info', 'company.taxInfo'),
        finding('account-info/user.email/present', 'passed', 'user.email'),
      ]),
    ]);
    expect(cert.typing).toEqual([
      { field: 'user.phone', marker: 'Yes*', when: 'at sign-on, on the collection screen, before the app opens' },
      { field: 'user.dateOfBirth', marker: 'Yes*', when: 'never: without collectMissingAccountInfo, sign-on shows them the error screen instead' },
      { field: 'company.taxInfo', marker: 'no**', when: 'before their first payment' },
    ]);
  });

  test("latency of the partner's sign-on endpoints only: nearest-rank p50 and p95, the maximum, and what it was measured under", () => {
    const exchanges = [10, 20, 30, 40, 50, 60, 70, 80, 90, 1000].map((ms) =>
      exchange({ method: 'POST', url: 'https://p.example/oauth/token', headers: {} }, '{}', ms),
    );
    const cert = buildCertification({ ...run, machine: { cores: 2, loadAverage: 3.5 } }, [
      record('t', [], { exchanges: [...exchanges, exchange({ method: 'GET', url: 'https://q.example/v1/bills?limit=1', headers: {} })] }),
    ]);
    // The data API (and the mint URL, any call not to the three endpoints) is no one's sign-on latency.
    expect(cert.latency).toEqual([{ endpoint: 'token exchange', requests: 10, p50Ms: 50, p95Ms: 1000, maxMs: 1000 }]);
    expect(cert.latencyConditions).toEqual({ mostAtOnce: expect.any(Number), cores: 2, loadAverage: 3.5 });
    expect(certificationHtml(cert, [])).toContain('on a machine of 2 cores whose load average was 3.5 when the run ended');
  });

  test('compared with a previous run: fixed, regressed and new failures', () => {
    const previous = buildCertification(run, [record('t', [finding('token-exchange/status', 'failed'), finding('token-exchange/pragma', 'passed')])]);
    const now = buildCertification(
      run,
      [record('t', [finding('token-exchange/status', 'passed'), finding('token-exchange/pragma', 'failed'), finding('token-exchange/expires-in', 'failed')])],
      previous,
    );
    expect(now.comparison).toEqual({
      previous: { finishedAt: run.finishedAt, verdict: 'NOT CERTIFIED' },
      fixed: ['token-exchange/status'],
      regressed: ['token-exchange/pragma'],
      new: ['token-exchange/expires-in'],
    });
  });

  test('the HTML escapes partner data wherever it appears', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const cert = buildCertification({ ...run, partner: hostile }, [
      record(hostile, [finding('token-exchange/status', 'failed', '', `"status" ${hostile}`)], { status: 'failed' }),
    ]);
    const page = certificationHtml(cert, [
      { title: hostile, exchanges: [exchange({ method: 'GET', url: `https://p.example/?q=${hostile}`, headers: {} }, hostile)], screenshots: [] },
    ]);
    expect(page).not.toContain(hostile);
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

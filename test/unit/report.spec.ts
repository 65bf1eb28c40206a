import { expect, test } from '@playwright/test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { allRules } from '../../checks/catalogue';
import { parseJson, type Exchange } from '../../checks/evidence';
import type { Finding } from '../../checks/finding';
import { buildCertification, type RunInfo, type TestRecord } from '../../reports/certification';
import { certificationHtml } from '../../reports/html-report';
import { redact, redactEvidence, secretsOf } from '../../shared/redaction/redact';
import { redactBytes } from '../../shared/redaction/files';
import { maskPersonalData } from '../../shared/redaction/personal-data';
import { curlOf } from '../../reports/reproduce';
import { everyRuleJudged, runInfo } from '../support/certifications';

const exchange = (request: Exchange['request'], body = '{}', durationMs = 10): Exchange => ({
  request,
  response: { status: 200, headers: { 'content-type': 'application/json' }, body, bytes: body.length },
  startedAt: '2026-11-21T00:00:00.000Z',
  durationMs,
});

test.describe('redaction', () => {
  const tokenExchange = exchange(
    {
      method: 'POST',
      url: 'https://partner.example/oauth/token',
      headers: { 'content-type': 'application/json' },
      body: '{"grant_type":"authorization_code","code":"c0de-1234","client_secret":"s3cret-xyz"}',
    },
    '{"access_token":"at-98765","refresh_token":"rt-55555","token_type":"Bearer"}',
  );
  const account = exchange(
    { method: 'GET', url: 'https://partner.example/api/account', headers: { authorization: 'Bearer at-98765' } },
    '{"company":{"taxInfo":{"identifier":"98-7654321"}},"fundingSources":[{"bankAccountNumber":"000111222333"}]}',
  );
  const dataApiError = exchange({ method: 'GET', url: 'https://platform.example/v1/bills', headers: {} }, '{"code":"MISSING_FILTER","message":"…"}');

  test('masks every secret an exchange carried, wherever it shows up, and keeps the last 4 of bank and tax numbers', () => {
    const secrets = secretsOf([tokenExchange, account, dataApiError], ['profile-secret']);
    const text = redact(`${JSON.stringify([tokenExchange, account, dataApiError])} echoed: at-98765 profile-secret 98-7654321`, secrets);
    for (const value of ['c0de-1234', 's3cret-xyz', 'at-98765', 'rt-55555', 'profile-secret', '98-7654321', '000111222333']) expect(text).not.toContain(value);
    expect(text).toContain('****4321');
    expect(text).toContain('****2333');
    // An error code in an answer is not a secret, although its key is "code".
    expect(text).toContain('MISSING_FILTER');
  });

  test('a date of birth in stored evidence keeps its year only, never its month and day', () => {
    const [stored] = redactEvidence(
      [
        exchange(
          { method: 'GET', url: 'https://partner.example/api/account', headers: {} },
          '{"user":{"dateOfBirth":"1990-01-01"},"bankAccountNumber":"000111222333"}',
        ),
      ],
      [],
    );
    expect(stored!.response!.body).toBe('{"user":{"dateOfBirth":"1990-••-••"},"bankAccountNumber":"****2333"}');
  });

  test('masks by shape what it never saw: JWTs, Bearer credentials, secrets by name in JSON, forms, URLs and HAR', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const cases: [string, string][] = [
      [`http://127.0.0.1:4401/reference/auth?token=${jwt}`, 'http://127.0.0.1:4401/reference/auth?token=[redacted]'],
      ['Authorization: Bearer abc123def456', 'Authorization: Bearer [redacted]'],
      ['{"access_token":"opaque-1"}', '{"access_token":"[redacted]"}'],
      ['{\\"client_secret\\":\\"opaque-2\\"}', '{\\"client_secret\\":\\"[redacted]\\"}'],
      ['{"identifier":"12-3456789"}', '{"identifier":"****6789"}'],
      ['/?src=http%3A%2F%2Fh%2Fp%2Fauth%3Fcode%3Dopaque-3%26x%3D1', '/?src=http%3A%2F%2Fh%2Fp%2Fauth%3Fcode%3D[redacted]%26x%3D1'],
      ['grant_type=authorization_code&code=opaque-4', 'grant_type=authorization_code&code=[redacted]'],
      ['"queryString":[{"name":"code","value":"opaque-5"}]', '"queryString":[{"name":"code","value":"[redacted]"}]'],
      ['api-key: opaque-6', 'api-key: [redacted]'],
    ];
    for (const [input, output] of cases) expect(redact(input, [])).toBe(output);
    // Prose stays readable.
    for (const prose of ['send WWW-Authenticate: Bearer realm="x"', 'the Bearer authentication scheme', 'var code=e.charCodeAt(0)'])
      expect(redact(prose, [])).toBe(prose);
  });

  test('masks inside zip archives (traces) and zips embedded as data URLs (the HTML report); leaves binary as is', () => {
    const zip = zipSync({ 'trace.network': strToU8('{"url":"/auth?code=opaque-7"}'), 'shot.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) });
    const entries = unzipSync(redactBytes(zip, []));
    expect(strFromU8(entries['trace.network']!)).toBe('{"url":"/auth?code=[redacted]"}');
    expect([...entries['shot.png']!]).toEqual([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
    const page = strToU8(`<template>data:application/zip;base64,${Buffer.from(zip).toString('base64')}</template>`);
    const embedded = /base64,([^<]+)/.exec(strFromU8(redactBytes(page, [])))![1]!;
    expect(strFromU8(unzipSync(Buffer.from(embedded, 'base64'))['trace.network']!)).toContain('code=[redacted]');
    const untouched = strToU8('nothing secret here');
    expect(redactBytes(untouched, [])).toBe(untouched);
  });
});

test('personal data is masked to what recognises a value, not a person; a field a failure names stays whole', () => {
  const account = {
    user: { email: 'ada.lovelace@example.com', firstName: 'Mary-Jane', lastName: "O'Brien", phone: '+1 (212) 555-0142', dateOfBirth: '1985-12-10' },
    company: { name: 'Analytical Engines LLC', address: { line1: 'PO Box 1024', city: 'Springfield' }, legalAddress: { line1: '12 Main Street' } },
  };
  expect(maskPersonalData({ accountInfo: account }, new Set(['user.lastName', 'company.address.line1']))).toEqual({
    accountInfo: {
      user: { email: 'a•••@example.com', firstName: 'M•••-J•••', lastName: "O'Brien", phone: '+• (•••) •••-0142', dateOfBirth: '1985-••-••' },
      company: { name: 'Analytical Engines LLC', address: { line1: 'PO Box 1024', city: 'Springfield' }, legalAddress: { line1: '•• Main Street' } },
    },
  });
});

test('a body nested past 64 levels is refused as such before any rule walks it', () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  expect(parseJson(deep)).toEqual({ ok: false, error: 'it nests more than 64 levels deep' });
  expect(parseJson(`${'['.repeat(64)}${']'.repeat(64)}`).ok).toBe(true);
});

test('a reproduce command is curl with every secret as a named placeholder, quoted for the shell', () => {
  const masked = redact(
    JSON.stringify({
      method: 'POST',
      url: 'https://p.example/oauth/token?x=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '9', authorization: 'Basic cmVmOnNlY3JldDEyMw==' },
      body: "grant_type=authorization_code&code=c0de-1234&client_id=o'neil",
    }),
    [{ value: 'c0de-1234' }],
  );
  expect(curlOf(JSON.parse(masked) as Exchange['request'])).toBe(
    [
      "curl -i -X POST 'https://p.example/oauth/token?x=1'",
      "  -H 'content-type: application/x-www-form-urlencoded'",
      "  -H 'authorization: Basic <BASE64_CLIENT_ID_COLON_SECRET>'",
      "  --data-raw 'grant_type=authorization_code&code=<CODE>&client_id=o'\\''neil'",
    ].join(' \\\n'),
  );
  expect(curlOf({ method: 'GET', url: 'https://p.example/api/account', headers: { authorization: 'Bearer [redacted]' } })).toContain(
    "-H 'authorization: Bearer <ACCESS_TOKEN>'",
  );
  expect(curlOf({ method: 'POST', url: 'https://p.example/t', headers: {}, body: '{"code":"[redacted]","name":"O\'Brien"}' })).toContain(
    `--data-raw '{"code":"<CODE>","name":"O'\\''Brien"}'`,
  );
});

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

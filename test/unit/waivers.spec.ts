import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { letsOthersIn, type Finding } from '../../checks/finding';
import { applyWaivers, globMatches, type Waiver } from '../../checks/waivers';
import { loadProfile, loadProfiles } from '../../partners/profile';
import { allRules } from '../../checks/catalogue';
import { buildCertification, type TestRecord } from '../../reports/certification';
import { everyRuleJudged, runInfo } from '../support/certifications';
import { tempDir } from '../support/temp';

const profile = {
  tokenExchangeUrl: 'https://partner.example/oauth/token',
  accountInfoUrl: 'https://partner.example/api/account',
  tokenExchangeEncoding: 'form',
  codes: { mintUrl: 'https://partner.example/test/codes' },
};
const nameRule = 'account-info/user.lastName/pattern';
const waiver: Waiver = {
  rule: nameRule,
  field: 'user.lastName',
  reason: "the spec's pattern refuses O'Brien",
  approvedBy: 'Dana Ruiz, platform integration',
  expires: '2026-12-31',
};
const failure = (over: Partial<Finding> = {}): Finding => ({
  rule: nameRule,
  field: 'user.lastName',
  clause: 'spec §2.3',
  level: 'MUST',
  outcome: 'failed',
  message: `"user.lastName" ("O'Brien") does not match the spec's pattern`,
  impact: 'sign-on stops',
  ...over,
});
const onDay = (day: string) => new Date(`${day}T12:00:00Z`);

test('a waiver in force waives the failure it matches, with its terms; the day after its expiry it no longer does', () => {
  const [waived] = applyWaivers([failure()], [waiver], onDay('2026-12-31'));
  expect(waived).toMatchObject({
    outcome: 'waived',
    waivedOutcome: 'failed',
    waiver: { waiver: 1, reason: waiver.reason, approvedBy: waiver.approvedBy, expires: '2026-12-31' },
  });
  const [expired] = applyWaivers([failure()], [waiver], onDay('2027-01-01'));
  expect(expired).toMatchObject({ outcome: 'failed', waiver: { waiver: 1, expired: true } });
});

test('a waiver matches its rule, and its field and message patterns, and nothing else', () => {
  const now = onDay('2026-12-01');
  const outcomes = (w: Waiver, f: Finding) => applyWaivers([f], [w], now)[0]!.outcome;
  expect(outcomes(waiver, failure({ rule: 'account-info/user.firstName/pattern' }))).toBe('failed');
  expect(outcomes(waiver, failure({ field: 'user.firstName' }))).toBe('failed');
  expect(outcomes({ ...waiver, field: 'fundingSources[*].routingNumber', rule: nameRule }, failure({ field: 'fundingSources[3].routingNumber' }))).toBe(
    'waived',
  );
  expect(outcomes({ ...waiver, message: `"user.lastName" ("O'Brien") does not match the spec's pattern` }, failure())).toBe('waived');
  expect(outcomes({ ...waiver, message: `*("o'brien")*` }, failure())).toBe('waived');
  expect(outcomes({ ...waiver, message: '*does not*pattern' }, failure())).toBe('waived');
  expect(outcomes({ ...waiver, message: 'smith' }, failure())).toBe('failed');
  // The whole message, never a part of it: a waiver of O'Brien does not waive O'Brien<script>….
  const script = failure({ message: `"user.lastName" ("O'Brien<script>alert(1)</script>") does not match the spec's pattern` });
  for (const message of ["o'brien", `*("o'brien")*`]) expect(outcomes({ ...waiver, message }, script)).toBe('failed');
  // Only failures and warnings are waived: a pass, a note, a rule not checked are what they are.
  for (const outcome of ['passed', 'info', 'not-checked', 'skipped'] as const) expect(outcomes(waiver, failure({ outcome }))).toBe(outcome);
  expect(outcomes(waiver, failure({ outcome: 'warning', level: 'SHOULD' }))).toBe('waived');
});

test('glob patterns are matched in linear time: a hostile 1 MiB message against many stars', () => {
  const text = 'a'.repeat(1 << 20);
  const started = performance.now();
  expect(globMatches('*a*a*a*a*a*a*a*a*b', text, { anchored: true })).toBe(false);
  expect(globMatches('a*a*a', text, { anchored: true })).toBe(true);
  expect(performance.now() - started).toBeLessThan(2_000); // a backtracking matcher takes minutes here
});

const recordOf = (findings: Finding[]): TestRecord => everyRuleJudged(findings, { title: 'account information', area: 'account-info' });
const run = runInfo();

test('a waived failure does not block CERTIFIED; the verdict counts the waivers used, and stale and expired waivers are reported', () => {
  const waivers: Waiver[] = [waiver, { ...waiver, rule: 'account-info/user.firstName/pattern', field: 'user.firstName' }, { ...waiver, expires: '2026-11-01' }];
  const findings = applyWaivers(
    [failure(), failure({ rule: 'account-info/user.firstName/pattern', field: 'user.firstName', outcome: 'passed' })],
    waivers,
    new Date(run.finishedAt),
  );
  const cert = buildCertification(run, [recordOf(findings)], undefined, { waivers });
  expect(cert.verdict).toBe('CERTIFIED');
  expect(cert.summary).toMatch(/1 rule waived \(1 waiver used\)/);
  expect(cert.summary).toMatch(/1 expired waiver, 1 stale waiver/);
  expect(cert.rules.find((r) => r.id === nameRule)?.outcome).toBe('waived');
  expect(cert.waivers.map((w) => [w.waiver, w.status, w.findings])).toEqual([
    [1, 'used', 1],
    [2, 'stale', 0],
    [3, 'expired', 0],
  ]);
});

test('a MUST failure no waiver covers stays a failure', () => {
  const findings = applyWaivers([failure({ field: 'user.firstName' })], [waiver], new Date(run.finishedAt));
  expect(buildCertification(run, [recordOf(findings)], undefined, { waivers: [waiver] }).verdict).toBe('NOT CERTIFIED');
});

test('partners/<name>.waivers.json loads beside its profile; an unknown rule id or a bad date is a profile error naming the waiver', () => {
  const dir = tempDir('waivers-');
  writeFileSync(path.join(dir, 'acme.json'), JSON.stringify(profile));
  writeFileSync(path.join(dir, 'acme.waivers.json'), JSON.stringify({ waivers: [waiver] }));
  expect(loadProfile(path.join(dir, 'acme.json'), {}).profile?.waivers).toEqual([waiver]);
  // The waivers file is no profile of its own.
  expect(loadProfiles(dir, { env: {}, envFile: '/nonexistent' }).profiles.map((p) => p.name)).toEqual(['acme']);
  writeFileSync(
    path.join(dir, 'acme.waivers.json'),
    JSON.stringify({
      waivers: [
        { ...waiver, rule: 'account-info/user.lastname/pattern' },
        { ...waiver, expires: '2026-02-30' },
      ],
    }),
  );
  expect(loadProfile(path.join(dir, 'acme.json'), {}).errors.map((e) => e.slice(e.indexOf('acme.waivers.json')))).toEqual([
    'acme.waivers.json: "waivers.1.expires" is not a calendar date ("2026-02-30"); write a real day, YYYY-MM-DD, such as "2027-03-31"',
  ]);
  writeFileSync(path.join(dir, 'acme.waivers.json'), JSON.stringify({ waivers: [{ ...waiver, rule: 'account-info/user.lastname/pattern' }] }));
  expect(loadProfile(path.join(dir, 'acme.json'), {}).errors.map((e) => e.slice(e.indexOf('acme.waivers.json')))).toEqual([
    'acme.waivers.json: "waivers.0.rule" names no rule ("account-info/user.lastname/pattern"); copy the id from the report or docs/RULES.md',
  ]);
  writeFileSync(path.join(dir, 'acme.waivers.json'), JSON.stringify({ waivers: [{ rule: nameRule, expires: '2027-01-01' }] }));
  expect(loadProfile(path.join(dir, 'acme.json'), {}).errors.map((e) => e.slice(e.indexOf('acme.waivers.json')))).toEqual([
    'acme.waivers.json: "waivers.0.reason" is missing; give why the platform accepts the deviation',
    'acme.waivers.json: "waivers.0.approvedBy" is missing; give who approved it',
  ]);
});

test('a waived omission is still in the list of what users will be asked to type: a waiver changes the verdict, not the platform', () => {
  const missing = failure({
    rule: 'account-info/user.lastName/present',
    field: 'user.lastName',
    outcome: 'warning',
    level: 'MUST',
    message: '"user.lastName" is missing',
  });
  const waivers = [{ ...waiver, rule: 'account-info/user.lastName/present' }];
  const cert = buildCertification(run, [recordOf(applyWaivers([missing], waivers, new Date(run.finishedAt)))], undefined, { waivers });
  expect(cert.rules.find((r) => r.id === 'account-info/user.lastName/present')?.outcome).toBe('waived');
  expect(cert.typing.map((row) => row.field)).toEqual(['user.lastName']);
});

test.describe('waivers are bounded and visible', () => {
  const now = new Date('2026-11-25T10:00:00Z');
  const errorsOf = (...waivers: object[]) => {
    const dir = tempDir('waivers-');
    writeFileSync(path.join(dir, 'acme.json'), JSON.stringify(profile));
    writeFileSync(path.join(dir, 'acme.waivers.json'), JSON.stringify({ waivers }));
    return loadProfile(path.join(dir, 'acme.json'), {}, now).errors.map((e) => e.slice(e.indexOf('acme.waivers.json')));
  };
  const terms = { reason: 'accepted for the pilot', approvedBy: 'Dana Ruiz, platform integration' };

  test('an expiry at most 180 days ahead; a later one names the last day allowed', () => {
    expect(errorsOf({ rule: nameRule, ...terms, expires: '2027-05-24' })).toEqual([]);
    expect(errorsOf({ rule: nameRule, ...terms, expires: '9999-12-31' })).toEqual([
      'acme.waivers.json: "waivers.0.expires" is 9999-12-31, more than 180 days ahead; a waiver is reviewed at least every 180 days: give 2027-05-24 or earlier',
    ]);
  });

  test('a malformed date is one line naming the file and the field, never a crash', () => {
    for (const expires of ['2027-13-45', '0000-00-00', '2026-02-30']) {
      expect(errorsOf({ rule: nameRule, ...terms, expires })).toEqual([
        `acme.waivers.json: "waivers.0.expires" is not a calendar date ("${expires}"); write a real day, YYYY-MM-DD, such as "2027-03-31"`,
      ]);
    }
    expect(errorsOf({ rule: nameRule, ...terms, expires: '31/12/2027' })).toEqual([
      'acme.waivers.json: "waivers.0.expires" must be a date written YYYY-MM-DD, such as "2027-03-31"',
    ]);
  });

  test('the approver and the reason are letters a reviewer reads, not spaces or invisible characters', () => {
    expect(errorsOf({ rule: nameRule, ...terms, approvedBy: '\u200b', expires: '2027-01-01' })).toEqual([
      'acme.waivers.json: "waivers.0.approvedBy" holds invisible characters (U+200B); write it in plain letters',
    ]);
    expect(errorsOf({ rule: nameRule, ...terms, approvedBy: '- -', expires: '2027-01-01' })).toEqual([
      'acme.waivers.json: "waivers.0.approvedBy" has no letters to read; give who approved it, in words',
    ]);
    expect(errorsOf({ rule: nameRule, ...terms, approvedBy: 'Dana\u202eRuiz', expires: '2027-01-01' })).toEqual([
      'acme.waivers.json: "waivers.0.approvedBy" holds invisible characters (U+202E); write it in plain letters',
    ]);
  });

  test('no waiver for a rule whose failure lets someone other than the platform obtain a token, a code or data', () => {
    const unwaivable = allRules.filter(letsOthersIn).map((rule) => rule.id);
    expect(unwaivable).toEqual(
      expect.arrayContaining([
        'token-exchange/unknown-code-rejected',
        'token-exchange/no-token-without-credentials',
        'token-exchange/concurrent-redemption',
        'account-info/missing-token',
        'token-exchange/tls',
      ]),
    );
    for (const rule of allRules.filter(letsOthersIn)) expect(rule.level, rule.id).toBe('MUST');
    expect(errorsOf({ rule: 'token-exchange/no-token-without-credentials', ...terms, expires: '2027-01-01' })).toEqual([
      'acme.waivers.json: "waivers.0.rule" is token-exchange/no-token-without-credentials, which cannot be waived: when it fails, anyone who can reach the token endpoint gets an access token, without a code or a secret; fix the endpoint instead',
    ]);
  });
});

test("the platform's rules are waived once, in platform.waivers.json beside the profiles, never in a partner's file", () => {
  const dir = tempDir('waivers-');
  const platformRule = 'mock-link/landing/cookies';
  const expires = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const terms = { reason: 'the platform fixes it in release 7.3', approvedBy: 'Dana Ruiz, platform integration', expires };
  writeFileSync(path.join(dir, 'acme.json'), JSON.stringify(profile));
  writeFileSync(path.join(dir, 'acme.waivers.json'), JSON.stringify({ waivers: [{ rule: platformRule, ...terms }] }));
  expect(loadProfile(path.join(dir, 'acme.json'), {}).errors.map((e) => e.slice(e.indexOf('acme.waivers.json')))).toEqual([
    `acme.waivers.json: "waivers.0.rule" is ${platformRule}, a rule of the platform's; waive it in platform.waivers.json, beside the profiles`,
  ]);
  writeFileSync(path.join(dir, 'acme.waivers.json'), JSON.stringify({ waivers: [] }));
  writeFileSync(path.join(dir, 'platform.waivers.json'), JSON.stringify({ waivers: [{ rule: platformRule, ...terms }] }));
  const loaded = loadProfile(path.join(dir, 'acme.json'), {}).profile!;
  expect([loaded.waivers, loaded.platformWaivers.map((w) => w.rule)]).toEqual([[], [platformRule]]);
  // The platform's file is no profile, and waives no partner rule.
  expect(loadProfiles(dir, { env: {}, envFile: '/nonexistent' }).profiles.map((p) => p.name)).toEqual(['acme']);
  writeFileSync(path.join(dir, 'platform.waivers.json'), JSON.stringify({ waivers: [{ rule: nameRule, ...terms }] }));
  expect(loadProfile(path.join(dir, 'acme.json'), {}).errors.map((e) => e.slice(e.indexOf('platform.waivers.json')))).toEqual([
    `platform.waivers.json: "waivers.0.rule" is ${nameRule}, a rule of the partner's; waive it in the partner's own <partner>.waivers.json`,
  ]);
});

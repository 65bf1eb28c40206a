import { expect, test } from '@playwright/test';
import type { HttpClient, HttpRequest } from '../../client/http';
import type { Finding } from '../../checks/finding';
import { gradeEmulatorChoices } from '../../probes/emulator-choices';
import { connectPlatform, platformOf } from '../../probes/platform';
import { signOnProbes } from '../../probes/sign-on';
import { notApplicable } from '../../probes/executor';
import type { Profile } from '../../profile/profile-schema';
import { referenceProfile } from '../support/profiles';

/** A platform the harness did not write is never configured, seeded, or given what a person would not type. */

const emulator = { url: 'http://127.0.0.1:4401', apiKey: 'k', partnerName: 'reference', hostPageUrl: 'http://127.0.0.1:4402/' };
const base: Profile = { ...referenceProfile('http://127.0.0.1:4400'), platform: emulator };
const external = (over: Partial<NonNullable<Profile['platform']>> = {}): Profile => ({
  ...base,
  platform: { url: 'https://sandbox.platform.example', apiKey: 'k', partnerName: 'acme', hostPageUrl: 'http://127.0.0.1:4402/', ...over },
});
const skipReasonOf = (id: string, profile: Profile) =>
  notApplicable(
    signOnProbes.find((probe) => probe.id === id)!,
    profile,
  );

test('a loopback platform is the emulator, any other url an external platform, unless "kind" says so', () => {
  expect(platformOf(base.platform!)).toMatchObject({ kind: 'emulator', configure: true, storeTestData: true });
  expect(platformOf(external().platform!)).toMatchObject({ kind: 'external', configure: false, storeTestData: false });
  expect(platformOf({ ...base.platform!, kind: 'external' })).toMatchObject({ kind: 'external', configure: false, storeTestData: false });
  expect(platformOf(external({ storeTestData: true }).platform!).storeTestData).toBe(true);
  // Loopback however its host is written.
  for (const url of ['http://localhost:4401', 'http://[::1]:4401', 'http://0.0.0.0:4401', 'http://[::]:4401', 'http://127.1.2.3:4401'])
    expect(platformOf({ ...emulator, url }).kind, url).toBe('emulator');
});

test('an external platform is sent nothing when the run connects: it is configured in its own admin', async () => {
  const sent: HttpRequest[] = [];
  const http: HttpClient = {
    send: async (request) => {
      sent.push(request);
      return {
        request: { method: request.method, url: request.url, headers: {} },
        failure: { kind: 'network', message: 'unexpected' },
        startedAt: '',
        durationMs: 0,
      };
    },
  };
  await connectPlatform(external(), http);
  expect(sent).toEqual([]);
});

test('markup and typed personal data are stored only where the profile allows it; funding sync is never skipped on a platform with funding sources', () => {
  expect(skipReasonOf('sign-on/escaping', external())).toBe(
    'it would store a company name carrying markup in a platform the harness did not write; set "platform.storeTestData": true to allow it (a sandbox of your own)',
  );
  expect(skipReasonOf('sign-on/escaping', external({ storeTestData: true }))).toBeUndefined();
  // Judged through the partner's hook, or not checked saying what is missing (test/self/external-platform.spec.ts): never not applicable.
  expect(skipReasonOf('sign-on/funding-sync', external())).toBeUndefined();
  expect(skipReasonOf('sign-on/escaping', base)).toBeUndefined();
  expect(skipReasonOf('sign-on/funding-sync', base)).toBeUndefined();
});

test("against an external platform, a rule that rests on the emulator's choice is a note, unless the profile states the platform's own", () => {
  const finding = (rule: string, outcome: Finding['outcome'] = 'failed'): Finding => ({
    rule,
    field: 'token',
    clause: 'RFC8725 §3.1',
    level: 'MUST',
    outcome,
    message: 'the JWT\'s "alg" is "RS256"; sign with HS256',
    impact: '',
  });
  const [noted] = gradeEmulatorChoices([finding('mock-link/jwt/algorithm')], external());
  expect(noted).toMatchObject({
    outcome: 'info',
    message:
      'the JWT\'s "alg" is "RS256"; sign with HS256 (the algorithm the link is signed with is the bundled emulator\'s choice, which the spec leaves open; state this platform\'s in "platform.mockLink.algorithms" to make it a requirement)',
  });
  expect(
    gradeEmulatorChoices(
      [finding('mock-link/jwt/algorithm')],
      external({ mockLink: { algorithms: ['HS512'], claim: 'accountInfo', maxLifetimeSeconds: 600 } }),
    )[0]!.outcome,
  ).toBe('failed');
  expect(gradeEmulatorChoices([finding('mock-link/jwt/algorithm')], base)[0]!.outcome).toBe('failed');
  // A rule of the spec's own, or a security rule, stays what it is.
  expect(gradeEmulatorChoices([finding('mock-link/jwt/alg-none-rejected')], external())[0]!.outcome).toBe('failed');
  // The data API's open choices: a warning becomes a note too, for a data API the harness did not write.
  const remote = { ...base, platform: undefined, dataApi: { baseUrl: 'https://api.platform.example', token: 't' } };
  expect(gradeEmulatorChoices([finding('data-api/params/limit', 'warning')], remote)[0]!.outcome).toBe('info');
  expect(gradeEmulatorChoices([finding('data-api/walk/cursor')], remote)[0]!.outcome).toBe('failed');
});

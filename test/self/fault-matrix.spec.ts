import { expect, test } from '@playwright/test';
import { accountInfoFieldRules } from '../../checks/account-info';
import { failed, notPassing, type Finding } from '../../checks/finding';
import { runProbes } from '../../probes/certification';
import { faultCatalogue, faultNames, type Fault } from '../../sandbox/reference-partner/faults';
import { completeUserKeys, type UserKey } from '../../sandbox/reference-partner/users';
import { referenceProfile } from '../support/profiles';
import { startReferencePartner } from '../support/sandbox';
import { expectedFailures } from './expected-failures';

let partner: Awaited<ReturnType<typeof startReferencePartner>>;
test.beforeAll(async () => (partner = await startReferencePartner()));
test.afterAll(() => partner.close());

/**
 * Runs every probe of a certification against the reference partner with `faults` on, all at once. The
 * partner shares this worker's event loop with the probes; the matrix judges rules, not the machine's
 * speed, so a loaded machine gets 30 s per call (test/self/hostile-partners.spec.ts judges the timeouts).
 */
async function certify(faults: readonly Fault[], options: Parameters<typeof referenceProfile>[2] = {}): Promise<Finding[]> {
  const results = await runProbes({ ...referenceProfile(partner.origin, faults, options), requestTimeoutMs: 30_000 });
  return results.flatMap((result) => result.findings);
}

const raised = (findings: Finding[]) => [...new Set(notPassing(findings).map((f) => f.rule))].sort();
const show = (findings: Finding[]) => notPassing(findings).map((f) => `${f.rule}: ${f.message}`);

test('the conformant reference partner raises nothing, and every probe runs', async () => {
  const findings = await certify([]);
  expect(show(findings)).toEqual([]);
  // A rule may be skipped only for a value the complete user does not send, never for want of a response.
  const skipped = findings.filter((f) => f.outcome === 'skipped');
  expect(skipped.filter((f) => !/is missing|value of .* to judge/.test(f.message)).map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
});

test('every conformant user passes, with nothing but notes', async () => {
  const others = completeUserKeys;
  const results = await Promise.all(others.map(async (user) => ({ user, findings: await certify([], { user }) })));
  for (const { user, findings } of results) expect.soft(show(findings), `user "${user}"`).toEqual([]);
  console.log(`conformant users passed: ${results.filter(({ findings }) => notPassing(findings).length === 0).length}/${results.length}`);
});

test('the minimal user: a warning per missing Yes* field with collectMissingAccountInfo, a failure per field without it', async () => {
  const yesStar = accountInfoFieldRules.filter((rule) => rule.subject.marker === 'Yes*' && rule.judges === 'presence');
  // Of the Yes* fields, only the top-level ones are reported: the address parts go with their address.
  const topLevel = yesStar
    .filter((rule) => !/ddress\./.test(rule.field))
    .map((rule) => rule.id)
    .sort();
  const collecting = await certify([], { user: 'minimal' satisfies UserKey, collectMissingAccountInfo: true });
  expect(failed(collecting)).toEqual([]);
  expect(raised(collecting)).toEqual(topLevel);
  const strict = await certify([], { user: 'minimal' });
  expect([...new Set(failed(strict).map((f) => f.rule))].sort()).toEqual(topLevel);
});

test('every fault is caught by exactly its rules, with messages that name the field', async () => {
  test.setTimeout(120_000);
  const results: { fault: Fault; findings: Finding[] }[] = [];
  // Bounded parallelism: each certification already sends its probes at once.
  // Eight at a time: the partner and the probes share this worker's event loop, and sixteen certifications
  // at once on a loaded 2-core machine kept some answers past requestTimeoutMs (10 s).
  // A slow fault is caught only by an opt-in check: test/self/code-lifetime.spec.ts proves it.
  const quick = faultNames.filter((fault) => !('slow' in faultCatalogue[fault]));
  for (let i = 0; i < quick.length; i += 8) {
    const batch = quick.slice(i, i + 8);
    results.push(...(await Promise.all(batch.map(async (fault) => ({ fault, findings: await certify([fault]) })))));
  }
  let caught = 0;
  const faults = results.filter(({ fault }) => !('conformant' in faultCatalogue[fault]));
  for (const { fault, findings } of results) {
    // A partner fault is caught by the partner's rules: never one the platform owns.
    expect(
      expectedFailures[fault].filter((rule) => rule.owner !== 'partner').map((rule) => rule.id),
      fault,
    ).toEqual([]);
    const expected = expectedFailures[fault].map((rule) => rule.id).sort();
    await test.step(`${fault} → ${expected.join(', ') || 'nothing (conformant variant)'}`, () => {
      expect.soft(raised(findings), `fault "${fault}": ${show(findings).join('; ')}`).toEqual(expected);
    });
    if (expected.length > 0 && JSON.stringify(raised(findings)) === JSON.stringify(expected)) caught++;
  }
  console.log(`faults caught: ${caught}/${faults.length}`);
  // The partner throttled once, briefly, certifies; the wait is noted, once.
  const throttled = results.find(({ fault }) => fault === 'token-rate-limited-once')!.findings;
  expect(throttled.filter((f) => f.rule === 'token-exchange/rate-limit' && f.outcome === 'info').map((f) => f.message)).toEqual([
    expect.stringContaining('the harness waited 1 s, once, and the retry was answered'),
  ]);
  expect(caught).toBe(faults.length);
  // Every message names the field or behaviour it is about, in quotes.
  const unnamed = results.flatMap(({ findings }) => notPassing(findings)).filter((f) => !/"[^"]+"/.test(f.message));
  expect(unnamed.map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
});

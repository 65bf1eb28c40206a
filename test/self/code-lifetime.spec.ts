import { expect, test } from '@playwright/test';
import { notPassing } from '../../checks/finding';
import { codeExpires } from '../../checks/token-hardening';
import { runProbes } from '../../probes/certification';
import { tokenExchangeProbes } from '../../probes/token-exchange';
import { notApplicable } from '../../probes/executor';
import { referenceProfile } from '../support/profiles';
import { startReferencePartner } from '../support/sandbox';
import { expectedFailures } from './expected-failures';

// The opt-in check holds a code for its lifetime plus 5 s: 10 min 5 s for a real partner. Here the
// reference partner's codes live 1 s, and the profile says so, so the same probe holds 6 s.
const lifetimeProbe = tokenExchangeProbes.filter((probe) => probe.id === 'token-exchange/code-lifetime');

let partner: Awaited<ReturnType<typeof startReferencePartner>>;
test.beforeAll(async () => (partner = await startReferencePartner({ codeLifetimeMs: 1000 })));
test.afterAll(() => partner.close());

const certify = async (faults: Parameters<typeof referenceProfile>[1], slowChecks: boolean) =>
  (await runProbes({ ...referenceProfile(partner.origin, faults), slowChecks, maxCodeLifetimeSeconds: 1 }, lifetimeProbe)).flatMap((result) => result.findings);

test('the code-lifetime check is off unless asked for', async () => {
  expect(notApplicable(lifetimeProbe[0]!, { ...referenceProfile(partner.origin), slowChecks: false })).toBe(
    'opt-in, as it holds a code for 10 min 5 s: run with --slow, or set "slowChecks": true',
  );
  expect(await certify([], false)).toEqual([]);
});

test('a code held past its lifetime is refused by the reference partner, and taken by the "token-codes-never-expire" fault', async () => {
  const [conformant, faulty] = await Promise.all([certify([], true), certify(['token-codes-never-expire'], true)]);
  expect(notPassing(conformant).map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
  expect(conformant.filter((f) => f.rule === codeExpires.id).map((f) => f.outcome)).toEqual(['passed']);
  expect([...new Set(notPassing(faulty).map((f) => f.rule))]).toEqual(expectedFailures['token-codes-never-expire'].map((rule) => rule.id));
  expect(notPassing(faulty)[0]!.message).toMatch(/^a "code" held 6 s before its exchange was answered 200 with an "access_token"; let codes expire/);
});

import { expect, test } from '@playwright/test';
import type { Exchange } from '../../checks/evidence';
import type { AnyRule, Finding, Level } from '../../checks/finding';
import type { HttpClient, HttpRequest } from '../../client/http';
import { dataApiProbes } from '../../probes/data-api';
import { completed, execute, notApplicable } from '../../probes/executor';
import { codePath, freshToken, mockLink, profileHas, workerToken } from '../../probes/needs';
import { platformOf, type PlatformContext } from '../../probes/platform';
import { stopped, type Judgement, type Need, type Probe, type ProbeContext, type WorkerExchange } from '../../probes/probe';
import type { Profile } from '../../profile/profile-schema';
import { referenceProfile } from '../support/profiles';

/** The executor (probes/executor.ts): what a probe declares decides every rule its body does not judge, with the exact reason. */

const rule = (id: string, level: Level = 'MUST'): AnyRule => ({
  id,
  owner: 'partner',
  field: id,
  clause: 'spec §4.2',
  level,
  requirement: `${id} holds`,
  impact: 'none',
  check: () => [],
});
const [a, b, c, other] = ['area/a', 'area/b', 'area/c', 'other/x'].map((id) => rule(id)) as [AnyRule, AnyRule, AnyRule, AnyRule];
const passed = (...rules: AnyRule[]): Finding[] =>
  rules.map((judged) => ({
    rule: judged.id,
    field: judged.field,
    clause: judged.clause,
    level: judged.level,
    outcome: 'passed',
    message: 'ok',
    impact: 'none',
  }));

const platformBlock = { url: 'http://127.0.0.1:4401', apiKey: 'k', partnerName: 'reference', hostPageUrl: 'http://127.0.0.1:4402/' };
const profile: Profile = { ...referenceProfile('http://127.0.0.1:4400'), platform: platformBlock };

/** An HTTP client that answers every request with `status` and `body`, and keeps what was sent. */
function answering(status: number, body: unknown): HttpClient & { sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  const send = async (request: HttpRequest): Promise<Exchange> => {
    sent.push(request);
    const text = JSON.stringify(body);
    return {
      request: { ...request, headers: request.headers ?? {} },
      response: { status, headers: { 'content-type': 'application/json' }, body: text, bytes: text.length },
      startedAt: '',
      durationMs: 1,
    };
  };
  return { send, sent };
}

const worker = (exchanged: WorkerExchange) => async () => exchanged;
const issued: WorkerExchange = { exchanges: [], encoding: 'form', token: 'tok' };
const refused: WorkerExchange = { exchanges: [], blocker: { rule: 'token-exchange/encoding', reason: 'no access token was issued' } };

function context(over: Partial<PlatformContext> = {}): PlatformContext {
  let n = 0;
  return {
    profile,
    http: answering(200, {}),
    codes: { next: async () => `code-${++n}` },
    now: () => new Date('2026-06-01T12:00:00Z'),
    workerExchange: worker(issued),
    platform: platformOf(platformBlock),
    accountInfo: async () => ({ payload: {} }),
    ...over,
  };
}

/** A probe owning a, b and c; its body judges what `body` says, and counts its runs. */
function probe(spec: Partial<Probe<PlatformContext, 'platform'>> = {}, body: (met: Readonly<Record<string, unknown>>) => Judgement = () => passed(a, b, c)) {
  const runs: Readonly<Record<string, unknown>>[] = [];
  const declared: Probe<PlatformContext, 'platform'> = {
    kind: 'platform',
    id: 'area/probe',
    area: 'token-exchange',
    title: 'a probe',
    rules: [a, b, c],
    codes: 0,
    run: async (_ctx, met) => {
      runs.push(met);
      return body(met);
    },
    ...spec,
  };
  return { declared, runs };
}

const run = (declared: Probe<PlatformContext, 'platform'>, ctx = context()) => execute(declared, ctx.profile, async () => ctx);
const verdicts = (findings: readonly Finding[]) => findings.map((f) => [f.rule, f.outcome, f.message, ...(f.blockedBy ? [f.blockedBy] : [])]);

test('a probe the profile does not apply to is skipped whole, saying why, with no context made and no call', async () => {
  const { declared, runs } = probe({ profileNeeds: [profileHas('clientSecret', 'the platform sends no client credentials')] });
  const { clientSecret: _, ...withoutSecret } = profile;
  let made = false;
  const executed = await execute(declared, withoutSecret, async () => ((made = true), context()));
  const reason = 'the profile has no "clientSecret", so the platform sends no client credentials';
  expect(executed.notApplicable).toBe(reason);
  expect(verdicts(executed.result.findings)).toEqual([a, b, c].map((r) => [r.id, 'skipped', reason]));
  expect([made, runs.length]).toEqual([false, 0]);
  // Positive control: with the field, the probe applies and its body runs.
  expect(notApplicable(declared, profile)).toBeUndefined();
  expect(verdicts((await run(declared)).result.findings)).toEqual(verdicts(passed(a, b, c)));
});

test('a profile need of some rules skips those rules only, and the body judges the rest', async () => {
  const { declared, runs } = probe({ profileNeeds: [profileHas('collectMissingAccountInfo', 'the platform shows no collection screen', [b, c])] }, () =>
    passed(a),
  );
  const executed = await run(declared, context({ profile: { ...profile, collectMissingAccountInfo: false } }));
  const reason = 'the profile has no "collectMissingAccountInfo", so the platform shows no collection screen';
  expect(executed.notApplicable).toBeUndefined();
  expect(verdicts(executed.result.findings)).toEqual([
    [b.id, 'skipped', reason],
    [c.id, 'skipped', reason],
    [a.id, 'passed', 'ok'],
  ]);
  expect(runs).toHaveLength(1);
});

test("an unmet need of the worker's token blocks every rule, by the failed rule, for the need's reason; met, the body gets its encoding and token", async () => {
  const { declared, runs } = probe({ needs: { worker: workerToken('no encoding issued a token') } });
  const blocked = await run(declared, context({ workerExchange: worker(refused) }));
  expect(verdicts(blocked.result.findings)).toEqual(
    [a, b, c].map((r) => [r.id, 'not-checked', 'not checked: blocked by token-exchange/encoding (no encoding issued a token)', 'token-exchange/encoding']),
  );
  expect(runs).toEqual([]);
  await run(declared);
  expect(runs).toEqual([{ worker: { encoding: 'form', token: 'tok' } }]);
});

test('an unmet need of a fresh token is blocked by why the exchange issued none, its calls kept as evidence; met, the body gets the code', async () => {
  const { declared, runs } = probe({ needs: { fresh: freshToken('the first exchange of the code issued no access token') } });
  const refusing = answering(400, { error: 'invalid_grant' });
  const executed = await run(declared, context({ http: refusing }));
  const message = 'not checked: blocked by token-exchange/encoding (the first exchange of the code issued no access token)';
  expect(verdicts(executed.result.findings)).toEqual([a, b, c].map((r) => [r.id, 'not-checked', message, 'token-exchange/encoding']));
  // Refused in the configured encoding, the same code is tried in the other: both calls are the probe's evidence.
  expect(executed.result.exchanges).toHaveLength(2);
  expect(runs).toEqual([]);
  // Without a reason of its own, the exchange's.
  const plain = probe({ needs: { fresh: freshToken() } });
  expect(verdicts((await run(plain.declared, context({ http: refusing }))).result.findings)[0]).toEqual([
    a.id,
    'not-checked',
    'not checked: blocked by token-exchange/encoding (no access token was issued)',
    'token-exchange/encoding',
  ]);
  await run(declared, context({ http: answering(200, { access_token: 'fresh-token', token_type: 'Bearer', expires_in: 3600 }) }));
  expect(runs).toEqual([{ fresh: { code: 'code-1', encoding: profile.tokenExchangeEncoding, token: 'fresh-token' } }]);
});

test('an unmet need of the code path is blocked by the configured encoding when only the other one issued a token', async () => {
  const { declared, runs } = probe({ needs: { codePath } });
  const other = profile.tokenExchangeEncoding === 'form' ? 'json' : 'form';
  const executed = await run(declared, context({ workerExchange: worker({ exchanges: [], encoding: other, token: 'tok' }) }));
  const message = 'not checked: blocked by token-exchange/encoding (the platform exchanges codes in the configured encoding, which issued no token)';
  expect(verdicts(executed.result.findings)).toEqual([a, b, c].map((r) => [r.id, 'not-checked', message, 'token-exchange/encoding']));
  expect(runs).toEqual([]);
  await run(declared, context({ workerExchange: worker({ exchanges: [], encoding: profile.tokenExchangeEncoding, token: 'tok' }) }));
  expect(runs).toEqual([{ codePath: true }]);
});

test('an unmet need of a mock link makes every rule not applicable, saying what the platform answered', async () => {
  const { declared, runs } = probe({ needs: { link: mockLink() } });
  const executed = await run(declared, context({ http: answering(500, { code: 'BROKEN' }) }));
  const reason = 'the mock-link endpoint issued no link (500 {"code":"BROKEN"}); see the mock-link results';
  expect(verdicts(executed.result.findings)).toEqual([a, b, c].map((r) => [r.id, 'skipped', reason]));
  expect(runs).toEqual([]);
  await run(declared, context({ http: answering(200, { link: 'http://127.0.0.1:4401/reference/auth?token=jwt' }) }));
  expect(runs).toMatchObject([{ link: { link: 'http://127.0.0.1:4401/reference/auth?token=jwt' } }]);
});

test("an unmet need of the data API's first organization makes the walk's every rule not applicable, saying why", async () => {
  const walk = dataApiProbes.find((p) => p.id === 'data-api/walk')!;
  const dataApi = { baseUrl: 'http://127.0.0.1:4401', token: 't' };
  const ctx: ProbeContext = { ...context({ http: answering(401, { code: 'INVALID_AUTHENTICATION_TOKEN' }) }), profile: { ...profile, dataApi } };
  const executed = await execute(walk, ctx.profile, async () => ctx);
  const reason = 'GET /v1/organizations answered 401 without an organization to filter on';
  expect(verdicts(executed.result.findings)).toEqual(walk.rules.map((r) => [r.id, 'skipped', reason]));
});

test('needs are got in order, and the first unmet one stops the probe before the later ones are asked for', async () => {
  const asked: string[] = [];
  const need = (name: string, met: boolean): Need<string> => ({
    meet: async () => (asked.push(name), met ? { value: name } : { stop: { notChecked: `${name} failed its control` } }),
  });
  const { declared, runs } = probe({ needs: { first: need('first', true), second: need('second', false), third: need('third', true) } });
  const executed = await run(declared);
  expect(asked).toEqual(['first', 'second']);
  expect(runs).toEqual([]);
  expect(verdicts(executed.result.findings)).toEqual([a, b, c].map((r) => [r.id, 'not-checked', 'not checked: second failed its control']));
});

test('a body that stops midway keeps what it judged, and the executor gives every rule it left the verdict of its stop', async () => {
  const blocker = { rule: 'token-exchange/encoding', reason: 'no access token was issued' };
  for (const [stop, verdict] of [
    [{ notApplicable: 'no link was issued' }, ['skipped', 'no link was issued']],
    [{ blockedBy: blocker }, ['not-checked', 'not checked: blocked by token-exchange/encoding (no access token was issued)', blocker.rule]],
    [{ notChecked: 'the frame never rendered' }, ['not-checked', 'not checked: the frame never rendered']],
  ] as const) {
    const { declared } = probe({}, () => stopped(stop, passed(a)));
    expect(verdicts((await run(declared)).result.findings)).toEqual([[a.id, 'passed', 'ok'], ...[b, c].map((r) => [r.id, ...verdict])]);
  }
});

test('a stop speaks for the rules of others the probe answers for, never for those it judges only on each call it makes', async () => {
  const { declared } = probe({ alsoJudges: [other, rule('other/transport')], answersFor: () => [other] }, () =>
    stopped({ notApplicable: 'gave up' }, passed(a)),
  );
  expect(verdicts((await run(declared)).result.findings).map(([id]) => id)).toEqual([a.id, b.id, c.id, other.id]);
});

test('positive controls: a stop after every rule was judged adds nothing, and a body that does not stop gets no verdict it did not give', async () => {
  const judgedAll = probe({}, () => stopped({ notApplicable: 'done anyway' }, passed(a, b, c)));
  expect(verdicts((await run(judgedAll.declared)).result.findings)).toEqual(verdicts(passed(a, b, c)));
  // Without a stop the executor invents nothing: test/self/probe-rules.spec.ts proves each body judges all it owns.
  const partial = probe({}, () => passed(a));
  expect(verdicts((await run(partial.declared)).result.findings)).toEqual(verdicts(passed(a)));
});

test('one case of several speaks for its own rules alone through the same completion', () => {
  expect(verdicts(completed([b], stopped({ blockedBy: { rule: a.id, reason: 'the request was answered 200, not refused' } }, passed(a))))).toEqual([
    [a.id, 'passed', 'ok'],
    [b.id, 'not-checked', 'not checked: blocked by area/a (the request was answered 200, not refused)', a.id],
  ]);
  expect(completed([a, b], passed(a))).toEqual(passed(a));
});

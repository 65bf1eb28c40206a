import { expect, test } from '@playwright/test';
import type { Finding } from '../../checks/finding';
import type { AnyProbe } from '../../probes/platform';
import { ProbeRuns, type Outcome } from '../../fixtures/probe-runs';
import { Vault } from '../../redaction/vault';
import { Egress, type Outbound } from '../../run/egress';
import type { LeftOutcome } from '../../run/plan';

const token = 'tok-issued-to-a-probe-0123456789';
const probe = (id: string): AnyProbe => ({
  kind: 'http',
  id,
  area: 'token-exchange',
  title: id,
  rules: [],
  codes: 0,
  run: () => Promise.reject(new Error('run through ProbeRuns')),
});
const [a, b, c] = ['area/a', 'area/b', 'area/c'].map(probe) as [AnyProbe, AnyProbe, AnyProbe];
const finding = (message: string): Finding => ({ rule: 'token-exchange/transport', outcome: 'passed', level: 'MUST', message }) as Finding;

/**
 * The run's coordinator as a worker sees it (run/handover.ts): what each worker leaves is kept, masked as its egress
 * sent it, and handed to the next worker of the partner when its test asks.
 */
function coordinator() {
  const left = new Map<string, LeftOutcome>();
  const sent: string[] = [];
  const outbound: Outbound = {
    send: (message) => {
      sent.push(JSON.stringify(message));
      if (message.type === 'left') left.set(message.probe, message.outcome);
    },
    sync: async () => {},
  };
  return { left, sent, outbound };
}

/** ProbeRuns of one worker, counting the runs of each probe; a probe named in `failing` throws. */
function worker(run: ReturnType<typeof coordinator>, { failing = [] as string[], taken = [] as string[], pending = [] as string[] } = {}) {
  const ran: string[] = [];
  const vault = new Vault([], { partner: 'p' });
  const session = {
    vault,
    egress: new Egress(vault, 'p', run.outbound),
    plan: { taken, pending },
    leaving: () => {},
    take: async (id: string) => run.left.get(id)!,
  };
  const probeRun = async (p: AnyProbe): Promise<Outcome> => {
    ran.push(p.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (failing.includes(p.id)) return { error: `${p.id} could not run with ${token}` }; // the runner never rejects (probes/runner.ts)
    const exchange = {
      request: { method: 'POST', url: 'https://p.example/token', headers: {} },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ access_token: token }), bytes: 1 },
      startedAt: '',
      durationMs: 1,
    };
    return { result: { findings: [finding(`${p.id} got ${token}`)], exchanges: [exchange] } };
  };
  return { ran, runs: new ProbeRuns(probeRun, session) };
}

test('planned probes start together and each runs once, whichever test takes it', async () => {
  const { ran, runs } = worker(coordinator());
  runs.start([a, b, c]);
  expect(ran).toEqual(['area/a', 'area/b', 'area/c']); // all under way before any test takes one
  expect('result' in (await runs.take(b))).toBe(true);
  await runs.take(a);
  await runs.take(c);
  expect(ran).toEqual(['area/a', 'area/b', 'area/c']);
});

test('a probe no plan started runs when its test takes it, and again on a retry', async () => {
  const { ran, runs } = worker(coordinator());
  await runs.take(a);
  await runs.take(a);
  expect(ran).toEqual(['area/a', 'area/a']);
});

test('after a failed test, the next worker takes what the last one left, masked, and reruns nothing', async () => {
  const run = coordinator();
  const first = worker(run, { failing: ['area/c'] });
  first.runs.start([a, b, c]);
  await first.runs.take(a); // this test failed: Playwright replaces the worker
  await first.runs.leave();
  const stored = run.sent.join('\n');
  expect(stored).toContain('area/b got [redacted]');
  expect(stored).not.toContain(token);

  // The coordinator knows which test ran (area/a's said so) and which the first worker was finishing.
  const second = worker(run, { taken: ['area/a'], pending: ['area/b', 'area/c'] });
  second.runs.start([a, b, c]);
  const outcome = await second.runs.take(b);
  expect('result' in outcome && outcome.result.findings.map((f) => f.message)).toEqual(['area/b got [redacted]']);
  expect(await second.runs.take(c)).toEqual({ error: 'area/c could not run with [redacted]' });
  expect(second.ran).toEqual([]);
});

test('a test waits for its own probe only, not for the others started with it', async () => {
  const slow = probe('area/slow');
  const ran: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const vault = new Vault();
  const runs = new ProbeRuns(
    async (p) => {
      ran.push(p.id);
      if (p.id === slow.id) await held;
      return { result: { findings: [finding(p.id)], exchanges: [] } };
    },
    { vault, egress: new Egress(vault), plan: { taken: [], pending: [] }, leaving: () => {}, take: () => Promise.reject(new Error('nothing pending')) },
  );
  runs.start([a, slow]);
  // The slow probe is still under way: the test of `a` ends all the same.
  expect(await runs.take(a)).toMatchObject({ result: { findings: [{ message: 'area/a' }] } });
  expect(ran).toEqual([a.id, slow.id]);
  release();
  expect(await runs.take(slow)).toMatchObject({ result: { findings: [{ message: 'area/slow' }] } });
});

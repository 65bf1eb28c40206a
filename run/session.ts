import { Vault } from '../redaction/vault';
import { joinChannel, type Joined, type ToCoordinator } from './channel';
import { Egress } from './egress';
import type { LeftOutcome, PartnerPlan } from './plan';
import { runDirOf, runDirVariable } from './run-dir';

/**
 * A partner's worker in the run: it joins the run's channel, takes the plan the coordinator wrote, and keeps a
 * vault of every secret the run knows (its own partner's, the harness's, every partner's run-wide ones), fed by
 * the coordinator as the other workers learn, in memory. Its egress is the worker's one way out.
 */
export interface Session {
  plan: PartnerPlan;
  vault: Vault;
  egress: Egress;
  /** The outcome of a probe an earlier worker of this partner was finishing (run/handover.ts). */
  take(probe: string): Promise<LeftOutcome>;
  /** Tells the coordinator which probes this worker finishes for the next one, before it leaves each. */
  leaving(probes: readonly string[]): void;
  /**
   * The worker's set-up, under way: what it reads of the partner (the test user's account information) is known
   * to the masking before a test hands anything out (run/egress.ts), whatever part of the run a filter selects.
   */
  setUp(reading: Promise<unknown>): void;
  /** Waits until the coordinator has everything this worker sent, then leaves the run. */
  close(): Promise<void>;
}

export async function joinRun(project: string): Promise<Session> {
  const runDir = runDirOf();
  if (!runDir)
    throw new Error(
      `this worker is not part of a run: ${runDirVariable} is not set. Run partner tests with the harness's configuration, whose globalSetup plans the run`,
    );
  const joined = await joinChannel(runDir, project);
  const vault = new Vault(joined.plan.secrets, { partner: project, onLearn: (fresh) => joined.send({ type: 'learned', secrets: fresh.map(plain) }) });
  const outcomes = new Map<string, (outcome: LeftOutcome) => void>();
  joined.onMessage((message) => {
    if (message.type === 'secrets') vault.receive(message.secrets);
    if (message.type === 'left') outcomes.get(message.probe)?.(message.outcome);
  });
  let setUp: Promise<void> = Promise.resolve();
  const outbound = { send: (message: ToCoordinator) => joined.send(message), sync: () => joined.sync(), setUp: () => setUp };
  return {
    plan: joined.plan,
    vault,
    egress: new Egress(vault, project, outbound),
    setUp: (reading) => void (setUp = reading.then(noop, noop)),
    take: (probe) =>
      new Promise<LeftOutcome>((resolve) => {
        outcomes.set(probe, resolve);
        joined.send({ type: 'take', probe });
      }),
    leaving: (probes) => joined.send({ type: 'leaving', pending: [...probes] }),
    close: async () => closeAfterSync(joined),
  };
}

async function closeAfterSync(joined: Joined): Promise<void> {
  await joined.sync();
  joined.close();
}

const noop = () => {};
const plain = <T extends { forms?: readonly string[] }>({ forms, ...rest }: T) => ({ ...rest, ...(forms ? { forms: [...forms] } : {}) });

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult } from '@playwright/test/reporter';
import type { LoadedProfile } from '../partners/profile';
import { ordinaryText } from '../redaction/secrets';
import { Vault } from '../redaction/vault';
import { harnessWords } from '../checks/harness-words';
import { collect, endAttempt, endUnfinished, chosenTests, newPartner, type Attempt, type ChosenTest, type CollectedPartner } from './collected';
import { serveChannel, type ToCoordinator, type WorkerLink } from './channel';
import { Egress } from './egress';
import type { AttemptStatus, RunStamp } from './events';
import { decideOutcome, failureLine, fails, keepOutcome, type RunFacts, type RunOutcome } from './outcome';
import { partnerPlan, plainSecret, secretsOf, type PartnerPlan } from './plan';
import type { Certify, Line, Preflight } from './steps';
import { Handovers } from './handover';
import { platformJudges } from './platform-judges';
import { makeRunDir, runDirOf, runDirVariable } from './run-dir';
import { runIdOf } from './run-identity';
import { scanned, scanOutputs } from './scan';

/**
 * The run's coordinator, in its main process (DESIGN §6): it owns the run from plan to exit code, in one typed
 * state. Playwright calls it at four points of a run, all in that process: the configuration registers the
 * partners it was asked for; globalSetup plans (the preflight, the run's identity, each partner's secrets and
 * waivers, which partner judges each platform) before any worker starts; the certification reporter, where it
 * runs, hands it the tests the run chose (the one place Playwright shows them before the workers start);
 * globalTeardown finishes: it folds the workers' events, has the certification written (reports/), decides the
 * outcome once, and at exit scans every output for a secret. A merge of blob reports uses it the same way, fed
 * by the reporter. The workers join through the run's channel (run/channel.ts) and read the plan it wrote.
 */
export class Coordinator {
  readonly vault = new Vault(ordinaryText(harnessWords));
  /** The run's own egress: every partner's secrets (the console, problems of no one partner). */
  readonly egress = new Egress(this.vault);
  private readonly partners = new Map<string, CollectedPartner>();
  private readonly attempts = new Map<string, Map<string, Attempt>>();
  private links: ReadonlySet<WorkerLink> = new Set();
  private readonly handovers = new Handovers(() => this.links);
  private readonly problems: string[] = [];
  private readonly startedAt = new Date();
  private runId = '';
  private shard: RunStamp['shard'] = null;
  private judges: Record<string, string> = {};
  /** The probes each partner's worker starts at once, once the run's choice of tests is known. */
  private probes: Record<string, readonly string[]> | undefined;
  /** Set by the certification reporter as it is made, before the run begins: it will hand over the tests chosen. */
  private tap: { options: Record<string, unknown> } | undefined;
  private runDir: string | undefined;
  private closeChannel: (() => Promise<void>) | undefined;
  private interrupted = false;
  private finished: Promise<RunOutcome> | undefined;

  /** The partners the run was asked for (the configuration, in the main process). */
  register(profiles: readonly LoadedProfile[]): void {
    for (const loaded of profiles) this.addPartner(loaded.name, loaded, loaded);
  }

  /** The certification reporter, made before the run begins: the tests the run chose will come through it. */
  registerTap(options: Record<string, unknown>): void {
    this.tap = { options };
  }

  /** Its options (`outputDir`, `historyDir`, `compare`), when the certification reporter runs. */
  get reporterOptions(): Record<string, unknown> {
    return this.tap?.options ?? {};
  }

  /**
   * Before any worker starts (globalSetup): the run's folder and channel, its identity, the preflight's problems
   * (which stop the run), and which partner judges each platform.
   */
  async plan(config: FullConfig, preflight: Preflight): Promise<void> {
    this.runId = runIdOf();
    this.shard = config.shard;
    const outcome = await preflight(
      [...this.partners.values()].flatMap((partner) => partner.loaded ?? []),
      this.vault,
    );
    for (const [name, problems] of Object.entries(outcome.setupProblems)) {
      const partner = this.partners.get(name);
      if (partner) partner.setupProblems = problems;
    }
    for (const { partner, line } of outcome.warnings) this.egress.for(partner).warn(line);
    if (outcome.stop.length > 0) this.stop(outcome.stop, outcome.footer);
    this.judges = platformJudges(
      [...this.partners.values()].map(({ name, loaded }) => ({ name, ...(loaded ? { profile: loaded.profile } : {}) })),
      this.setupFailed(),
    );
    // The command that started the run made its folder (scripts/certify.ts); a folder whose channel is already open
    // is another run's, which this one is nested in (a self-test's run, started from a worker of a run).
    const given = runDirOf();
    this.runDir =
      given && !existsSync(path.join(given, 'channel.sock')) && !existsSync(path.join(given, 'channel')) ? given : makeRunDir({ removeOnExit: true });
    process.env[runDirVariable] = this.runDir;
    const channel = await serveChannel(this.runDir, {
      hello: (project) => this.hello(project),
      message: (link, message) => this.message(link, message),
      closed: (link) => this.handovers.closed(link),
      invalid: (problem) => this.problems.push(`a worker sent ${problem}`),
    });
    this.closeChannel = () => channel.close();
    this.links = channel.links;
    process.once('SIGINT', () => (this.interrupted = true));
  }

  /** The tests the run chose, by partner (the certification reporter's onBegin): their probes start at once. */
  choose(chosen: ReadonlyMap<string, readonly ChosenTest[]>): void {
    for (const [name, tests] of chosen) {
      const partner = this.partners.get(name) ?? this.addPartner(name, { waivers: [], platformWaivers: [] });
      chosenTests(partner, tests);
    }
    const withPlatformTests = [...this.partners.values()].filter((partner) => [...partner.tests.values()].some((test) => test.owner === 'platform'));
    this.judges = platformJudges(
      withPlatformTests.map(({ name, loaded }) => ({ name, ...(loaded ? { profile: loaded.profile } : {}) })),
      this.setupFailed(),
    );
    const runs = (name: string, owner: string | undefined) => owner !== 'platform' || (this.judges[name] ?? name) === name;
    this.probes = Object.fromEntries(
      [...this.partners].map(([name, partner]) => [
        name,
        [...partner.tests.values()].filter((test) => runs(name, test.owner)).flatMap((test) => test.probe ?? []),
      ]),
    );
  }

  /**
   * A partner of the run, with the waivers its tests decide with and its profile, whose secrets are worked out once
   * here. In a merge of blob reports: the waivers its run decided with (its project's metadata), and its profile
   * where this machine can read it.
   */
  addPartner(name: string, waivers: Pick<CollectedPartner, 'waivers' | 'platformWaivers'>, loaded?: LoadedProfile): CollectedPartner {
    const partner = newPartner(name, waivers, loaded);
    this.partners.set(name, partner);
    if (loaded) this.vault.receive(secretsOf(loaded));
    return partner;
  }

  /** An attempt of a merge's blob reports, as the certification reporter reads it (the run's own come through the channel). */
  mergedAttempt(name: string, attempt: Attempt & { status: AttemptStatus; durationMs: number; errors: readonly string[] }): void {
    const partner = this.partners.get(name);
    if (partner) endAttempt(partner, attempt, attempt.status, attempt.durationMs, attempt.errors);
  }

  private setupFailed(): Set<string> {
    return new Set([...this.partners.values()].filter((partner) => partner.setupProblems.length > 0).map((partner) => partner.name));
  }

  private hello(project: string): { plan: PartnerPlan } | { refused: string } {
    const partner = this.partners.get(project);
    const loaded = partner?.loaded;
    if (!partner || !loaded) return { refused: `no partner "${project}" in this run` };
    const stamp = { id: this.runId, shard: this.shard, profile: this.egress.for(project).digest(loaded.profile) };
    const probes = this.probes ? [...(this.probes[project] ?? [])] : null;
    return {
      plan: partnerPlan({ ...partner, loaded }, { stamp, judge: this.judges[project], probes, ...this.handovers.of(project), secrets: this.vault.all() }),
    };
  }

  private message(link: WorkerLink, message: ToCoordinator): void {
    const project = link.project ?? '';
    switch (message.type) {
      case 'learned': {
        // Shared at once with every other worker: a partner may echo a value issued to another.
        const fresh = this.vault.receive(message.secrets.map((secret) => ({ ...secret, partner: project })));
        if (fresh.length > 0) for (const other of this.links) if (other !== link) other.send({ type: 'secrets', secrets: fresh.map(plainSecret) });
        return;
      }
      case 'sync':
        // After every secret pushed to it so far: the worker then masks with all the run knew when it asked.
        return link.send({ type: 'synced', id: message.id });
      case 'event': {
        const partner = this.partners.get(project);
        if (!partner) return;
        if (message.event.type === 'attempt-said') this.handovers.taken(project, message.event.said.probe);
        if (!this.attempts.has(project)) this.attempts.set(project, new Map<string, Attempt>());
        return collect(partner, message.event, this.attempts.get(project)!);
      }
      case 'leaving':
        return this.handovers.leaving(link, message.pending);
      case 'left':
        return this.handovers.left(link, message.probe, message.outcome);
      case 'take':
        return this.handovers.take(link, message.probe);
    }
  }

  /**
   * The run's end (globalTeardown; a merge's onEnd; or the certification reporter's, past a global timeout, when
   * Playwright runs no teardown): every partner's certification written, the outcome decided once and kept for the
   * command, and the outputs scanned as the process exits. Once, whoever calls first.
   */
  finish(config: FullConfig, certify: Certify, result?: FullResult): Promise<RunOutcome> {
    return (this.finished ??= this.conclude(config, certify, result));
  }

  private async conclude(config: FullConfig, certify: Certify, result: FullResult | undefined): Promise<RunOutcome> {
    for (const [name, attempts] of this.attempts) endUnfinished(this.partners.get(name)!, attempts);
    await this.closeChannel?.();
    const partners = [...this.partners.values()].filter((partner) => partner.ran);
    const learn = (values: readonly string[]) => this.vault.add(values);
    const written =
      partners.length > 0 ? await certify({ partners, result: result ?? this.resultOf(partners, config), egress: this.egress, learn }) : undefined;
    const facts: RunFacts = { verdicts: written?.verdicts ?? [], problems: [...this.problems, ...(written?.problems ?? [])], interrupted: this.interrupted };
    const outcome = decideOutcome(facts);
    if (this.runDir) keepOutcome(this.runDir, outcome, this.egress);
    process.once('exit', () => this.scanAtExit(config, facts));
    return outcome;
  }

  /** What Playwright will state at the run's end: stopped by Ctrl-C or its global timeout, or a test failed. */
  private resultOf(partners: readonly CollectedPartner[], config: FullConfig): FullResult {
    const duration = Date.now() - this.startedAt.getTime();
    const failed = partners.some((partner) => [...partner.tests.values()].some((test) => test.status === 'failed' || test.status === 'timedOut'));
    const timedOut = config.globalTimeout > 0 && duration >= config.globalTimeout;
    return { status: this.interrupted ? 'interrupted' : timedOut ? 'timedout' : failed ? 'failed' : 'passed', startTime: this.startedAt, duration };
  }

  /** The detector (run/scan.ts): a secret found in any output fails the run, naming the file; nothing is rewritten. */
  private scanAtExit(config: FullConfig, facts: RunFacts): void {
    const found = scanOutputs(config, scanned(this.vault), { since: this.startedAt });
    if (found.length === 0) return;
    for (const line of found) this.egress.warn(line);
    const outcome = decideOutcome({ ...facts, problems: [...facts.problems, ...found] });
    if (this.runDir) keepOutcome(this.runDir, outcome, this.egress);
    process.exitCode = 1;
  }

  /** Stops the run before any test, naming why, one line each (masked with its partner's secrets): exit code 2. */
  stop(problems: readonly Line[], footer = ''): never {
    for (const { partner, line } of problems) this.egress.for(partner).warn(line);
    if (footer) this.egress.warn(footer);
    const runDir = this.runDir ?? runDirOf();
    if (runDir) keepOutcome(runDir, decideOutcome({ verdicts: [], problems: [], stopped: problems.map(({ line }) => line) }), this.egress);
    process.exit(2);
  }

  /** The line and error a failing run ends with, for Playwright to count it failed. */
  failure(outcome: RunOutcome): Error | undefined {
    if (!fails(outcome)) return undefined;
    const error = this.egress.error(failureLine(outcome));
    return error;
  }
}

let current: Coordinator | undefined;
/** This process's coordinator. */
export const coordinator = (): Coordinator => (current ??= new Coordinator());

import type { WorkerLink } from './channel';
import type { LeftOutcome } from './plan';

/**
 * Playwright replaces a partner's worker after a failed test. The probes still under way in the old one are
 * finished there and handed to the next (fixtures/probe-runs.ts), through the coordinator, so no probe calls the
 * partner twice: the old worker says which it is finishing (`leaving`), then each outcome (`left`); the new one
 * asks for each when its test comes (`take`). A worker that stops before it left an outcome leaves its test
 * without one: that test did not complete.
 */
export class Handovers {
  private readonly partners = new Map<string, { taken: Set<string>; pending: Map<string, Pending> }>();

  constructor(private readonly links: () => ReadonlySet<WorkerLink>) {}

  /** The probes whose tests ran in an earlier worker of the partner, and those an earlier worker is finishing. */
  of(partner: string): { taken: string[]; pending: string[] } {
    const state = this.state(partner);
    return { taken: [...state.taken], pending: [...state.pending.keys()] };
  }

  /** A probe's test said what it found: a new worker starts it again only on a retry. */
  taken(partner: string, probe: string): void {
    this.state(partner).taken.add(probe);
  }

  leaving(link: WorkerLink, probes: readonly string[]): void {
    for (const probe of probes) this.state(link.project ?? '').pending.set(probe, { from: link, waiting: [] });
  }

  left(link: WorkerLink, probe: string, outcome: LeftOutcome): void {
    const pending = this.state(link.project ?? '').pending.get(probe);
    if (!pending) return;
    pending.outcome = outcome;
    for (const waiting of pending.waiting.splice(0)) this.hand(waiting, probe, pending);
  }

  /** A new worker's test asks for the outcome an earlier worker is finishing: now, or as soon as it is left. */
  take(link: WorkerLink, probe: string): void {
    const pending = this.state(link.project ?? '').pending.get(probe);
    if (!pending) return link.send({ type: 'left', probe, outcome: orphaned });
    if (pending.outcome || !this.links().has(pending.from)) return this.hand(link, probe, pending);
    pending.waiting.push(link);
  }

  /** A worker's connection ended: what it had not left yet, it never will. */
  closed(link: WorkerLink): void {
    for (const [probe, pending] of this.state(link.project ?? '').pending) {
      if (pending.from !== link || pending.outcome) continue;
      for (const waiting of pending.waiting.splice(0)) this.hand(waiting, probe, pending);
    }
  }

  private hand(link: WorkerLink, probe: string, pending: Pending): void {
    this.state(link.project ?? '').pending.delete(probe);
    link.send({ type: 'left', probe, outcome: pending.outcome ?? orphaned });
  }

  private state(partner: string) {
    let state = this.partners.get(partner);
    if (!state) this.partners.set(partner, (state = { taken: new Set(), pending: new Map() }));
    return state;
  }
}

interface Pending {
  from: WorkerLink;
  outcome?: LeftOutcome;
  waiting: WorkerLink[];
}

const orphaned: LeftOutcome = { error: 'the worker that ran this probe stopped before it ended' };

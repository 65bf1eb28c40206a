import { randomBytes } from 'node:crypto';
import type { FundingSource } from './validate.js';

export type View = 'home' | 'collect' | 'problem';

export interface CollectField {
  path: string;
  value: string;
  error?: string;
}

/** What a sign-on produced: the app, the collection screen or the error screen. */
export interface Outcome {
  view: View;
  partnerName?: string;
  /** The partner page's origin, kept only when it is one of the partner's hostOrigins. */
  hostOrigin?: string;
  info?: Record<string, unknown>;
  userId?: string;
  reason?: string;
  detail?: string;
  fields?: CollectField[];
}

export interface Session extends Outcome {
  id: string;
  csrf: string;
  expiresAt: number;
}

export const SESSION_COOKIE = 'harbor_sid';
const SESSION_TTL_MS = 60 * 60 * 1000;
const TICKET_TTL_MS = 60 * 1000;

const opaque = (): string => randomBytes(32).toString('base64url');

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly tickets = new Map<string, { outcome: Outcome; expiresAt: number }>();
  /** Known funding sources per (partner, user.id), as spec §4.2's rule keeps them across sign-ons. */
  private readonly sources = new Map<string, Map<string, FundingSource>>();

  constructor(private readonly now: () => number) {}

  create(outcome: Outcome): Session {
    this.prune();
    const s: Session = { ...outcome, id: opaque(), csrf: opaque(), expiresAt: this.now() + SESSION_TTL_MS };
    this.sessions.set(s.id, s);
    return s;
  }

  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const s = this.sessions.get(id);
    if (!s) return undefined;
    if (s.expiresAt < this.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return s;
  }

  /** A one-time, short-lived handle that moves a sign-on from the API origin to the app origin. */
  issueTicket(outcome: Outcome): string {
    this.prune();
    const t = opaque();
    this.tickets.set(t, { outcome, expiresAt: this.now() + TICKET_TTL_MS });
    return t;
  }

  redeemTicket(t: string | undefined): Outcome | undefined {
    if (!t) return undefined;
    const entry = this.tickets.get(t);
    this.tickets.delete(t);
    return entry && entry.expiresAt >= this.now() ? entry.outcome : undefined;
  }

  /** Adds and updates the listed sources; removes known ones no longer listed unless `keepRemoved` (a fault). */
  syncSources(partnerName: string, userId: string, listed: FundingSource[], keepRemoved: boolean): void {
    const key = `${partnerName}\u0000${userId}`;
    const known = this.sources.get(key) ?? new Map<string, FundingSource>();
    const ids = new Set(listed.map((s) => s.id));
    if (!keepRemoved) for (const id of [...known.keys()]) if (!ids.has(id)) known.delete(id);
    for (const s of listed) known.set(s.id, s);
    this.sources.set(key, known);
  }

  sourcesOf(partnerName: string | undefined, userId: string | undefined): FundingSource[] {
    if (!partnerName || !userId) return [];
    return [...(this.sources.get(`${partnerName}\u0000${userId}`)?.values() ?? [])];
  }

  private prune(): void {
    const t = this.now();
    for (const [k, v] of this.tickets) if (v.expiresAt < t) this.tickets.delete(k);
    for (const [k, v] of this.sessions) if (v.expiresAt < t) this.sessions.delete(k);
  }
}

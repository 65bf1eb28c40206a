import { randomBytes } from 'node:crypto';
import type { UserKey } from './users';

/** RFC 6749 §4.1.2's recommended maximum, the reference partner's default. */
export const defaultCodeLifetimeMs = 10 * 60 * 1000;
export const tokenLifetimeSeconds = 3600;
const pruneAbove = 10_000;

interface CodeRecord {
  user: UserKey;
  /** The test hook's codes for spec §4.2's removal rule: the token's funding sources list one fewer. */
  withoutLastFundingSource?: boolean;
  /** The client the code was issued to; `null` for a code any caller may exchange. */
  clientId: string | null;
  issuedAt: number;
  used: boolean;
  tokens: string[];
}

interface TokenRecord {
  user: UserKey;
  withoutLastFundingSource?: boolean;
  expiresAt: number;
  revoked: boolean;
}

export type CodeLookup =
  { state: 'unknown' } | { state: 'expired'; record: CodeRecord } | { state: 'used'; record: CodeRecord } | { state: 'fresh'; record: CodeRecord };

export const randomOpaque = () => randomBytes(24).toString('base64url');

/** Codes and tokens in memory, on an injected clock. */
export function createStore(now: () => number, opaque: () => string = randomOpaque, codeLifetimeMs = defaultCodeLifetimeMs) {
  const codes = new Map<string, CodeRecord>();
  const tokens = new Map<string, TokenRecord>();
  const recent: string[] = [];
  /** The last access tokens issued, newest last: what the "echoes-issued-tokens" fault lists. */
  const issuedTokens: string[] = [];
  const sequencePrefix = `seq-${randomBytes(6).toString('hex')}-`;
  let issued = 0;
  /** How old the oldest code was when it was exchanged: what a partner with short-lived codes would refuse. */
  let oldestCodeSpentMs = 0;

  /** Keeps memory bounded under load: expired entries go once a map grows large. */
  function prune() {
    if (codes.size > pruneAbove) for (const [code, r] of codes) if (now() - r.issuedAt > codeLifetimeMs) codes.delete(code);
    if (tokens.size > pruneAbove) for (const [token, r] of tokens) if (r.expiresAt < now()) tokens.delete(token);
  }

  return {
    mintCode(user: UserKey, clientId: string | null, { withoutLastFundingSource = false } = {}): string {
      prune();
      const code = opaque();
      codes.set(code, { user, clientId, issuedAt: now(), used: false, tokens: [], ...(withoutLastFundingSource ? { withoutLastFundingSource } : {}) });
      return code;
    },
    lookUpCode(code: string): CodeLookup {
      const record = codes.get(code);
      if (!record) return { state: 'unknown' };
      if (!recent.includes(code)) {
        recent.unshift(code);
        recent.length = Math.min(recent.length, 5);
      }
      if (now() - record.issuedAt > codeLifetimeMs) return { state: 'expired', record };
      return { state: record.used ? 'used' : 'fresh', record };
    },
    /** `sequential`: the "token-sequential-tokens" fault's counter behind a fixed prefix, instead of a random token. */
    issueToken(user: UserKey, code?: CodeRecord, { sequential = false } = {}): string {
      prune();
      const token = sequential ? `${sequencePrefix}${String(++issued).padStart(10, '0')}` : opaque();
      tokens.set(token, {
        user,
        expiresAt: now() + tokenLifetimeSeconds * 1000,
        revoked: false,
        ...(code?.withoutLastFundingSource ? { withoutLastFundingSource: true } : {}),
      });
      issuedTokens.push(token);
      if (issuedTokens.length > 50) issuedTokens.shift();
      if (code) {
        if (!code.used) oldestCodeSpentMs = Math.max(oldestCodeSpentMs, now() - code.issuedAt);
        code.used = true;
        code.tokens.push(token);
      }
      return token;
    },
    /**
     * The last codes presented for exchange, by anyone: what a partner that leaks other sessions' codes
     * echoes. Presented, not minted: a client knows a code before it sends it, so the harness can mask it;
     * a code minted for a login still under way is a value no run has seen yet.
     */
    recentlyRedeemed: (): readonly string[] => recent,
    /** The access tokens issued so far (the last 50): each went to the harness, which knows it. */
    issuedTokens: (): readonly string[] => issuedTokens,
    /** RFC 6749 §4.1.2: on reuse, revoke what the code already issued. */
    revokeTokensOf(code: CodeRecord) {
      for (const token of code.tokens) {
        const record = tokens.get(token);
        if (record) record.revoked = true;
      }
    },
    oldestCodeSpentMs: () => oldestCodeSpentMs,
    /** Whether the token's funding sources list one fewer (a code of the removal hook's). */
    withoutLastFundingSource: (token: string): boolean => tokens.get(token)?.withoutLastFundingSource === true,
    userOfToken(token: string): UserKey | undefined {
      const record = tokens.get(token);
      return record && !record.revoked && record.expiresAt > now() ? record.user : undefined;
    },
  };
}

export type Store = ReturnType<typeof createStore>;

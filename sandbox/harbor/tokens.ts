import { createHash, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, createLocalJWKSet, decodeJwt, errors, jwtVerify, type JSONWebKeySet, type JWK } from 'jose';

export const LINK_LIFETIME_S = 15 * 60;
export const LONG_LINK_LIFETIME_S = 24 * 60 * 60;

export interface LinkClaims {
  profile: Record<string, unknown>;
  ext_user: string;
  ext_org: string;
}

export type LinkFailure = 'LINK_MISSING' | 'LINK_INVALID' | 'LINK_EXPIRED' | 'LINK_ALREADY_USED' | 'UNKNOWN_PARTNER';

/** The sandbox signing key: one P-256 key per Harbor instance, generated at start. */
export class LinkSigner {
  private readonly privateKey: KeyObject;
  readonly kid: string;
  readonly jwks: JSONWebKeySet;
  private readonly verifyKeys: ReturnType<typeof createLocalJWKSet>;
  private readonly usedJtis = new Map<string, number>();

  constructor(
    private readonly issuer: string,
    private readonly now: () => number,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' }) as JWK;
    // RFC 7638 thumbprint as kid, so the kid changes with the key.
    const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
    this.kid = createHash('sha256').update(canonical).digest('base64url');
    this.jwks = { keys: [{ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid: this.kid, alg: 'ES256', use: 'sig' }] };
    this.verifyKeys = createLocalJWKSet(this.jwks);
  }

  async sign(audience: string, claims: LinkClaims, lifetimeS: number): Promise<string> {
    const iat = Math.floor(this.now() / 1000);
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: this.kid })
      .setIssuer(this.issuer)
      .setAudience(audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + lifetimeS)
      .setJti(randomUUID())
      .sign(this.privateKey);
  }

  /** The unverified audience, only to pick which partner's error screen to show. */
  static peekAudience(token: string): string | undefined {
    try {
      const aud = decodeJwt(token).aud;
      return typeof aud === 'string' ? aud : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Verifies with the algorithm pinned to ES256 and our own key set only, then burns the jti.
   * `reusable` is the reusable-links fault.
   */
  async verify(
    token: string,
    audience: string,
    reusable: boolean,
  ): Promise<{ ok: true; claims: LinkClaims } | { ok: false; reason: LinkFailure; detail: string }> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.verifyKeys, {
        algorithms: ['ES256'],
        issuer: this.issuer,
        audience,
        currentDate: new Date(this.now()),
        requiredClaims: ['iss', 'aud', 'iat', 'exp', 'jti'],
      }));
    } catch (e) {
      if (e instanceof errors.JWTExpired) return { ok: false, reason: 'LINK_EXPIRED', detail: 'the link has expired' };
      return { ok: false, reason: 'LINK_INVALID', detail: e instanceof Error ? `the link token was rejected: ${e.message}` : 'the link token was rejected' };
    }
    const { profile, ext_user, ext_org, jti, exp } = payload as Record<string, unknown>;
    if (typeof profile !== 'object' || profile === null || typeof ext_user !== 'string' || typeof ext_org !== 'string' || typeof jti !== 'string') {
      return { ok: false, reason: 'LINK_INVALID', detail: 'the link token lacks its profile claims' };
    }
    this.prune();
    if (this.usedJtis.has(jti) && !reusable) return { ok: false, reason: 'LINK_ALREADY_USED', detail: 'the link was already used' };
    this.usedJtis.set(jti, (exp as number) * 1000);
    return { ok: true, claims: { profile: profile as Record<string, unknown>, ext_user, ext_org } };
  }

  private prune(): void {
    const t = this.now();
    for (const [jti, exp] of this.usedJtis) if (exp < t) this.usedJtis.delete(jti);
  }
}

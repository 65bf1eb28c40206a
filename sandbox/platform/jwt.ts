import { maxLinkLifetimeSeconds } from '../../checks/mock-link';
import { randomUUID } from 'node:crypto';
import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose';

/**
 * The mock-link JWT (spec §4.3, DESIGN §5): HS256 with a key of at least 32 bytes, the algorithm pinned
 * on verification, `iss`, `aud` (the partner name), `iat`, `exp` at most 10 minutes later and a `jti`
 * that is accepted once.
 */
export const mockLinkIssuer = 'urn:partner-certify:platform-emulator';

const algorithm = 'HS256';

export interface MockLinkClaims {
  accountInfo: Record<string, unknown>;
  externalUserId: string;
  externalOrgId: string;
  /** The random UUID the caller sent as `token`. */
  nonce: string;
}

export function mockLinkKey(secret: string): Uint8Array {
  const key = new TextEncoder().encode(secret);
  if (key.byteLength < 32) throw new Error(`the mock-link signing key has ${key.byteLength} bytes; HS256 needs at least 32`);
  return key;
}

export function signMockLink(claims: MockLinkClaims, partnerName: string, key: Uint8Array, now: number): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
    .setIssuer(mockLinkIssuer)
    .setAudience(partnerName)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + maxLinkLifetimeSeconds)
    .setJti(randomUUID())
    .sign(key);
}

export type Verified = { claims: MockLinkClaims & { jti: string; exp: number } } | { problem: string };

const problemOf = (error: unknown): string => {
  if (error instanceof errors.JWTExpired) return 'the link has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `the link's "${error.claim}" claim is not accepted (${error.message})`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the link is not signed with HS256';
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the link's signature does not verify";
  return 'the link is not a valid signed token';
};

/**
 * Verifies a mock link for `partnerName`. `acceptExpired` is the `accepts-expired-jwt` fault: the clock
 * is wound back to just before `exp`, so only expiry is ignored.
 */
export async function verifyMockLink(token: string, partnerName: string, key: Uint8Array, now: number, acceptExpired = false): Promise<Verified> {
  try {
    let currentDate = new Date(now);
    if (acceptExpired) {
      const { exp } = decodeJwt(token);
      if (typeof exp === 'number' && exp * 1000 <= now) currentDate = new Date(exp * 1000 - 1000);
    }
    const { payload } = await jwtVerify(token, key, {
      algorithms: [algorithm],
      typ: 'JWT',
      issuer: mockLinkIssuer,
      audience: partnerName,
      requiredClaims: ['iat', 'exp', 'jti'],
      currentDate,
    });
    const { accountInfo, externalUserId, externalOrgId, nonce, jti, exp, iat } = payload as Partial<MockLinkClaims> & {
      jti?: unknown;
      exp: number;
      iat: number;
    };
    if (exp - iat > maxLinkLifetimeSeconds) return { problem: `the link lives ${exp - iat} s; at most ${maxLinkLifetimeSeconds} s is accepted` };
    if (typeof accountInfo !== 'object' || accountInfo === null || typeof jti !== 'string') return { problem: 'the link carries no account information' };
    return { claims: { accountInfo, externalUserId: String(externalUserId), externalOrgId: String(externalOrgId), nonce: String(nonce), jti, exp } };
  } catch (error) {
    return { problem: problemOf(error) };
  }
}

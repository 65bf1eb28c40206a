import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { base64url, CompactSign, compactVerify, decodeProtectedHeader, type JWK } from 'jose';
import { z } from 'zod';

/**
 * The signed certificate: `certification.json.jws`, a JWS (RFC 7515) with a detached payload (Appendix F)
 * over the exact bytes of certification.json, which holds the SHA-256 of the HTML report and the HAR. The
 * key is Ed25519, given in PEM (PKCS#8) or as a JWK in CERTIFY_SIGNING_KEY, never read from a file.
 */
export const signingKeyVariable = 'CERTIFY_SIGNING_KEY';
export const signerVariable = 'CERTIFY_SIGNER';
const alg = 'EdDSA';

export interface SigningKey {
  privateKey: KeyObject;
  publicJwk: JWK;
  /** The RFC 7638 SHA-256 thumbprint of the public key: what the HTML report shows and `--key` can pin. */
  thumbprint: string;
  signer: string | null;
  /** The key as given, and its private parts, to mask wherever the run writes. */
  secrets: string[];
}

function ed25519Private(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('{') ? createPrivateKey({ key: jwkOf(trimmed), format: 'jwk' }) : createPrivateKey(trimmed);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`it is an ${key.asymmetricKeyType ?? 'unknown'} key`);
  return key;
}

/** A key given as a JWK (its JSON text), read as one: at least its key type. */
const jwkOf = (text: string) => z.looseObject({ kty: z.string() }).parse(JSON.parse(text));

/** RFC 7638 §3: SHA-256 over the required members of an OKP key, in lexicographic order. */
export const thumbprintOf = ({ crv, kty, x }: JWK) => createHash('sha256').update(JSON.stringify({ crv, kty, x })).digest('base64url');

/** The run's signing key, when one is configured; a key that cannot be used is an error naming the variable and the fix. */
export function signingKeyFrom(env: NodeJS.ProcessEnv = process.env): SigningKey | undefined {
  const given = env[signingKeyVariable];
  if (!given) return undefined;
  let privateKey: KeyObject;
  try {
    privateKey = ed25519Private(given);
  } catch (error) {
    throw new Error(
      `${signingKeyVariable} is not an Ed25519 private key in PEM (PKCS#8) or JWK (${error instanceof Error ? error.message : String(error)}); make one with: openssl genpkey -algorithm ed25519`,
    );
  }
  const { x, crv, kty } = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicJwk: JWK = { kty: kty!, crv: crv!, x: x! };
  const d = privateKey.export({ format: 'jwk' }).d!;
  const body = given.replace(/-----[^-]+-----|\s/g, '');
  return {
    privateKey,
    publicJwk,
    thumbprint: thumbprintOf(publicJwk),
    signer: env[signerVariable] || null,
    secrets: [given, body, d].filter((s) => s.length > 0),
  };
}

export const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** `header..signature`: the payload, certification.json's bytes, travels as the file itself. */
export async function signDetached(payload: Uint8Array, key: SigningKey, signedAt: Date): Promise<string> {
  const header = { alg, kid: key.thumbprint, jwk: key.publicJwk, iat: Math.floor(signedAt.getTime() / 1000), ...(key.signer ? { signer: key.signer } : {}) };
  const [protectedHeader, , signature] = (await new CompactSign(payload).setProtectedHeader(header).sign(key.privateKey)).split('.');
  return `${protectedHeader}..${signature}`;
}

export interface Verified {
  thumbprint: string;
  signer: string | null;
  signedAt: Date | null;
}

/**
 * Checks a detached JWS over `payload`. With `trusted` keys (JWKs or thumbprints), the signing key must be
 * one of them. Without, the key is the one the header carries, so a valid signature proves the bytes are
 * unchanged since that key signed them, not whose key it is: `npm run verify` then fails (reports/verify.ts).
 * Throws, saying why, when the signature does not hold.
 */
export async function verifyDetached(jws: string, payload: Uint8Array, trusted: JWK | string | readonly (JWK | string)[] = []): Promise<Verified> {
  const parts = jws.trim().split('.');
  if (parts.length !== 3 || parts[1] !== '') throw new Error('not a detached JWS ("header..signature")');
  const header = decodeProtectedHeader(jws.trim());
  if (header.alg !== alg) throw new Error(`the JWS is signed with ${String(header.alg)}, not ${alg}`);
  const embedded = header.jwk;
  if (!embedded || embedded.kty !== 'OKP' || embedded.crv !== 'Ed25519' || typeof embedded.x !== 'string')
    throw new Error('the JWS names no Ed25519 key (no "jwk" in its header)');
  const thumbprint = thumbprintOf(embedded);
  const keys = (Array.isArray(trusted) ? trusted : [trusted]) as readonly (JWK | string)[];
  const expected = keys.map((key) => (typeof key === 'string' ? key : thumbprintOf(key)));
  if (expected.length > 0 && !expected.includes(thumbprint)) throw new Error(`signed by key ${thumbprint}, not by a trusted key (${expected.join(', ')})`);
  // A trusted key given whole verifies the signature itself; a thumbprint vouches for the header's key.
  const given = keys.find((key): key is JWK => typeof key !== 'string' && thumbprintOf(key) === thumbprint);
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: (given ?? embedded).x! }, format: 'jwk' });
  await compactVerify(`${parts[0]}.${base64url.encode(payload)}.${parts[2]}`, key, { algorithms: [alg] });
  const iat = (header as { iat?: unknown }).iat;
  const signer = (header as { signer?: unknown }).signer;
  return { thumbprint, signer: typeof signer === 'string' ? signer : null, signedAt: typeof iat === 'number' ? new Date(iat * 1000) : null };
}

/**
 * The keys a file of trusted signers holds (trusted-signers.pub, or a file given to `--key`): PEM public
 * keys, one after another, JWKs, or SHA-256 thumbprints, one a line; `#` starts a comment.
 */
export function trustedKeysOf(text: string): (JWK | string)[] {
  const pems = [...text.matchAll(/-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g)].map((match) => match[0]);
  if (pems.length > 0) return pems.map(publicKeyOf);
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return [publicKeyOf(trimmed)];
  return trimmed
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map(publicKeyOf);
}

/** A public key given to `--key`: a PEM (SPKI or PKCS#8) or JWK file's text, or a key's SHA-256 thumbprint. */
export function publicKeyOf(text: string): JWK | string {
  const trimmed = text.trim();
  if (/^[A-Za-z0-9_-]{43}$/.test(trimmed)) return trimmed;
  const source = trimmed.startsWith('{') ? createPublicKey({ key: jwkOf(trimmed), format: 'jwk' }) : createPublicKey(trimmed);
  const { kty, crv, x } = source.export({ format: 'jwk' });
  return { kty: kty!, crv: crv!, x: x! };
}

import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { base64url, CompactSign, compactVerify, decodeProtectedHeader, type JWK } from 'jose';

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
  const key = trimmed.startsWith('{') ? createPrivateKey({ key: JSON.parse(trimmed) as JWK & { kty: string }, format: 'jwk' }) : createPrivateKey(trimmed);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`it is an ${key.asymmetricKeyType ?? 'unknown'} key`);
  return key;
}

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
    throw new Error(`${signingKeyVariable} is not an Ed25519 private key in PEM (PKCS#8) or JWK (${error instanceof Error ? error.message : String(error)}); make one with: openssl genpkey -algorithm ed25519`);
  }
  const { x, crv, kty } = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicJwk: JWK = { kty: kty!, crv: crv!, x: x! };
  const d = privateKey.export({ format: 'jwk' }).d!;
  const body = given.replace(/-----[^-]+-----|\s/g, '');
  return { privateKey, publicJwk, thumbprint: thumbprintOf(publicJwk), signer: env[signerVariable] || null, secrets: [given, body, d].filter((s) => s.length > 0) };
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
 * Checks a detached JWS over `payload`. Without `pinned`, the key is the one the header carries, so a valid
 * signature proves the bytes are unchanged since that key signed them, not whose key it is.
 * Throws, saying why, when the signature does not hold.
 */
export async function verifyDetached(jws: string, payload: Uint8Array, pinned?: JWK | string): Promise<Verified> {
  const parts = jws.trim().split('.');
  if (parts.length !== 3 || parts[1] !== '') throw new Error('not a detached JWS ("header..signature")');
  const header = decodeProtectedHeader(jws.trim());
  if (header.alg !== alg) throw new Error(`the JWS is signed with ${String(header.alg)}, not ${alg}`);
  const embedded = header.jwk;
  if (!embedded) throw new Error('the JWS names no key (no "jwk" in its header)');
  const thumbprint = thumbprintOf(embedded);
  const expected = typeof pinned === 'string' ? pinned : pinned && thumbprintOf(pinned);
  if (expected !== undefined && expected !== thumbprint) throw new Error(`signed by key ${thumbprint}, not by the key given with --key (${expected})`);
  const key = createPublicKey({ key: embedded as JWK & { kty: string }, format: 'jwk' });
  await compactVerify(`${parts[0]}.${base64url.encode(payload)}.${parts[2]}`, key, { algorithms: [alg] });
  const iat = (header as { iat?: unknown }).iat;
  const signer = (header as { signer?: unknown }).signer;
  return { thumbprint, signer: typeof signer === 'string' ? signer : null, signedAt: typeof iat === 'number' ? new Date(iat * 1000) : null };
}

/** A public key given to `--key`: a PEM (SPKI or PKCS#8) or JWK file's text, or a key's SHA-256 thumbprint. */
export function publicKeyOf(text: string): JWK | string {
  const trimmed = text.trim();
  if (/^[A-Za-z0-9_-]{43}$/.test(trimmed)) return trimmed;
  const source = trimmed.startsWith('{') ? createPublicKey({ key: JSON.parse(trimmed) as JWK & { kty: string }, format: 'jwk' }) : createPublicKey(trimmed);
  const { kty, crv, x } = source.export({ format: 'jwk' });
  return { kty: kty!, crv: crv!, x: x! };
}

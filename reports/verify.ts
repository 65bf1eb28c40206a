import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCertification } from './history';
import { files } from './partner-files';
import { sha256, signingKeyVariable, verifyDetached } from './signing';
import type { JWK } from 'jose';

/** Where `npm run verify` finds the keys it trusts when no `--key` is given (docs/REPORT.md, Signed certificates). */
export const trustedSignersFile = 'trusted-signers.pub';

/** Text from a file, printable: control and format characters (escape sequences, direction marks) shown as \u{…}. */
export const printable = (text: string) => text.replace(/[\p{Cc}\p{Cf}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

/**
 * `npm run verify`: whether a certification.json, and the files whose digests it holds, are byte for byte
 * what a trusted key signed. Every line says what was checked; `ok` is false when any check failed, and
 * when no trusted key was given: a signature checked against the key it names itself proves only that
 * the bytes did not change since someone signed them.
 */
export async function verifyCertification(file: string, trusted: readonly (JWK | string)[], trustedFrom: string): Promise<{ ok: boolean; lines: string[] }> {
  const lines: string[] = [];
  let ok = true;
  const fail = (line: string) => {
    ok = false;
    lines.push(`✗ ${line}`);
  };
  const jwsFile = `${file}.jws`;
  if (!existsSync(jwsFile)) return { ok: false, lines: [`✗ no signature: ${jwsFile} is missing (the run had no ${signingKeyVariable})`] };
  const bytes = readFileSync(file);
  let thumbprint: string;
  try {
    const signed = await verifyDetached(readFileSync(jwsFile, 'utf8'), bytes, trusted);
    thumbprint = signed.thumbprint;
    lines.push(`✓ ${path.basename(file)}: the signature holds; not a byte has changed since it was signed`);
    lines.push(
      `  signed by: ${printable(signed.signer ?? 'an unnamed signer')}, Ed25519 key SHA-256 ${signed.thumbprint} ${trusted.length > 0 ? `(a trusted key: ${trustedFrom})` : '(not trusted: no key to check it against)'}`,
    );
    lines.push(`  signed at: ${signed.signedAt?.toISOString() ?? 'unknown'}`);
  } catch (error) {
    fail(
      `${path.basename(file)}: the signature does not hold (${printable(error instanceof Error ? error.message : String(error))}): the file was changed after it was signed, or signed by another key`,
    );
    return { ok, lines };
  }
  const { certification: cert, problem } = parseCertification(bytes.toString('utf8'), path.basename(file));
  if (!cert) {
    fail(`${printable(problem ?? 'not a certification.json')}, though signed`);
    return { ok, lines };
  }
  lines.push(`  partner:   ${printable(cert.run.partner)}, run ${printable(cert.run.startedAt)} → ${printable(cert.run.finishedAt)}`);
  lines.push(`  verdict:   ${printable(cert.summary)}`);
  // The report names the key that signed it; a file signed by one key while naming another is a forgery.
  if (cert.signing?.keyThumbprint !== thumbprint)
    fail(`certification.json names the signing key ${printable(cert.signing?.keyThumbprint ?? '(none)')}, but key ${thumbprint} signed it`);
  for (const name of [files.html, files.har]) {
    const expected = cert.artifacts[name]?.sha256;
    const artifact = path.join(path.dirname(file), name);
    if (!expected) fail(`${name}: certification.json holds no digest of it`);
    else if (!existsSync(artifact)) fail(`${name}: missing beside ${path.basename(file)}`);
    else if (sha256(readFileSync(artifact)) !== expected) fail(`${name}: changed since it was signed (its SHA-256 is not the one certification.json holds)`);
    else lines.push(`✓ ${name}: unchanged (SHA-256 ${expected})`);
  }
  if (trusted.length === 0)
    fail(
      `whose signature it is was not checked: the signature proves integrity only, since anyone can sign with a key of their own; pass --key <public key or thumbprint>, or list the keys you trust in ${trustedSignersFile}`,
    );
  return { ok, lines };
}

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCertification } from './history';
import { files } from './partner-files';
import { sha256, signingKeyVariable, verifyDetached } from './signing';
import type { JWK } from 'jose';

/**
 * `npm run verify`: whether a certification.json, and the files whose digests it holds, are byte for byte
 * what the harness signed. Every line says what was checked; `ok` is false when any check failed.
 */
export async function verifyCertification(file: string, pinned?: JWK | string): Promise<{ ok: boolean; lines: string[] }> {
  const lines: string[] = [];
  let ok = true;
  const fail = (line: string) => {
    ok = false;
    lines.push(`✗ ${line}`);
  };
  const jwsFile = `${file}.jws`;
  if (!existsSync(jwsFile)) return { ok: false, lines: [`✗ no signature: ${jwsFile} is missing (the run had no ${signingKeyVariable})`] };
  const bytes = readFileSync(file);
  try {
    const signed = await verifyDetached(readFileSync(jwsFile, 'utf8'), bytes, pinned);
    lines.push(`✓ ${path.basename(file)}: the signature holds; not a byte has changed since it was signed`);
    lines.push(`  signed by: ${signed.signer ?? 'an unnamed signer'}, Ed25519 key SHA-256 ${signed.thumbprint} ${pinned ? '(the key given with --key)' : '(not pinned: pass --key <public key> to check whose key it is)'}`);
    lines.push(`  signed at: ${signed.signedAt?.toISOString() ?? 'unknown'}`);
  } catch (error) {
    fail(`${path.basename(file)}: the signature does not hold (${error instanceof Error ? error.message : String(error)}): the file was changed after it was signed, or signed by another key`);
    return { ok, lines };
  }
  const { certification: cert, problem } = parseCertification(bytes.toString('utf8'), path.basename(file));
  if (!cert) {
    fail(`${problem ?? 'not a certification.json'}, though signed`);
    return { ok, lines };
  }
  lines.push(`  partner:   ${cert.run.partner}, run ${cert.run.startedAt} → ${cert.run.finishedAt}`);
  lines.push(`  verdict:   ${cert.summary}`);
  for (const name of [files.html, files.har]) {
    const expected = cert.artifacts[name]?.sha256;
    const artifact = path.join(path.dirname(file), name);
    if (!expected) fail(`${name}: certification.json holds no digest of it`);
    else if (!existsSync(artifact)) fail(`${name}: missing beside ${path.basename(file)}`);
    else if (sha256(readFileSync(artifact)) !== expected) fail(`${name}: changed since it was signed (its SHA-256 is not the one certification.json holds)`);
    else lines.push(`✓ ${name}: unchanged (SHA-256 ${expected})`);
  }
  return { ok, lines };
}

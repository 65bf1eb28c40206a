import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Certification, TestRecord } from './certification';
import { harOf } from './har';
import type { TestEvidence } from './html-evidence';
import { certificationHtml } from './html-report';
import { sha256, signDetached, type SigningKey } from './signing';
import { redactEvidence, redactValue } from '../redaction/redact';
import type { Secret } from '../redaction/secrets';
import { packageRoot } from '../run/package-root';

/**
 * One partner's files in `<outputDir>/<partner>/`: exchanges.har, certification.html, certification.json
 * (with the SHA-256 of the other two) and, with a signing key, certification.json.jws. Each is masked as
 * it is written; the JSON is written last because it holds the others' digests, and the signature is over
 * its bytes as written.
 */
export const files = { json: 'certification.json', html: 'certification.html', har: 'exchanges.har', jws: 'certification.json.jws' } as const;

export interface Written {
  dir: string;
  /** certification.json's text, as written. */
  json: string;
  certification: Certification;
}

export async function writePartnerFiles(
  dir: string,
  cert: Certification,
  tests: readonly (TestRecord & TestEvidence)[],
  {
    secrets,
    runWide = [],
    signing,
    creator,
  }: { secrets: readonly Secret[]; runWide?: readonly Secret[]; signing: SigningKey | undefined; creator: { name: string; version: string } },
): Promise<Written> {
  mkdirSync(dir, { recursive: true });
  // Masked as data, string by string, never as text over a document: a secret (or a partner's "token" that
  // reads "NOT CERTIFIED" or '"request": {') can then never rewrite a key, the structure or the harness's
  // own words, and the report is always written.
  // Then with every partner's values of a secret's entropy (redaction/vault.ts, runWideSecrets): one list, one matcher, for every partner.
  const signed = { ...cert, signing: signing ? { keyThumbprint: signing.thumbprint, signer: signing.signer } : null };
  const safe = maskCertification(maskCertification(signed, secrets), runWide);
  // The evidence as the tests attached it, masked again with every secret the partner's run learned since.
  const evidence = tests.map((test) => ({ ...test, exchanges: redactEvidence(redactEvidence(test.exchanges, secrets), runWide) }));
  const har = `${JSON.stringify(harOf(evidence, creator), null, 2)}\n`;
  const html = certificationHtml(safe, evidence);
  writeFileSync(path.join(dir, files.har), har);
  writeFileSync(path.join(dir, files.html), html);
  const $schema = path.relative(dir, path.join(packageRoot, 'schemas/certification.schema.json'));
  const certification: Certification = { ...safe, artifacts: { [files.html]: { sha256: sha256(html) }, [files.har]: { sha256: sha256(har) } } };
  const json = `${JSON.stringify({ $schema, ...certification }, null, 2)}\n`;
  writeFileSync(path.join(dir, files.json), json);
  // An unsigned run removes an earlier run's signature, which no longer signs anything here.
  if (signing) writeFileSync(path.join(dir, files.jws), `${await signDetached(Buffer.from(json), signing, new Date())}\n`);
  else rmSync(path.join(dir, files.jws), { force: true });
  return { dir, json, certification };
}

/**
 * A certification with what the partner's answers and the run's errors put in it masked: the findings,
 * the tests' errors and skip reasons, the endpoints and the waivers' terms. The verdict, the summary, the
 * rules, the run's names and dates are the harness's own words and are left as they are.
 */
export function maskCertification(cert: Certification, secrets: readonly Secret[]): Certification {
  const masked = <T>(value: T) => redactValue(value, secrets);
  return {
    ...cert,
    run: { ...cert.run, targets: masked(cert.run.targets) },
    findings: masked(cert.findings),
    tests: cert.tests.map((test) => ({
      ...test,
      errors: masked(test.errors),
      earlierAttempts: masked(test.earlierAttempts),
      ...(test.skipReason !== undefined ? { skipReason: masked(test.skipReason) } : {}),
    })),
    latency: masked(cert.latency),
    waivers: masked(cert.waivers),
  };
}

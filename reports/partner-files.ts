import path from 'node:path';
import type { Certification, TestRecord } from './certification';
import { harOf } from './har';
import type { TestEvidence } from './html-evidence';
import { certificationHtml } from './html-report';
import { sha256, signDetached, type SigningKey } from './signing';
import type { Egress } from '../run/egress';
import { packageRoot } from '../run/package-root';

/**
 * One partner's files in `<outputDir>/<partner>/`: exchanges.har, certification.html, certification.json (with the
 * SHA-256 of the other two) and, with a signing key, certification.json.jws. They are rendered from what the run
 * gathered as the run's egress hands it over, masked as data, string by string (run/egress.ts): a secret (or a
 * partner's "token" that reads "NOT CERTIFIED" or '"request": {') can then never rewrite a key, the structure or
 * the harness's words, and the report is always written. The JSON comes last because it holds the others'
 * digests, and the signature is over its bytes as written.
 */
export const files = { json: 'certification.json', html: 'certification.html', har: 'exchanges.har', jws: 'certification.json.jws' } as const;

export interface Written {
  dir: string;
  /** certification.json's text, as written. */
  json: string;
  certification: Certification;
}

/**
 * Writes a partner's files from what the run gathered of it, handed to the egress as data: `build` makes the
 * certification of the masked inputs (its tests, the endpoints, the waivers), adding only the harness's own words
 * (the verdict, the rules of the catalogue), so only what came from outside is masked, once.
 */
export async function writePartnerFiles<Inputs extends { tests: readonly (TestRecord & TestEvidence)[] }>(
  dir: string,
  inputs: Inputs,
  build: (masked: Inputs) => Certification,
  { egress, signing, creator }: { egress: Egress; signing: SigningKey | undefined; creator: { name: string; version: string } },
): Promise<Written> {
  let written: Certification | undefined;
  const out = await egress.writeFiles(dir, inputs, async (masked) => {
    const cert = { ...build(masked), signing: signing ? { keyThumbprint: signing.thumbprint, signer: signing.signer } : null };
    const har = `${JSON.stringify(harOf(masked.tests, creator), null, 2)}\n`;
    const html = certificationHtml(cert, masked.tests);
    const $schema = path.relative(dir, path.join(packageRoot, 'schemas/certification.schema.json'));
    written = { ...cert, artifacts: { [files.html]: { sha256: sha256(html) }, [files.har]: { sha256: sha256(har) } } };
    const json = `${JSON.stringify({ $schema, ...written }, null, 2)}\n`;
    // An unsigned run leaves no signature: an earlier run's would no longer sign anything here.
    const jws = signing ? `${await signDetached(Buffer.from(json), signing, new Date())}\n` : null;
    return { [files.har]: har, [files.html]: html, [files.json]: json, [files.jws]: jws };
  });
  return { dir, json: out[files.json]!, certification: written! };
}

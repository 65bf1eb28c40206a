// `npm run verify -- <certification.json> [--key <public key file, or its SHA-256 thumbprint>]`: checks the
// signature beside the file (certification.json.jws) and the digests it holds. Exit 0 when all hold, 1 when
// any file changed or the signature does not hold, 2 for a usage error.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { publicKeyOf } from '../reports/signing';
import { verifyCertification } from '../reports/verify';

const usage = 'usage: npm run verify -- <certification.json> [--key <public key: a PEM or JWK file, or its SHA-256 thumbprint>]';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  let parsed;
  try {
    parsed = parseArgs({ options: { key: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
  const { values: { key: keyArg }, positionals: [file, ...extra] } = parsed;
  if (!file || extra.length > 0) fail(usage);
  if (!existsSync(file)) fail(`${file}: no such file\n${usage}`);
  let pinned;
  try {
    pinned = keyArg === undefined ? undefined : publicKeyOf(existsSync(keyArg) ? readFileSync(keyArg, 'utf8') : keyArg);
  } catch (error) {
    fail(`--key ${keyArg}: not a public key (PEM or JWK) nor a SHA-256 thumbprint (${error instanceof Error ? error.message : String(error)})`);
  }
  const { ok, lines } = await verifyCertification(file, pinned);
  console.log(lines.join('\n'));
  process.exit(ok ? 0 : 1);
}

void main();

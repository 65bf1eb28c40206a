// `npm run verify -- <certification.json> [--key <public key file, or its SHA-256 thumbprint>]`: checks the
// signature beside the file (certification.json.jws) and the digests it holds, against the key given or
// those of trusted-signers.pub. Exit 0 when all hold and a trusted key signed; 1 when any file changed, the
// signature does not hold, or no trusted key was there to check it against; 2 for a usage error.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { trustedKeysOf } from '../reports/signing';
import { trustedSignersFile, verifyCertification } from '../reports/verify';

const usage = `usage: npm run verify -- <certification.json> [--key <public key: a PEM or JWK file, or its SHA-256 thumbprint>]; without --key, the keys in ${trustedSignersFile}`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
    console.log(
      `${usage}\n  exit 0: every file holds and a trusted key signed; 1: a file changed, the signature does not hold, or no trusted key checked it; 2: a usage error`,
    );
    process.exit(0);
  }
  let parsed;
  try {
    // A SHA-256 thumbprint in base64url may begin with "-", which parseArgs takes for an option: "--key -x…" is read as "--key=-x…".
    const args = process.argv
      .slice(2)
      .flatMap((arg, i, all) =>
        arg === '--key' && all[i + 1]?.startsWith('-') ? [] : all[i - 1] === '--key' && arg.startsWith('-') ? [`--key=${arg}`] : [arg],
      );
    parsed = parseArgs({ args, options: { key: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
  const {
    values: { key: keyArg },
    positionals: [file, ...extra],
  } = parsed;
  if (!file || extra.length > 0) fail(usage);
  if (!existsSync(file)) fail(`${file}: no such file\n${usage}`);
  const source = keyArg ?? (existsSync(trustedSignersFile) ? trustedSignersFile : undefined);
  let trusted;
  try {
    trusted = source === undefined ? [] : trustedKeysOf(existsSync(source) ? readFileSync(source, 'utf8') : source);
  } catch (error) {
    fail(
      `${keyArg !== undefined ? `--key ${keyArg}` : trustedSignersFile}: not a public key (PEM or JWK) nor a SHA-256 thumbprint (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const { ok, lines } = await verifyCertification(file, trusted, keyArg !== undefined ? 'the key given with --key' : `listed in ${trustedSignersFile}`);
  console.log(lines.join('\n'));
  process.exit(ok ? 0 : 1);
}

void main();

// `npx partner-certify verify <certification.json> [--key <public key file, or its SHA-256 thumbprint>]`: checks the
// signature beside the file (certification.json.jws) and the digests it holds, against the key given or
// those of trusted-signers.pub. Exit 0 when all hold and a trusted key signed; 1 when any file changed, the
// signature does not hold, or no trusted key was there to check it against; 2 for a usage error.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { trustedKeysOf } from '../reports/signing';
import { trustedSignersFile, verifyCertification } from '../reports/verify';
import { asksForHelp, endQuietlyOnClosedPipe, optionsProblem, usageOf } from './commands';

endQuietlyOnClosedPipe();

const usage = usageOf('verify');

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  if (asksForHelp(process.argv.slice(2))) {
    console.log(usage);
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
    fail(optionsProblem('verify', error));
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

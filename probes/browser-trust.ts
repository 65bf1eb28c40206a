import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, rootCertificates } from 'node:tls';
import { promisify } from 'node:util';
import type { Profile } from '../profile/profile-schema';
import { platformOf } from './platform';

/**
 * Playwright gives Chromium no CA file, and Chromium on Linux reads the CAs a user added from the NSS database
 * in its home ($HOME/.pki/nssdb). So the profile's `caFile` reaches the browser as a CA does: a home of the
 * browser's own, made for the run, whose database trusts the file's certificates to issue server certificates.
 * Chromium then checks every certificate itself, its host name, dates and chain included: a certificate for
 * another name, or a self-signed one that reuses a trusted key, is refused as a user's browser refuses it.
 */

const execFileAsync = promisify(execFile);

/** The https origins the browser opens: the platform's, the partner's app's, and its login's for codes.browser. */
export function browserOrigins(profile: Profile): string[] {
  const origins = new Set<string>();
  if (profile.platform) {
    const platform = platformOf(profile.platform);
    for (const url of [platform.url, platform.codeUrl('code'), ...platform.appOrigins]) origins.add(new URL(url).origin);
  }
  const gotos = (steps: readonly ({ goto: string } | object)[] = []) => steps.flatMap((step) => ('goto' in step ? [step.goto] : []));
  for (const url of [...(profile.partnerApp ? [profile.partnerApp.page, ...gotos(profile.partnerApp.login)] : []), ...gotos(profile.codes.browser?.steps)])
    origins.add(new URL(url).origin);
  return [...origins].filter((origin) => origin.startsWith('https:'));
}

/** Why `origin`'s certificate is not one `ca` or the system vouches for, host name and dates included; undefined when it is. */
function certificateProblem(origin: string, ca: string, timeoutMs: number): Promise<string | undefined> {
  const { hostname, port } = new URL(origin);
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = connect(
      { host, port: Number(port || 443), servername: /^[\d.:]+$/.test(host) ? undefined : host, ca: [...rootCertificates, ca], timeout: timeoutMs },
      () => {
        socket.destroy();
        resolve(undefined);
      },
    );
    socket.on('timeout', () => {
      socket.destroy();
      resolve(`${origin} did not finish a TLS handshake within ${timeoutMs} ms`);
    });
    socket.on('error', (error: Error) => resolve(`${origin}: ${error.message}`));
  });
}

const pemBlocks = (pem: string) => pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];

/** A home whose NSS database trusts each certificate of `caPem` as a CA of servers ("C,,"); removed when the process ends. */
async function homeTrusting(caPem: string): Promise<string> {
  const home = mkdtempSync(path.join(tmpdir(), 'partner-certify-browser-'));
  process.once('exit', () => rmSync(home, { recursive: true, force: true }));
  const db = `sql:${path.join(home, '.pki', 'nssdb')}`;
  mkdirSync(path.join(home, '.pki', 'nssdb'), { recursive: true });
  await execFileAsync('certutil', ['-N', '-d', db, '--empty-password']);
  for (const [index, block] of pemBlocks(caPem).entries()) {
    const file = path.join(home, `ca-${index}.pem`);
    writeFileSync(file, `${block}\n`);
    await execFileAsync('certutil', ['-A', '-d', db, '-n', `caFile certificate ${index + 1}`, '-t', 'C,,', '-i', file]);
  }
  return home;
}

const certutilMissing =
  '"caFile": the browser is given the CA through an NSS database, and "certutil" is not installed; install it (Debian and Ubuntu: apt-get install libnss3-tools; Fedora: dnf install nss-tools)';

/** What keeps `profile`'s CA from reaching the browser before any test: certutil missing where it is needed. */
export function browserTrustProblem(profile: Profile): string[] {
  if (profile.caFile === undefined || browserOrigins(profile).length === 0) return [];
  const { error } = spawnSync('certutil', ['-H'], { stdio: 'ignore' });
  return error && 'code' in error && error.code === 'ENOENT' ? [certutilMissing] : [];
}

/**
 * The environment in which Chromium trusts what `caFile` vouches for, with the origins it does not vouch for
 * (named before the browser starts, as the browser would refuse them); none without a caFile or an https origin.
 */
export async function browserTrust(profile: Profile, caFile = profile.caFile): Promise<{ env?: Record<string, string>; untrusted: string[] }> {
  const origins = browserOrigins(profile);
  if (caFile === undefined || origins.length === 0) return { untrusted: [] };
  const ca = readFileSync(caFile, 'utf8');
  const problems = (await Promise.all(origins.map((origin) => certificateProblem(origin, ca, profile.requestTimeoutMs)))).filter(
    (problem) => problem !== undefined,
  );
  if (pemBlocks(ca).length === 0) return { untrusted: [...problems, `"caFile" ${caFile} holds no PEM certificate`] };
  // The browser suites stop on an origin the CA does not vouch for: no home is made for a browser that will not start.
  if (problems.length > 0) return { untrusted: problems };
  const home = await homeTrusting(ca).then(
    (dir) => dir,
    (error: NodeJS.ErrnoException) => ({
      problem: error.code === 'ENOENT' ? certutilMissing : `"caFile": certutil could not add ${caFile}: ${String(error.message).split('\n')[0]}`,
    }),
  );
  if (typeof home !== 'string') return { untrusted: [home.problem] };
  return { env: { ...(process.env as Record<string, string>), HOME: home }, untrusted: [] };
}

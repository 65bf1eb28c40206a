import { createHash, type X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, rootCertificates } from 'node:tls';
import type { Profile } from '../shared/profile-schema';
import { platformOf } from './platform';

/**
 * Playwright gives Chromium no CA file. So the profile's `caFile` reaches the browser this way: Node opens
 * each https origin the browser will visit, verifies its certificate against the system's CAs and the
 * profile's (host name and dates included), and Chromium trusts exactly those verified keys
 * (`--ignore-certificate-errors-spki-list`). A certificate Node refuses is not
 * trusted, so the browser refuses it too, as it would for a user.
 */

const spkiHash = (certificate: X509Certificate) => createHash('sha256').update(certificate.publicKey.export({ type: 'spki', format: 'der' })).digest('base64');

/** The https origins the browser opens: the platform's, the partner's app's, and its login's for codes.browser. */
export function browserOrigins(profile: Profile): string[] {
  const origins = new Set<string>();
  if (profile.platform) {
    const platform = platformOf(profile.platform);
    for (const url of [platform.url, platform.codeUrl('code'), ...platform.appOrigins]) origins.add(new URL(url).origin);
  }
  const gotos = (steps: readonly ({ goto: string } | object)[] = []) => steps.flatMap((step) => ('goto' in step ? [step.goto] : []));
  for (const url of [...(profile.partnerApp ? [profile.partnerApp.page, ...gotos(profile.partnerApp.login)] : []), ...gotos(profile.codes.browser?.steps)]) origins.add(new URL(url).origin);
  return [...origins].filter((origin) => origin.startsWith('https:'));
}

/** The key of `origin`'s certificate, verified against `ca` as well as the system's; or why it is not trusted. */
function verifiedKey(origin: string, ca: string, timeoutMs: number): Promise<string | { problem: string }> {
  const { hostname, port } = new URL(origin);
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port || 443), servername: /^[\d.:]+$/.test(host) ? undefined : host, ca: [...rootCertificates, ca], timeout: timeoutMs }, () => {
      const certificate = socket.getPeerX509Certificate();
      socket.destroy();
      resolve(certificate ? spkiHash(certificate) : { problem: `${origin} sent no certificate` });
    });
    socket.on('timeout', () => {
      socket.destroy();
      resolve({ problem: `${origin} did not finish a TLS handshake within ${timeoutMs} ms` });
    });
    socket.on('error', (error: Error) => resolve({ problem: `${origin}: ${error.message}` }));
  });
}

/** The Chromium flag that trusts what `caFile` vouches for, with the origins it could not vouch for; none without a caFile or an https origin. */
export async function browserTrust(profile: Profile, caFile = profile.caFile): Promise<{ args: string[]; untrusted: string[] }> {
  const origins = browserOrigins(profile);
  if (caFile === undefined || origins.length === 0) return { args: [], untrusted: [] };
  const ca = readFileSync(caFile, 'utf8');
  const keys = await Promise.all(origins.map((origin) => verifiedKey(origin, ca, profile.requestTimeoutMs)));
  const verified = keys.filter((key): key is string => typeof key === 'string');
  // The leaves' keys only, each verified above: a CA's key would let Chromium pass an expired leaf or one
  // for another host, as long as the chain carried the CA.
  return { args: verified.length > 0 ? [`--ignore-certificate-errors-spki-list=${[...new Set(verified)].join(',')}`] : [], untrusted: keys.flatMap((key) => (typeof key === 'string' ? [] : [key.problem])) };
}

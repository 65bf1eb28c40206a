import { checkServerIdentity, createSecureContext, rootCertificates, TLSSocket, type PeerCertificate } from 'node:tls';
import { Agent, buildConnector } from 'undici';

/**
 * Transport security of every https:// call (RFC 6749 §1.6, §3.2; RFC 9700 §2.6; RFC 9325 §3.1.1): the
 * handshake is allowed down to TLS 1.0 so an old protocol is seen and named, then refused here, before a
 * byte of the request (its code or secret) is sent. The certificate is checked as Node would (chain,
 * dates, host name), with the profile's "caFile" trusted as well, and each problem is named in the
 * partner's terms. Node's own fetch exposes neither the negotiated protocol nor the certificate, hence
 * undici's Agent with a connector of our own.
 */

export interface TlsOptions {
  /** PEM certificates to trust besides the system's: a partner's private CA. */
  ca?: string;
}

/** A handshake the harness refused; its message names the problem and the fix. */
export class TlsProblem extends Error {
  override readonly name = 'TlsProblem';
}

export const oldestProtocol = 'TLSv1.2';
const acceptedProtocols = new Set(['TLSv1.2', 'TLSv1.3']);

const day = (date: string) => new Date(date).toISOString().slice(0, 10);

/** What a certificate check's error code means for a partner, with what to do about it. */
function certificateProblem(code: string, host: string, cert: PeerCertificate): string {
  switch (code) {
    case 'CERT_HAS_EXPIRED':
      return `the certificate of ${host} expired on ${day(cert.valid_to)}; renew it`;
    case 'CERT_NOT_YET_VALID':
      return `the certificate of ${host} is not valid before ${day(cert.valid_from)}; check the server's clock or reissue it`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_GET_ISSUER_CERT':
      return `the certificate of ${host} is issued by ${JSON.stringify(cert.issuer?.CN ?? cert.issuer?.O ?? 'an unknown issuer')}, which is not trusted (${code}); use a certificate from a public CA, send the intermediate certificates too, or give the private CA's certificate as "caFile" in the profile`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return wrongHost(host, cert);
    default:
      return `the certificate of ${host} was not accepted (${code})`;
  }
}

/** Why a handshake must not be used, or undefined when it may. */
export function handshakeProblem(socket: TLSSocket, host: string): string | undefined {
  const protocol = socket.getProtocol() ?? 'unknown';
  if (!acceptedProtocols.has(protocol)) return `${host} negotiated ${protocol}; serve TLS 1.2 or 1.3 (RFC 9325 §3.1.1: TLS 1.0 and 1.1 MUST NOT be used)`;
  const cert = socket.getPeerCertificate();
  // Node gives the verification error as an Error with a code, or as the code itself.
  const refusal = socket.authorizationError as unknown;
  const code = refusal instanceof Error ? ((refusal as NodeJS.ErrnoException).code ?? refusal.message) : typeof refusal === 'string' ? refusal : undefined;
  if (code) return certificateProblem(code, host, cert);
  return checkServerIdentity(host, cert) ? wrongHost(host, cert) : undefined;
}

function wrongHost(host: string, cert: PeerCertificate): string {
  const cn = cert.subject?.CN;
  const names = cert.subjectaltname ?? `CN=${Array.isArray(cn) ? cn.join(', ') : (cn ?? '?')}`;
  return `the certificate of ${host} is for ${names}, not for ${host}; reissue it with ${host} among its names`;
}

/** A connector whose TLS connections are checked before use: a failed check destroys the socket unused. */
function checkedConnector({ ca }: TlsOptions, timeout?: number): buildConnector.connector {
  const connect = buildConnector({
    rejectUnauthorized: false, // checked below, to name the problem
    // A resumed session carries no certificate to check, and one cached from a refused handshake would skip the check.
    maxCachedSessions: 0,
    // Made once: made per connection, the ~140 roots beside a "caFile" were parsed again at every handshake,
    // and the HTTP suites over https:// took 2.6 CPU-s (0.6 s with it made once; 0.3 s over plain http://).
    secureContext: createSecureContext({
      minVersion: 'TLSv1',
      ciphers: 'DEFAULT:@SECLEVEL=0',
      // A `ca` replaces Node's roots: the system's are kept beside the partner's own.
      ...(ca ? { ca: [...rootCertificates, ca] } : {}),
    }),
    ...(timeout !== undefined ? { timeout } : {}),
  });
  return (options, callback) =>
    connect(options, (error, socket) => {
      if (error) return callback(error, null);
      if (!(socket instanceof TLSSocket)) return callback(null, socket);
      const problem = handshakeProblem(socket, options.servername || options.hostname);
      if (!problem) return callback(null, socket);
      socket.destroy();
      callback(new TlsProblem(problem), null);
    });
}

/**
 * An undici dispatcher whose TLS connections are checked before use. An idle connection is dropped after
 * 2 s, well before a server drops it (Node's 5 s, or what its Keep-Alive header says less 1 s): one the
 * server closes as it is reused fails with no response, and on a busy machine the 1 s undici leaves by
 * default was not enough once the race left 50 connections idle.
 */
export function checkedAgent(tls: TlsOptions = {}): Agent {
  return new Agent({ connect: checkedConnector(tls), keepAliveTimeout: 2_000, keepAliveMaxTimeout: 2_000 });
}

/** Opens a connection to `url`'s host (and, over https, checks the handshake), then closes it: the error, or undefined. */
export function connectError(url: URL, tls: TlsOptions, timeoutMs: number): Promise<Error | undefined> {
  const connect = checkedConnector(tls, timeoutMs);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return new Promise((resolve) => {
    connect(
      { hostname: url.hostname, host: url.host, protocol: url.protocol, port, servername: url.protocol === 'https:' ? url.hostname : '' },
      (error, socket) => {
        socket?.destroy();
        resolve(error ?? undefined);
      },
    );
  });
}

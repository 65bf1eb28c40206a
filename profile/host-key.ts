import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

/**
 * Which server a URL reaches, as host and port, so that two spellings of one server compare equal:
 * `http://127.0.0.1:4401` and `http://localhost:4401` are one emulator. Names resolve as the system's
 * hosts file says, and `localhost` and `*.localhost` as RFC 6761 §6.3 says; IP literals compare by
 * address, every loopback address as one. Other names are compared as they are written, since a
 * lookup would make the answer depend on the network (and two names on one address may be two servers).
 */
export function hostKey(url: string, hosts: ReadonlyMap<string, string> = systemHosts()): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const port = parsed.port || ({ 'https:': '443', 'http:': '80' } as Record<string, string>)[parsed.protocol] || '';
  return `${addressOf(
    parsed.hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase(),
    hosts,
  )}:${port}`;
}

/** One platform, however its URL is written: its server (hostKey) and its path, which may hold a prefix. */
export function platformKey(url: string): string {
  let path = '';
  try {
    path = new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    // hostKey says undefined for it too
  }
  return `${hostKey(url) ?? url}${path}`;
}

const loopback = 'loopback';

function addressOf(host: string, hosts: ReadonlyMap<string, string>): string {
  if (host === 'localhost' || host.endsWith('.localhost')) return loopback;
  const mapped = hosts.get(host);
  const address = mapped ?? host;
  const family = isIP(address);
  // A connection to the unspecified address (0.0.0.0, ::) reaches this machine, as loopback does.
  if (family === 4) return address.startsWith('127.') || address === '0.0.0.0' ? loopback : address;
  if (family === 6 && /^[0:]+$/.test(address)) return loopback;
  if (family === 6) {
    const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? mappedHex(address);
    if (v4) return v4.startsWith('127.') ? loopback : v4;
    return address === '::1' || /^0*:0*:0*:0*:0*:0*:0*:0*1$/.test(address) ? loopback : address;
  }
  return address;
}

/** `::ffff:7f00:1`, as the URL parser writes an IPv4-mapped address, as `127.0.0.1`. */
function mappedHex(address: string): string | undefined {
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!match) return undefined;
  const [high, low] = [parseInt(match[1]!, 16), parseInt(match[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

let cached: Map<string, string> | undefined;
/** /etc/hosts: each name to its first address (what getaddrinfo returns first for it). */
export function systemHosts(file = '/etc/hosts'): ReadonlyMap<string, string> {
  if (cached && file === '/etc/hosts') return cached;
  const hosts = new Map<string, string>();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // no hosts file (Windows keeps it elsewhere): names are compared as written
  }
  for (const line of text.split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!address || isIP(address) === 0) continue;
    for (const name of names) if (!hosts.has(name.toLowerCase())) hosts.set(name.toLowerCase(), address);
  }
  if (file === '/etc/hosts') cached = hosts;
  return hosts;
}

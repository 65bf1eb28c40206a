/**
 * Content Security Policy, as far as the rules need it: the sources of a directive, and whether a source list
 * lets a page load an origin (CSP3 §6.7.2, "Does url match source list", without paths: a rule that does
 * not know the path errs on allowing).
 */

/** Each policy's directives: a header may carry several policies, comma-separated, and each must allow a load. */
export function policies(header: string): Map<string, string[]>[] {
  return header
    .split(',')
    .map((policy) => new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).filter(([name]) => name).map(([name, ...sources]) => [name!.toLowerCase(), sources] as const)));
}

/** The sources of the first of `names` the policy has (a fallback list such as frame-src, child-src, default-src); undefined when none. */
export const sourcesOf = (policy: ReadonlyMap<string, string[]>, ...names: string[]) => names.map((name) => policy.get(name)).find((sources) => sources !== undefined);

const defaultPorts: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** A source's scheme admits the target's, and http: also admits its upgrade to https:. */
const schemeAdmits = (scheme: string, target: URL) => target.protocol === scheme || (scheme === 'http:' && target.protocol === 'https:');

function sourceAllows(source: string, target: URL, self: URL | undefined): boolean {
  const lower = source.toLowerCase();
  if (lower === '*') return target.protocol === 'http:' || target.protocol === 'https:';
  if (lower === "'self'") return self !== undefined && schemeAdmits(self.protocol, target) && self.host === target.host;
  const scheme = /^([a-z][a-z0-9+.-]*:)$/.exec(lower);
  if (scheme) return schemeAdmits(scheme[1]!, target);
  const parts = /^(?:([a-z][a-z0-9+.-]*:)\/\/)?(\*|\*\.[^:/]+|[^:/*']+)(?::(\*|\d+))?(?:\/.*)?$/.exec(lower);
  if (!parts) return false;
  const [, sourceScheme = self?.protocol ?? target.protocol, host, port] = parts;
  if (!schemeAdmits(sourceScheme, target)) return false;
  if (host !== '*' && (host!.startsWith('*.') ? !target.hostname.endsWith(host!.slice(1)) : target.hostname !== host)) return false;
  // No port in the source: its scheme's default, or 443 once http: upgraded to https:.
  const targetPort = target.port || defaultPorts[target.protocol];
  return port === '*' || (port ?? defaultPorts[sourceScheme]) === targetPort || (port === undefined && targetPort === defaultPorts[target.protocol]);
}

/** Whether a source list lets a page at `self` load `url`. */
export const sourceListAllows = (sources: readonly string[], url: string, self?: string): boolean =>
  sources.some((source) => sourceAllows(source, new URL(url), self === undefined ? undefined : new URL(self)));

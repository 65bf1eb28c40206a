/**
 * Content Security Policy, as far as the rules need it: the sources of a directive, whether a source list
 * lets a page load a URL (CSP3 §6.7.2, "Does url match source list", paths included unless the load was
 * redirected there, where CSP3 ignores them), and the sandbox a policy imposes.
 */

/** Each policy's directives: a header may carry several policies, comma-separated, and each must allow a load. */
export function policies(header: string): Map<string, string[]>[] {
  return header.split(',').map(
    (policy) =>
      new Map(
        policy
          .split(';')
          .map((part) => part.trim().split(/\s+/))
          .filter(([name]) => name)
          .map(([name, ...sources]) => [name!.toLowerCase(), sources] as const),
      ),
  );
}

/** The sources of the first of `names` the policy has (a fallback list such as frame-src, child-src, default-src); undefined when none. */
export const sourcesOf = (policy: ReadonlyMap<string, string[]>, ...names: string[]) =>
  names.map((name) => policy.get(name)).find((sources) => sources !== undefined);

const defaultPorts: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** A source's scheme admits the target's, and http: also admits its upgrade to https:. */
const schemeAdmits = (scheme: string, target: URL) => target.protocol === scheme || (scheme === 'http:' && target.protocol === 'https:');

/** CSP3 §6.7.2.8: a source path ending in `/` admits the paths under it, another only itself; none admits every path. */
function pathAllows(sourcePath: string | undefined, target: URL): boolean {
  if (sourcePath === undefined || sourcePath === '') return true;
  const decode = (path: string) =>
    path
      .split('/')
      .map((segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          return segment;
        }
      })
      .join('/');
  const [source, path] = [decode(sourcePath), decode(target.pathname || '/')];
  return source.endsWith('/') ? path.startsWith(source) : path === source;
}

function sourceAllows(source: string, target: URL, self: URL | undefined, redirected: boolean): boolean {
  const lower = source.toLowerCase();
  if (lower === '*') return target.protocol === 'http:' || target.protocol === 'https:';
  if (lower === "'self'") return self !== undefined && schemeAdmits(self.protocol, target) && self.host === target.host;
  const scheme = /^([a-z][a-z0-9+.-]*:)$/.exec(lower);
  if (scheme) return schemeAdmits(scheme[1]!, target);
  const parts = /^(?:([a-z][a-z0-9+.-]*:)\/\/)?(\*|\*\.[^:/]+|[^:/*']+)(?::(\*|\d+))?(\/.*)?$/.exec(lower);
  if (!parts) return false;
  const [, sourceScheme = self?.protocol ?? target.protocol, host, port, path] = parts;
  if (!redirected && !pathAllows(source.slice(source.length - (path?.length ?? 0)), target)) return false;
  if (!schemeAdmits(sourceScheme, target)) return false;
  if (host !== '*' && (host!.startsWith('*.') ? !target.hostname.endsWith(host!.slice(1)) : target.hostname !== host)) return false;
  // No port in the source: its scheme's default, or 443 once http: upgraded to https:.
  const targetPort = target.port || defaultPorts[target.protocol];
  return port === '*' || (port ?? defaultPorts[sourceScheme]) === targetPort || (port === undefined && targetPort === defaultPorts[target.protocol]);
}

/** Whether a source list lets a page at `self` load `url`; `redirected`: the load got there by a redirect, so paths do not count. */
export const sourceListAllows = (sources: readonly string[], url: string, self?: string, { redirected = false } = {}): boolean =>
  sources.some((source) => sourceAllows(source, new URL(url), self === undefined ? undefined : new URL(self), redirected));

/**
 * The sandbox flags a policy's `sandbox` directive leaves on: its allow-* tokens, lower-cased; undefined when
 * it has none. A frame inherits its page's sandbox (HTML §7.5.3), so these bind the page's frames too. Only a
 * header delivers it: the directive is ignored in a <meta> policy (CSP3 §6.3.2).
 */
export const sandboxOf = (policy: ReadonlyMap<string, string[]>): string[] | undefined => policy.get('sandbox')?.map((token) => token.toLowerCase());

/**
 * The platform's auth URL as a profile's template makes it (`platform.authUrl`, with `codeMarker` where the
 * code goes): where a framed address holds its code, and how it differs from the template elsewhere.
 */

/** Stands for the code in an auth URL made by the profile's template. */
export const codeMarker = 'CERTIFY-CODE-MARKER';

type Slot = { param: string } | { before: string; after: string };

/** Where an auth URL made with `codeMarker` holds the code: a query parameter, or the path between `before` and `after`. */
function codeSlot(authUrl: URL): Slot | undefined {
  const param = [...authUrl.searchParams].find(([, value]) => value === codeMarker)?.[0];
  if (param !== undefined) return { param };
  const [before = '', after] = authUrl.pathname.split(codeMarker);
  return after === undefined ? undefined : { before, after };
}

const parse = (src: string | undefined, authUrl: string) =>
  src && URL.canParse(src) && URL.canParse(authUrl) ? { framed: new URL(src), wanted: new URL(authUrl) } : undefined;

/** The code in the path of `framed` where `slot` puts it; undefined when the path is not the template's. */
function codeInPath(path: string, { before, after }: { before: string; after: string }): string | undefined {
  return path.length > before.length + after.length && path.startsWith(before) && path.endsWith(after)
    ? path.slice(before.length, path.length - after.length)
    : undefined;
}

/** The code in a framed address, read where the auth URL template puts it (a query parameter or a path segment); undefined when it is not the auth URL. */
export function codeIn(src: string | undefined, authUrl: string): string | undefined {
  const urls = parse(src, authUrl);
  const slot = urls && codeSlot(urls.wanted);
  if (!urls || !slot || urls.framed.origin !== urls.wanted.origin) return undefined;
  if ('param' in slot) return urls.framed.pathname === urls.wanted.pathname ? urls.framed.searchParams.get(slot.param) || undefined : undefined;
  return codeInPath(urls.framed.pathname, slot);
}

/** `src` with `code` in place of the code the auth URL template puts in it; undefined when it is not the auth URL. */
export function withCode(src: string, authUrl: string, code: string): string | undefined {
  if (codeIn(src, authUrl) === undefined) return undefined;
  const framed = new URL(src);
  const slot = codeSlot(new URL(authUrl))!;
  if ('param' in slot) framed.searchParams.set(slot.param, code);
  else framed.pathname = slot.before + encodeURIComponent(code) + slot.after;
  return framed.href;
}

/**
 * `src` with its code shown as `<code>`: what a message may quote of a framed address. The code is found where
 * the template puts it, or in the template's code parameter of an address that differs elsewhere.
 */
export function withoutCode(src: string, authUrl: string): string {
  const placed = withCode(src, authUrl, '<code>');
  if (placed !== undefined) return placed.replace(encodeURIComponent('<code>'), '<code>');
  const urls = parse(src, authUrl);
  const slot = urls && codeSlot(urls.wanted);
  if (!urls || !slot || !('param' in slot) || !urls.framed.searchParams.has(slot.param)) return src;
  urls.framed.searchParams.set(slot.param, '<code>');
  return urls.framed.href.replace(encodeURIComponent('<code>'), '<code>');
}

/**
 * How a framed address differs from the auth URL the template makes, part by part (origin, path, and every
 * query parameter of the template but the code's, which must all be there with the template's values; a
 * parameter the template does not name, such as `state`, is the page's own); undefined when it is that URL.
 */
export function authUrlDifference(src: string | undefined, authUrl: string): string | undefined {
  if (!src) return 'the frame has no address';
  const urls = parse(src, authUrl);
  if (!urls) return `${JSON.stringify(src)} is not an absolute URL`;
  const { framed, wanted } = urls;
  if (framed.origin !== wanted.origin) return `its origin is ${framed.origin}, not ${wanted.origin}`;
  const slot = codeSlot(wanted);
  if (!slot) return undefined;
  const pathMatches = 'param' in slot ? framed.pathname === wanted.pathname : codeInPath(framed.pathname, slot) !== undefined;
  if (!pathMatches)
    return `its path is ${JSON.stringify(framed.pathname)}, not ${JSON.stringify('param' in slot ? wanted.pathname : `${slot.before}<code>${slot.after}`)}`;
  for (const [name, value] of wanted.searchParams) {
    if ('param' in slot && name === slot.param) continue;
    const given = framed.searchParams.get(name);
    if (given !== value)
      return given === null
        ? `it has no "${name}" parameter; the auth URL has "${name}=${value}"`
        : `its "${name}" parameter is ${JSON.stringify(given)}, not ${JSON.stringify(value)}`;
  }
  if ('param' in slot && !framed.searchParams.get(slot.param)) return `it has no code in its "${slot.param}" parameter`;
  return undefined;
}

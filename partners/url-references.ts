// A URL in a profile may read its credentials from the environment: its user name, its password or a query value
// written `env:NAME` on its own (https://hook:env:PARTNER_ACME_MINT_PASSWORD@partner.example/codes?apiKey=env:…), so
// that a hook which takes its credential in its URL keeps it in .env, as the client secret is kept. The variable's
// value goes in as it is, so the URL reads back exactly as it was written; a character that would end its part early
// (an "@" in a password, an "&" in a query value) is refused, named with its percent-encoding, since it would
// silently point the URL elsewhere.

export type UrlPart = { kind: 'user' } | { kind: 'password' } | { kind: 'query'; name: string };

export interface UrlSlot {
  part: UrlPart;
  /** Where the part is in the URL's text: `text.slice(from, to)`, as written (percent-encoded). */
  from: number;
  to: number;
}

/** A value read from the environment: a whole profile value, or a part of a URL. */
export const envReference = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;
// A user name read from env: holds a colon of its own; the password, if any, follows the next one.
const userReference = /^env:[A-Za-z_][A-Za-z0-9_]*(?=:|$)/;

/**
 * The user name, password and query values of an absolute URL, found in its text as the WHATWG URL parser finds
 * them (the authority ends at the first "/", "?" or "\", its userinfo at the last "@", the user name at the first
 * ":"), so that each can be replaced without touching a character of the rest.
 */
export function urlSlots(text: string): UrlSlot[] {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text);
  if (!scheme) return [];
  const start = scheme[0].length;
  const fragment = text.includes('#') ? text.indexOf('#') : text.length;
  const authorityEnd = start + text.slice(start, fragment).search(/[/?\\]|$/);
  const slots: UrlSlot[] = [];
  const at = text.lastIndexOf('@', authorityEnd - 1);
  if (at >= start) {
    const userinfo = text.slice(start, at);
    const colon = userinfo.indexOf(':');
    const userEnd = userReference.exec(userinfo)?.[0].length ?? (colon < 0 ? userinfo.length : colon);
    slots.push({ part: { kind: 'user' }, from: start, to: start + userEnd });
    if (userEnd < userinfo.length) slots.push({ part: { kind: 'password' }, from: start + userEnd + 1, to: at });
  }
  const question = text.indexOf('?', authorityEnd);
  if (question >= 0 && question < fragment) {
    let from = question + 1;
    for (const pair of text.slice(from, fragment).split('&')) {
      const equals = pair.indexOf('=');
      if (equals >= 0) slots.push({ part: { kind: 'query', name: formDecoded(pair.slice(0, equals)) }, from: from + equals + 1, to: from + pair.length });
      from += pair.length + 1;
    }
  }
  return slots;
}

/** A query name or value as a server reads it ("+" a space); a user name or password percent-decoded. */
export function formDecoded(text: string): string {
  return new URLSearchParams(`v=${text}`).get('v') ?? text;
}
export function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// The characters that would end each part early, or change what the URL points at, were they in it as they are.
const unfit: Record<UrlPart['kind'], RegExp> = {
  user: /[\s\p{Cc}:@/\\?#]/u,
  password: /[\s\p{Cc}@/\\?#]/u,
  query: /[\s\p{Cc}&#]/u,
};

export const percentEncoded = (text: string): string => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** The first character of `value` that cannot stand as it is in `part`, or undefined. */
export const unfitCharacter = (part: UrlPart, value: string): string | undefined => unfit[part.kind].exec(value)?.[0];

/** `value` with every character that cannot stand as it is in `part` (or matches `also`) percent-encoded. */
export const fitted = (part: UrlPart, value: string, also?: RegExp): string =>
  [...value].map((char) => (unfit[part.kind].test(char) || also?.test(char) ? percentEncoded(char) : char)).join('');

/** How a message names the part: `its password`, `the query value "apiKey"`. */
export const partWords = (part: UrlPart, article: 'its' | 'the' = 'its'): string =>
  `${article} ${part.kind === 'user' ? 'user name' : part.kind === 'password' ? 'password' : `query value ${JSON.stringify(part.name)}`}`;

/** The key of a part in `LoadedProfile.envNames`: `codes.mintUrl#password`, `codes.mintUrl#user`, `codes.mintUrl?apiKey`. */
export const partKey = (field: string, part: UrlPart): string => (part.kind === 'query' ? `${field}?${part.name}` : `${field}#${part.kind}`);

/**
 * `text` with each part written `env:NAME` replaced by what `read` gives for it; a part `read` gives nothing for
 * (it has said why) is left as written.
 */
export function resolveUrlReferences(text: string, read: (name: string, part: UrlPart) => string | undefined): string {
  let out = '';
  let done = 0;
  for (const { part, from, to } of urlSlots(text)) {
    const name = envReference.exec(text.slice(from, to))?.[1];
    const value = name === undefined ? undefined : read(name, part);
    if (value === undefined) continue;
    out += text.slice(done, from) + value;
    done = to;
  }
  return out + text.slice(done);
}

// What `init` keeps out of the profile, which git keeps: the credentials of a URL it is given (its password; a user
// name or query values that look like credentials, by redaction's own judgement, urlSecretParts) go to .env, and
// the profile reads them back with env: in their place (partners/url-references.ts), as it reads the client secret.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fitted, formDecoded, percentDecoded, urlSlots, envReference, type UrlPart } from '../partners/url-references';
import { isUrl, urlSecretParts } from '../redaction/secrets';

/** `PARTNER_ACME_STAGING` for acme-staging: what each of its variables begins with. */
export const variablePrefix = (name: string): string => `PARTNER_${name.toUpperCase().replace(/-/g, '_')}`;

/** The variable a profile's client secret is read from: `PARTNER_ACME_STAGING_CLIENT_SECRET` for acme-staging. */
export const secretVariable = (name: string): string => `${variablePrefix(name)}_CLIENT_SECRET`;

export interface MovedCredential {
  /** The profile field: "codes.mintUrl". */
  field: string;
  part: UrlPart;
  variable: string;
  /** The part as the URL holds it (percent-encoded where the URL or .env needs it): the variable's value. */
  value: string;
  /** .env sets the variable to this value already. */
  kept: boolean;
}

/** The variables init may not take, or may take only with the value they hold. */
export interface Variables {
  /** Those the other profiles of the folder read (env:NAME anywhere in them). */
  referenced: ReadonlySet<string>;
  /** Those .env sets, with their values. */
  dotenv: Readonly<Record<string, string>>;
  /** Those the environment sets: they win over .env (dotenv never overrides). */
  environment: Readonly<Record<string, string | undefined>>;
}

export type Choose = (base: string, value?: string) => { variable: string; kept: boolean };

/**
 * A chooser of variable names: `base`, or `base_2`, `base_3`… when `base` is taken (chosen before, read by another
 * profile, or set to another value in .env or the environment), so that no two values share a name. Without a
 * `value` (the client secret, a line to fill in), a variable .env already has is kept, as init always did.
 */
export function variableChooser({ referenced, dotenv, environment }: Variables): Choose {
  const chosen = new Set<string>();
  return (base, value) => {
    for (let n = 1; ; n++) {
      const variable = n === 1 ? base : `${base}_${n}`;
      if (chosen.has(variable) || referenced.has(variable)) continue;
      const other = (held: string | undefined) => value !== undefined && held !== undefined && held !== value;
      if (other(dotenv[variable]) || other(environment[variable])) continue;
      chosen.add(variable);
      return { variable, kept: dotenv[variable] !== undefined };
    }
  };
}

/** `apiKey` → `API_KEY`, `X-Amz-Signature` → `X_AMZ_SIGNATURE`: a query name in a variable's name. */
const upperSnake = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();

const partSuffix = (part: UrlPart) => (part.kind === 'user' ? 'USER' : part.kind === 'password' ? 'PASSWORD' : upperSnake(part.name) || 'QUERY');

// dotenv reads a value from a quote to the same quote as quoted, and cuts it at "#": a URL part holds no "#", and
// its quotes are percent-encoded, so .env gives back exactly the value written.
const dotenvQuote = /["'`]/;

/**
 * `url` with its credentials replaced by env: references to variables named `<base>_<PART>`
 * (PARTNER_ACME_MINT_PASSWORD, PARTNER_ACME_MINT_API_KEY), and what went where. A password is a credential
 * whatever it looks like; a user name or query value is one when redaction masks it (urlSecretParts).
 */
export function withoutCredentials(url: string, field: string, base: string, choose: Choose): { url: string; moved: MovedCredential[] } {
  if (!isUrl(url)) return { url, moved: [] };
  const secrets = new Set(urlSecretParts(url));
  const moved: MovedCredential[] = [];
  let out = '';
  let done = 0;
  for (const { part, from, to } of urlSlots(url)) {
    const raw = url.slice(from, to);
    if (raw === '' || envReference.test(raw)) continue;
    if (part.kind !== 'password' && !secrets.has(part.kind === 'query' ? formDecoded(raw) : percentDecoded(raw))) continue;
    const value = fitted(part, raw, dotenvQuote);
    const { variable, kept } = choose(`${base}_${partSuffix(part)}`, value);
    moved.push({ field, part, variable, value, kept });
    out += `${url.slice(done, from)}env:${variable}`;
    done = to;
  }
  return { url: out + url.slice(done), moved };
}

/** Every variable the profiles in `dirs` read, whole or in a URL: names another profile of the folder already uses. */
export function referencedVariables(dirs: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const dir of dirs.filter((folder) => existsSync(folder))) {
    for (const entry of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
      let text = '';
      try {
        text = readFileSync(path.join(dir, entry), 'utf8');
      } catch {
        continue;
      }
      for (const [, name] of text.matchAll(/env:([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(name!);
    }
  }
  return names;
}

/**
 * The credentials `text` holds, as a URL, or read as one when it is none (`hook:pw@host/…` without a scheme, or a
 * password with a "/" that the parser takes for a path): what init's own messages must not show of what it was given.
 */
export function credentialsIn(text: string): string[] {
  let url = text;
  if (!isUrl(text)) {
    const rest = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
    const end = rest.search(/[?#]|$/);
    const at = rest.lastIndexOf('@', end - 1);
    const [user = '', ...password] = at < 0 ? [] : rest.slice(0, at).split(':');
    const userinfo = at < 0 ? '' : `${encodeURIComponent(user)}${password.length > 0 ? `:${encodeURIComponent(password.join(':'))}` : ''}@`;
    url = `http://${userinfo}x.invalid/${rest.startsWith('?', end) ? rest.slice(end).replace(/#.*$/, '') : ''}`;
    if (!URL.canParse(url)) return [];
  }
  const { password } = new URL(url);
  return [...urlSecretParts(url), ...(password ? [password, percentDecoded(password)] : [])];
}

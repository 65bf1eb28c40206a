import { isUrl, urlSecretParts } from '../redaction/secrets';
import {
  envReference,
  formDecoded,
  partKey,
  partWords,
  percentDecoded,
  percentEncoded,
  resolveUrlReferences,
  unfitCharacter,
  type UrlPart,
} from './url-references';

export { envReference };

/**
 * The variables `env:` may read (DESIGN §5, secrets): those named with a prefix the run declares, never the
 * harness's own. A profile is the partner's text; without this, "env:CERTIFY_SIGNING_KEY" would send the
 * key that signs certificates, or any CI secret, to the partner's token endpoint.
 */
export const defaultEnvPrefix = 'PARTNER_';
export const envPrefixesVariable = 'CERTIFY_ENV_PREFIXES';
const harnessPrefixes = ['CERTIFY_', 'CERTIFICATION_'];
const declaredPrefix = /^[A-Za-z][A-Za-z0-9]*_$/;

/** The prefixes of this run: PARTNER_ and those CERTIFY_ENV_PREFIXES lists (comma-separated), or why one cannot be. */
export function envPrefixes(env: NodeJS.ProcessEnv): { prefixes: string[]; errors: string[] } {
  const declared = (env[envPrefixesVariable] ?? '')
    .split(',')
    .map((prefix) => prefix.trim())
    .filter(Boolean);
  const errors = declared.flatMap((prefix) => {
    if (!declaredPrefix.test(prefix))
      return [`${envPrefixesVariable}: "${prefix}" is no prefix of variable names; write letters and digits ending in "_", such as ACME_`];
    if (harnessPrefixes.some((own) => own.startsWith(prefix) || prefix.startsWith(own)))
      return [
        `${envPrefixesVariable}: "${prefix}" would let profiles read the harness's own variables (${harnessPrefixes.join(', ')}…); choose a prefix of the partners' own`,
      ];
    return [];
  });
  return { prefixes: [defaultEnvPrefix, ...declared.filter((prefix) => declaredPrefix.test(prefix))], errors };
}

/** Why a profile may not read variable `name`, or undefined when it may. */
function envRefused(name: string, prefixes: readonly string[]): string | undefined {
  const own = harnessPrefixes.find((prefix) => name.startsWith(prefix));
  if (own)
    return `is one of the harness's own variables (${own}…), which no profile may read; give the partner's value in a variable of its own, such as ${defaultEnvPrefix}${name.slice(own.length)}`;
  if (prefixes.some((prefix) => name.startsWith(prefix))) return undefined;
  return `is not a partner variable: a profile reads only variables named ${prefixes.map((prefix) => `${prefix}…`).join(' or ')}, so that it cannot read the run's other secrets; rename it ${defaultEnvPrefix}${name}, or declare its prefix in ${envPrefixesVariable}`;
}

export interface EnvReading {
  env: NodeJS.ProcessEnv;
  prefixes: readonly string[];
  errors: string[];
  /** The values read: each a secret, but for a URL only its credentials and query values (urlSecretParts). */
  values: string[];
  /** The variable each field was read from, by its path ("clientSecret", "platform.apiKey"; a URL's part: url-references.ts partKey). */
  names: Record<string, string>;
}

/** The value of variable `name`, which `said` ("\"clientSecret\" reads env:NAME") reads; an unset or forbidden one is an error. */
function read(name: string, said: string, key: string, reading: EnvReading): string | undefined {
  const refused = envRefused(name, reading.prefixes);
  if (refused) {
    reading.errors.push(`${said}, which ${refused}`);
    return undefined;
  }
  reading.names[key] = name;
  const resolved = reading.env[name];
  if (resolved === undefined) reading.errors.push(`${said}, which is not set; export ${name}=… or add it to .env`);
  // An empty value is a line of .env still to fill in (npx partner-certify init writes it so), not a field to remove.
  else if (resolved === '') reading.errors.push(`${said}, which is empty; give it its value in .env (${name}=…) or export it`);
  else return resolved;
  return undefined;
}

/** A part of a URL read from env: (url-references.ts): the value as it is, refused where it would end its part early. */
function readInUrl(name: string, part: UrlPart, field: string, reading: EnvReading): string | undefined {
  const said = `"${field}" reads ${partWords(part)} from env:${name}`;
  const value = read(name, said, partKey(field, part), reading);
  if (value === undefined) return undefined;
  const unfit = unfitCharacter(part, value);
  if (unfit !== undefined) {
    reading.errors.push(
      `${said}, whose value holds ${JSON.stringify(unfit)}, which would end ${partWords(part, 'the')} early; write it percent-encoded (${percentEncoded(unfit)}) in ${name}`,
    );
    return undefined;
  }
  reading.values.push(...new Set([value, part.kind === 'query' ? formDecoded(value) : percentDecoded(value)]));
  return value;
}

/**
 * Replaces every `env:NAME` string with the value of NAME, and in a URL every user name, password or query value
 * written `env:NAME`; an unset or forbidden variable is an error naming it.
 */
export function resolveEnv(value: unknown, at: string[], reading: EnvReading): unknown {
  if (typeof value === 'string') {
    const field = at.join('.');
    const name = envReference.exec(value)?.[1];
    if (name === undefined) return resolveUrlReferences(value, (inner, part) => readInUrl(inner, part, field, reading));
    const resolved = read(name, `"${field}" reads env:${name}`, field, reading);
    // A URL is never a secret as a whole: the report must say where it certified.
    if (resolved !== undefined) reading.values.push(...(isUrl(resolved) ? urlSecretParts(resolved) : [resolved]));
    return resolved;
  }
  if (Array.isArray(value)) return value.map((item, i) => resolveEnv(item, [...at, String(i)], reading));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveEnv(item, [...at, key], reading)]));
  }
  return value;
}

/**
 * A message about the profile as its author wrote it: every value read from a variable shown as the `env:NAME` it was
 * read from, so that a problem found after reading (a URL that is not one) never quotes a secret.
 */
export function asWritten(text: string, reading: EnvReading): string {
  const read = [...new Set(Object.values(reading.names))].flatMap((name) => {
    const value = reading.env[name];
    return value ? [{ name, value }] : [];
  });
  // The longest first: a value may hold a shorter one.
  return read.sort((a, b) => b.value.length - a.value.length).reduce((said, { name, value }) => said.split(value).join(`env:${name}`), text);
}

import { readFileSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import type { Exchange } from '../../checks/evidence';
import type { Profile } from '../profile-schema';
import { base64Forms, SecretMatcher } from './secret-matcher';

/**
 * The one redaction of the harness. Every artifact a run writes passes through it: the attachments
 * (findings, evidence, errors) in the worker, then traces, Playwright's HTML report and the
 * certification report in the reporter.
 *
 * Two passes: by value (each secret the run is known to have handled is masked wherever it shows up,
 * even echoed in an error) and by shape (JWTs, credentials in `Authorization`, secrets under their
 * well-known names in JSON, forms and URLs), which covers artifacts whose values the reporter never saw.
 */
export interface Secret {
  value: string;
  /** Bank account numbers and tax ids keep their last 4 characters, so a partner can tell them apart. */
  keepLast4?: boolean;
  /** Other forms of the value to find as well: base64 of `client_id:secret`, an HTTP Basic credential. */
  forms?: readonly string[];
}

export const mask = '[redacted]';
const maskKeepingLast4 = (value: string) => `****${value.slice(-4)}`;

const secretKeys = new Set(['access_token', 'refresh_token', 'refreshtoken', 'id_token', 'client_secret', 'password', 'token', 'api-key', 'apikey']);
// In what the harness sends, "code" is an authorization code; in an answer it is an error code (MISSING_FILTER).
const sentSecretKeys = new Set([...secretKeys, 'code']);
// spec §2.3 company.taxInfo.identifier and §2.4 bankAccountNumber
const last4Keys = new Set(['identifier', 'bankaccountnumber']);

/**
 * Whether a value learned from an exchange is masked wherever it shows up, or only in its own field (by
 * shape): a few letters or a common word ("token": "rule") would otherwise mask the report's own words.
 */
/** Shorter values (a username, a test word) are not masked by value: they would mask ordinary text. */
export const shortestSecret = 6;

export const maskedEverywhere = (value: string) => value.length >= 16 || (value.length >= 8 && /[^A-Za-z]/.test(value));

function secretsInBody(body: string | undefined, keys: ReadonlySet<string>, into: Map<string, Secret>) {
  if (!body) return;
  const visit = (value: unknown, key = ''): void => {
    if (typeof value === 'string' || typeof value === 'number') {
      const lower = key.toLowerCase();
      if (keys.has(lower)) into.set(String(value), { value: String(value) });
      else if (last4Keys.has(lower)) into.set(String(value), { value: String(value), keepLast4: true });
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, Array.isArray(value) ? key : k);
    }
  };
  try {
    visit(JSON.parse(body));
  } catch {
    for (const [key, value] of new URLSearchParams(body)) visit(value, key);
  }
}

const formEncoded = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

/**
 * Every value a profile holds that must never be shown: its secrets by field, every value it read from
 * an `env:` variable wherever it sits, and the client's HTTP Basic credential (`client_id:secret`,
 * form-encoded first as RFC 6749 §2.3.1 says, then base64).
 */
export function profileSecrets(profile: Profile, envValues: readonly string[] = []): Secret[] {
  const values = [
    profile.clientSecret,
    profile.platform?.apiKey,
    profile.platform?.mockLinkKey,
    profile.dataApi?.token,
    ...(profile.codes.static ?? []),
    ...(profile.codes.browser?.steps ?? []).map((step) => ('value' in step ? step.value : undefined)),
    ...envValues,
  ].filter((value): value is string => typeof value === 'string' && value.length >= shortestSecret);
  const secrets = [...new Set(values)].map((value): Secret => ({ value }));
  const { clientId, clientSecret } = profile;
  if (clientId !== undefined && clientSecret !== undefined) {
    const basic = [`${clientId}:${clientSecret}`, `${formEncoded(clientId)}:${formEncoded(clientSecret)}`];
    secrets.push({ value: Buffer.from(basic[0]!).toString('base64'), forms: [...new Set(basic)].flatMap(base64Forms) });
  }
  return secrets;
}

/** The secrets an exchange carried (credentials, codes, tokens, bank account numbers, tax ids) plus `known`. */
export function secretsOf(exchanges: readonly Exchange[], known: readonly (Secret | string | undefined)[] = []): Secret[] {
  const learned = new Map<string, Secret>();
  for (const { request, response } of exchanges) {
    const credentials = /^(?:bearer|basic)\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (credentials) learned.set(credentials, { value: credentials });
    if (request.headers['api-key']) learned.set(request.headers['api-key'], { value: request.headers['api-key'] });
    for (const [key, value] of new URL(request.url, 'http://invalid').searchParams) if (sentSecretKeys.has(key.toLowerCase())) learned.set(value, { value });
    secretsInBody(request.body, sentSecretKeys, learned);
    secretsInBody(response?.body, secretKeys, learned);
  }
  const secrets = new Map<string, Secret>();
  for (const secret of known) if (secret) secrets.set(typeof secret === 'string' ? secret : secret.value, typeof secret === 'string' ? { value: secret } : secret);
  for (const secret of learned.values()) if (!secrets.has(secret.value) && (secret.keepLast4 ? secret.value.length >= shortestSecret : maskedEverywhere(secret.value))) secrets.set(secret.value, secret);
  return [...secrets.values()];
}

// Query parameters and JSON keys whose value is a credential, whatever the value: gateways put keys in URLs.
const secretParams = 'code|token|access_token|refresh_token|id_token|client_secret|secret|password|passwd|pwd|api-key|api_key|apikey|x-api-key|key|subscription-key|sig|signature|auth';
const shapes: readonly [RegExp, string | ((...groups: string[]) => string)][] = [
  // A compact JWS (the mock-link JWT), or any part of one, even cut short: its payload carries account
  // information, tax ids included. "eyJ" is base64url for '{"'.
  // Only where a token starts (after a non-base64 character, or an encoded "="), never inside other base64.
  [/(?:(?<=%3D)|(?<![A-Za-z0-9+/_-]))eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_-]*){0,2}/g, mask],
  // Credentials after Bearer/Basic; a digit is required so prose such as "Bearer authentication" stays.
  [/\b(bearer|basic)(\s+)(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{8,}=*/gi, `$1$2${mask}`],
  // Secrets under their names in JSON, also inside JSON that is itself a string (\"access_token\":\"…\").
  [/(\\*"(?:access_token|refresh_token|refreshToken|id_token|client_secret|password|api-key|apiKey|token|secret)\\*"\s*:\s*\\*")[^"\\]+/gi, `$1${mask}`],
  [/(\\*"(?:identifier|bankAccountNumber)\\*"\s*:\s*\\*")([^"\\]+)/gi, (_, key: string, value: string) => key + maskKeepingLast4(value)],
  // Form bodies and URLs, also percent-encoded inside another URL (the host page's ?src=…auth%3Fcode%3D…).
  [new RegExp(`((?:[?&;]|%3F|%26)(?:${secretParams})(?:=|%3D))[^&#\\s"'<>\\\\]+?(?=%26|[&#\\s"'<>\\\\]|$)`, 'gim'), `$1${mask}`],
  // A password in a URL's userinfo: https://gateway:PASSWORD@host/.
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@"'<>:]*:)[^\s/?#@"'<>]+@/gi, `$1${mask}@`],
  [/(\bapi-key:\s*)\S+/gi, `$1${mask}`],
  // HAR name/value pairs, as traces record query strings and headers: {"name":"code","value":"…"}.
  [new RegExp(`(\\{\\s*\\\\*"name\\\\*"\\s*:\\s*\\\\*"(?:${secretParams}|authorization)\\\\*"\\s*,\\s*\\\\*"value\\\\*"\\s*:\\s*\\\\*")[^"\\\\]+`, 'gi'), `$1${mask}`],
  // US tax ids in their usual dashed shapes (SSN or ITIN 123-45-6789, EIN 12-3456789), wherever they are.
  [/(?<![\d-])\d{3}-\d{2}-(\d{4})(?![\d-])/g, '***-**-$1'],
  [/(?<![\d-])\d{2}-\d{3}(\d{4})(?![\d-])/g, '**-***$1'],
];

// One matcher per secrets array: the vault hands out the same array while nothing changed.
const matchers = new WeakMap<readonly Secret[], SecretMatcher>();
function matcherFor(secrets: readonly Secret[]): SecretMatcher {
  let matcher = matchers.get(secrets);
  if (!matcher) {
    matcher = new SecretMatcher(secrets.map((secret) => ({ value: secret.value, forms: [...(secret.forms ?? []), ...(secret.keepLast4 ? [] : base64Forms(secret.value))] })));
    matchers.set(secrets, matcher);
  }
  return matcher;
}

// Binary payloads of data URLs (images, fonts, zips): masking their base64 as text would only corrupt them.
// Zips are opened and masked inside (redactBytes); images hold no text.
const binaryDataUrl = /data:(?:image|font|video|audio)\/[\w.+-]+;base64,[A-Za-z0-9+/=]+|data:application\/zip;base64,[A-Za-z0-9+/=]+/g;

/** Every secret masked in every form it may take (see secret-matcher.ts), then credentials by shape. */
export function redact(text: string, secrets: readonly Secret[]): string {
  if (!text.includes(';base64,')) return redactText(text, secrets);
  let out = '';
  let at = 0;
  for (const match of text.matchAll(binaryDataUrl)) {
    out += redactText(text.slice(at, match.index), secrets) + match[0];
    at = match.index + match[0].length;
  }
  return out + redactText(text.slice(at), secrets);
}

function redactText(text: string, secrets: readonly Secret[]): string {
  let out = text;
  const hits = secrets.length > 0 ? matcherFor(secrets).find(text) : [];
  if (hits.length > 0) {
    const parts: string[] = [];
    let at = 0;
    for (const { from, to, owner } of hits) {
      const secret = secrets[owner]!;
      parts.push(text.slice(at, from), secret.keepLast4 ? maskKeepingLast4(secret.value) : mask);
      at = to;
    }
    parts.push(text.slice(at));
    out = parts.join('');
  }
  for (const [shape, replacement] of shapes) out = out.replace(shape, replacement as string);
  return out;
}

/** A copy of parsed data with every string redacted; keys and structure are never touched. */
export function redactValue<T>(value: T, secrets: readonly Secret[]): T {
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redact(node, secrets);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]));
    return node;
  };
  return walk(value) as T;
}

/**
 * Digit runs long enough to be a bank account number or an undashed tax id, in partner data, to their
 * last 4 digits; a bare JSON number becomes a string, so the body stays JSON.
 */
export function maskAccountNumbers(text: string): string {
  return text.replace(/(?<![\d.\w])\d(?:[ -]?\d){7,}(?![\d.\w])/g, (run, at: number) => {
    const digits = run.replace(/\D/g, '');
    const masked = maskKeepingLast4(digits);
    const before = text.slice(Math.max(0, at - 8), at).trimEnd().at(-1);
    const after = text.slice(at + run.length, at + run.length + 8).trimStart()[0];
    const bareNumber = before !== undefined && ':[,'.includes(before) && (after === undefined || ',]}'.includes(after));
    return bareNumber ? JSON.stringify(masked) : masked;
  });
}

/** Evidence as it may be stored: every secret masked, and account numbers in bodies and URLs. */
export function redactEvidence(exchanges: readonly Exchange[], secrets: readonly Secret[]): Exchange[] {
  return redactValue(exchanges, secrets).map(({ request, response, ...rest }) => ({
    ...rest,
    request: { ...request, url: maskAccountNumbers(request.url), ...(request.body !== undefined ? { body: maskAccountNumbers(request.body) } : {}) },
    ...(response ? { response: { ...response, body: maskAccountNumbers(response.body) } } : {}),
  }));
}

// ---- personal data, in the certification report handed to the partner ---------------------------------

const dot = '•';
const initials = (value: string) => value.replace(/(\p{L})\p{L}*/gu, `$1${dot.repeat(3)}`);
const lastFourDigits = (value: string) => value.replace(/\d(?=(?:\D*\d){4})/g, dot);
/** Enough of each value is left to recognise it and its shape (an apostrophe, a PO box), not a person. */
const personalMasks: Record<string, (value: string) => string> = {
  email: (value) => value.replace(/^[^@]+/, (local) => `${local.slice(0, 1)}${dot.repeat(3)}`),
  firstname: initials,
  lastname: initials,
  phone: lastFourDigits,
  phonenumber: lastFourDigits,
  dateofbirth: (value) => value.replace(/^(\d{4})-\d{2}-\d{2}/, `$1-${dot}${dot}-${dot}${dot}`),
  line1: (value) => value.replace(/\d/g, dot),
  line2: (value) => value.replace(/\d/g, dot),
};

/**
 * A JSON body with the account holder's personal data masked: names to initials, e-mail to its domain,
 * phone to its last 4 digits, date of birth to its year, house numbers. A field named in `keep`
 * (dotted, array indices dropped, matched at the end of the path) stays whole: its failure quotes it anyway.
 */
export function maskPersonalData(value: unknown, keep: ReadonlySet<string> = new Set()): unknown {
  const kept = (path: string) => [...keep].some((field) => path === field || path.endsWith(`.${field}`));
  const walk = (node: unknown, path: string, key: string): unknown => {
    if (typeof node === 'string') {
      const mask = personalMasks[key.toLowerCase()];
      return mask && !kept(path) ? mask(node) : node;
    }
    if (Array.isArray(node)) return node.map((child) => walk(child, path, key));
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, child]) => [k, walk(child, path ? `${path}.${k}` : k, k)]));
    return node;
  };
  return walk(value, '', '');
}

// ---- files: text, zip archives (Playwright traces) and zips embedded as data URLs (its HTML report) --

const utf8 = new TextDecoder('utf-8', { fatal: true });
function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined; // images, videos: no text to mask
  }
}

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const embeddedZip = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/g;

function redactZip(bytes: Uint8Array, secrets: readonly Secret[]): Uint8Array {
  const entries = Object.entries(unzipSync(bytes)).map(([name, entry]) => [name, redactBytes(entry, secrets)] as const);
  return zipSync(Object.fromEntries(entries));
}

/** The same bytes when there is nothing to mask. */
export function redactBytes(bytes: Uint8Array, secrets: readonly Secret[]): Uint8Array {
  if (isZip(bytes)) return redactZip(bytes, secrets);
  const text = textOf(bytes);
  if (text === undefined) return bytes;
  const clean = redact(text, secrets).replace(embeddedZip, (_, base64: string) =>
    `data:application/zip;base64,${Buffer.from(redactZip(Buffer.from(base64, 'base64'), secrets)).toString('base64')}`);
  return clean === text ? bytes : strToU8(clean);
}

/** Synchronous, so a reporter can mask a file before the reporters after it copy it; throws when it cannot. */
export function redactFile(file: string, secrets: readonly Secret[]): void {
  const bytes = readFileSync(file);
  const clean = redactBytes(bytes, secrets);
  if (clean !== bytes) writeFileSync(file, clean);
}


/**
 * Every file under `dir`, recursively; a missing folder is nothing to do. certification.json is masked as
 * data when it is written, and is left alone here, where masking text could rewrite a key. Returns the
 * files that could not be masked, each with why, so the caller can say so; the others are masked anyway.
 */
export async function redactTree(dir: string, secrets: readonly Secret[]): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile() && entry.name !== 'certification.json').map((entry) => path.join(entry.parentPath, entry.name));
  const failures: string[] = [];
  for (const file of files) {
    try {
      redactFile(file, secrets);
    } catch (error) {
      failures.push(`${file} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return failures;
}


import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import type { Exchange } from '../checks/evidence';
import type { Profile } from '../partners/profile';

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
}

export const mask = '[redacted]';
const maskKeepingLast4 = (value: string) => `****${value.slice(-4)}`;

const secretKeys = new Set(['access_token', 'refresh_token', 'refreshtoken', 'id_token', 'client_secret', 'password', 'token', 'api-key', 'apikey']);
// In what the harness sends, "code" is an authorization code; in an answer it is an error code (MISSING_FILTER).
const sentSecretKeys = new Set([...secretKeys, 'code']);
// spec §2.3 company.taxInfo.identifier and §2.4 bankAccountNumber
const last4Keys = new Set(['identifier', 'bankaccountnumber']);

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

/** Every value a profile reads from its configuration that must never be shown. */
export function profileSecrets(profile: Profile): string[] {
  return [
    profile.clientSecret,
    profile.platform?.apiKey,
    profile.platform?.mockLinkKey,
    profile.dataApi?.token,
    ...(profile.codes.static ?? []),
    ...(profile.codes.browser?.steps ?? []).map((step) => ('value' in step ? step.value : undefined)),
  ].filter((value): value is string => typeof value === 'string');
}

/** The secrets an exchange carried (credentials, codes, tokens, bank account numbers, tax ids) plus `known`. */
export function secretsOf(exchanges: readonly Exchange[], known: readonly (string | undefined)[] = []): Secret[] {
  const secrets = new Map<string, Secret>();
  for (const value of known) if (value) secrets.set(value, { value });
  for (const { request, response } of exchanges) {
    const credentials = /^(?:bearer|basic)\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (credentials) secrets.set(credentials, { value: credentials });
    if (request.headers['api-key']) secrets.set(request.headers['api-key'], { value: request.headers['api-key'] });
    for (const [key, value] of new URL(request.url, 'http://invalid').searchParams) if (sentSecretKeys.has(key.toLowerCase())) secrets.set(value, { value });
    secretsInBody(request.body, sentSecretKeys, secrets);
    secretsInBody(response?.body, secretKeys, secrets);
  }
  // Longest first, so a secret that contains another is masked whole; tiny values would mask noise.
  return [...secrets.values()].filter(({ value }) => value.length >= 4).sort((a, b) => b.value.length - a.value.length);
}

const shapes: readonly [RegExp, string | ((...groups: string[]) => string)][] = [
  // A compact JWS (the mock-link JWT): its payload carries account information, tax ids included.
  [/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, mask],
  // Credentials after Bearer/Basic; a digit is required so prose such as "Bearer authentication" stays.
  [/\b(bearer|basic)(\s+)(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{8,}=*/gi, `$1$2${mask}`],
  // Secrets under their names in JSON, also inside JSON that is itself a string (\"access_token\":\"…\").
  [/(\\*"(?:access_token|refresh_token|refreshToken|id_token|client_secret|password|api-key|apiKey)\\*"\s*:\s*\\*")[^"\\]+/gi, `$1${mask}`],
  [/(\\*"(?:identifier|bankAccountNumber)\\*"\s*:\s*\\*")([^"\\]+)/gi, (_, key: string, value: string) => key + maskKeepingLast4(value)],
  // Form bodies and URLs, also percent-encoded inside another URL (the host page's ?src=…auth%3Fcode%3D…).
  [/((?:[?&]|%3F|%26)(?:code|token|access_token|refresh_token|client_secret|api-key|apikey)(?:=|%3D))[A-Za-z0-9._~+/-]+/gi, `$1${mask}`],
  [/(\bapi-key:\s*)\S+/gi, `$1${mask}`],
  // HAR name/value pairs, as traces record query strings and headers: {"name":"code","value":"…"}.
  [/(\{\s*\\*"name\\*"\s*:\s*\\*"(?:code|token|access_token|refresh_token|client_secret|api-key|apikey|authorization)\\*"\s*,\s*\\*"value\\*"\s*:\s*\\*")[^"\\]+/gi, `$1${mask}`],
];

export function redact(text: string, secrets: readonly Secret[]): string {
  let out = text;
  for (const { value, keepLast4 } of secrets) out = out.split(value).join(keepLast4 ? maskKeepingLast4(value) : mask);
  for (const [shape, replacement] of shapes) out = out.replace(shape, replacement as string);
  return out;
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

export async function redactFile(file: string, secrets: readonly Secret[]): Promise<void> {
  const bytes = await readFile(file);
  const clean = redactBytes(bytes, secrets);
  if (clean !== bytes) await writeFile(file, clean);
}

/** Every file under `dir`, recursively; a missing folder is nothing to do. */
export async function redactTree(dir: string, secrets: readonly Secret[]): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  await Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => redactFile(path.join(entry.parentPath, entry.name), secrets)));
}


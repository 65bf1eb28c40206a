import type { Exchange } from '../checks/evidence';
import { base64Forms, SecretMatcher } from './secret-matcher';
import { dateOfBirthShown, yearOnly } from './personal-data';
import { last4Keys, secretKeys, type Secret } from './secrets';

/**
 * The one redaction of the harness. Every artifact a run writes passes through it: the attachments
 * (findings, evidence, errors) in the worker, then traces, Playwright's HTML report and the
 * certification report in the reporter.
 *
 * Two passes: by value (each secret the run is known to have handled is masked wherever it shows up,
 * even echoed in an error) and by shape (JWTs, credentials in `Authorization`, secrets under their
 * well-known names in JSON, forms and URLs), which covers artifacts whose values the reporter never saw.
 */
export const mask = '[redacted]';
const maskKeepingLast4 = (value: string) => `****${value.slice(-4)}`;

// Query parameters and JSON keys whose value is a credential, whatever the value: gateways put keys in URLs.
const secretParams =
  'code|token|access_token|refresh_token|id_token|client_secret|secret|password|passwd|pwd|api-key|api_key|apikey|x-api-key|key|subscription-key|sig|signature|auth';
/**
 * The value of a parameter named by `names` (a regex alternation) in a form body or a URL (its query, or its
 * fragment, where an implicit grant puts `access_token`), also percent-encoded inside another URL (the host
 * page's ?src=…auth%3Fcode%3D…). A mask already percent-encoded (a HAR's URLs are URIs: reports/har.ts) is
 * left as it is.
 */
const paramShape = (names: string) =>
  new RegExp(
    `((?:[?&;#]|%3F|%26|%23)(?:${names})(?:=|%3D))(?!${encodeURIComponent(mask)}(?:%26|[&#\\s"'<>\\\\]|$))[^&#\\s"'<>\\\\]+?(?=%26|[&#\\s"'<>\\\\]|$)`,
    'gim',
  );
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The profile URLs' own query parameters (Secret.queryName), as one shape per secrets array. */
const queryShapes = new WeakMap<readonly Secret[], RegExp | null>();
function queryShapeOf(secrets: readonly Secret[]): RegExp | null {
  let shape = queryShapes.get(secrets);
  if (shape === undefined) {
    const names = [...new Set(secrets.filter((secret) => secret.queryName).flatMap((secret) => [secret.value, encodeURIComponent(secret.value)]))];
    shape = names.length > 0 ? paramShape(names.map(escapeRegExp).join('|')) : null;
    queryShapes.set(secrets, shape);
  }
  return shape;
}
const shapes: readonly [RegExp, string | ((...groups: string[]) => string)][] = [
  // A compact JWS (the mock-link JWT), or any part of one, even cut short: its payload carries account
  // information, tax ids included. "eyJ" is base64url for '{"'.
  // Only where a token starts (after a non-base64 character, or an encoded "="), never inside other base64.
  [/(?:(?<=%3D)|(?<![A-Za-z0-9+/_-]))eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_-]*){0,2}/g, mask],
  // Credentials after Bearer/Basic; a digit is required so prose such as "Bearer authentication" stays.
  [/\b(bearer|basic)(\s+)(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{8,}=*/gi, `$1$2${mask}`],
  // Secrets under their names in JSON, also inside JSON that is itself a string (\"access_token\":\"…\").
  [
    /(\\*"(?:access_token|accessToken|refresh_token|refreshToken|id_token|idToken|client_secret|clientSecret|password|api-key|apiKey|token|secret)\\*"\s*:\s*\\*")[^"\\]+/gi,
    `$1${mask}`,
  ],
  [/(\\*"(?:identifier|bankAccountNumber)\\*"\s*:\s*\\*")([^"\\]+)/gi, (_, key: string, value: string) => key + maskKeepingLast4(value)],
  [paramShape(secretParams), `$1${mask}`],
  // A password in a URL's userinfo: https://gateway:PASSWORD@host/.
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@"'<>:]*:)[^\s/?#@"'<>]+@/gi, `$1${mask}@`],
  [/(\bapi-key:\s*)\S+/gi, `$1${mask}`],
  // HAR name/value pairs, as traces record query strings and headers: {"name":"code","value":"…"}.
  [
    new RegExp(`(\\{\\s*\\\\*"name\\\\*"\\s*:\\s*\\\\*"(?:${secretParams}|authorization)\\\\*"\\s*,\\s*\\\\*"value\\\\*"\\s*:\\s*\\\\*")[^"\\\\]+`, 'gi'),
    `$1${mask}`,
  ],
  // A date of birth under its name, in JSON (a bare number made a string, quoted as its key is) and in forms and URLs
  // (user.dateOfBirth=…): its year only, whatever its form, so one the run never learned (19610723) keeps no month and day.
  [
    /(\\*)("dateOfBirth\\*"\s*:\s*)(\\*")?([^"\\,}\]\s]+)/gi,
    (whole: string, escape: string, key: string, quote: string | undefined, value: string) =>
      quote === undefined && !/^\d+$/.test(value)
        ? whole
        : `${escape}${key}${quote ?? `${escape}"`}${dateOfBirthShown(value)}${quote === undefined ? `${escape}"` : ''}`,
  ],
  [/((?:^|[?&;\s])(?:[\w.]*\.)?dateOfBirth=)([^&#\s"'<>\\]+)/gim, (_, key: string, value: string) => `${key}${dateOfBirthShown(value)}`],
  // US tax ids in their usual dashed shapes (SSN or ITIN 123-45-6789, EIN 12-3456789), wherever they are.
  [/(?<![\d-])\d{3}-\d{2}-(\d{4})(?![\d-])/g, '***-**-$1'],
  [/(?<![\d-])\d{2}-\d{3}(\d{4})(?![\d-])/g, '**-***$1'],
];

// A query parameter's name and ordinary text are no secrets to find (each keeps its place, so owners stay indices of the array).
const matchable = (secret: Secret) =>
  secret.queryName || secret.ordinary
    ? { value: '' }
    : {
        value: secret.value,
        forms: [...(secret.forms ?? []), ...(secret.keepLast4 || secret.keepYear ? [] : base64Forms(secret.value))],
        ...(secret.keepYear ? { whole: true } : {}),
      };
const ordinaryOf = (secrets: readonly Secret[]) => secrets.filter((secret) => secret.ordinary).map((secret) => secret.value);

// One matcher per secrets array: the vault hands out the same array while nothing changed, and when a
// scope (one partner's secrets: redaction/vault.ts) learns more, a new array that starts with its
// last one. That matcher then only adds the new secrets: rebuilding it for every secret a fleet's workers
// learn cost the reporter seconds. One head a scope: the newest array of each, with its matcher.
const matchers = new WeakMap<readonly Secret[], SecretMatcher>();
const heads = new Set<{ secrets: readonly Secret[]; matcher: SecretMatcher }>();
const mostHeads = 256;
const startsWith = (secrets: readonly Secret[], prefix: readonly Secret[]) =>
  secrets.length > prefix.length && prefix.every((secret, i) => secrets[i] === secret);
function matcherFor(secrets: readonly Secret[]): SecretMatcher {
  let matcher = matchers.get(secrets);
  if (matcher) return matcher;
  const head = [...heads].find((candidate) => startsWith(secrets, candidate.secrets));
  if (head) {
    // The older array's matcher is taken over: it will find secrets that array does not hold.
    heads.delete(head);
    matchers.delete(head.secrets);
    matcher = head.matcher;
    const added = secrets.slice(matcher.size);
    matcher.add(added.map(matchable), ordinaryOf(added));
  } else {
    matcher = new SecretMatcher(secrets.map(matchable), ordinaryOf(secrets));
    if (heads.size >= mostHeads) heads.delete(heads.values().next().value!);
  }
  matchers.set(secrets, matcher);
  heads.add({ secrets, matcher });
  return matcher;
}

// Binary payloads of data URLs (images, fonts, zips): masking their base64 as text would only corrupt them.
// Zips are opened and masked inside (redactBytes); images hold no text.
const binaryDataUrl = /data:(?:image|font|video|audio)\/[\w.+-]+;base64,[A-Za-z0-9+/=]+|data:application\/zip;base64,[A-Za-z0-9+/=]+/g;

/**
 * Every secret masked in every form it may take (see secret-matcher.ts), then credentials by shape. `also`: a second
 * list masked by value too, with a matcher of its own: one list many callers share (every partner's run-wide secrets,
 * redaction/vault.ts) is indexed once, not once in each caller's list.
 */
export function redact(text: string, secrets: readonly Secret[], also: readonly Secret[] = []): string {
  if (!text.includes(';base64,')) return redactText(text, secrets, also);
  let out = '';
  let at = 0;
  for (const match of text.matchAll(binaryDataUrl)) {
    out += redactText(text.slice(at, match.index), secrets, also) + match[0];
    at = match.index + match[0].length;
  }
  return out + redactText(text.slice(at), secrets, also);
}

/** Each secret masked where it is found, in any form (the first pass). */
function maskValues(text: string, secrets: readonly Secret[]): string {
  const hits = secrets.length > 0 ? matcherFor(secrets).find(text) : [];
  if (hits.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const { from, to, owner } of hits) {
    const secret = secrets[owner]!;
    const year = secret.keepYear && yearOnly(secret.value);
    parts.push(text.slice(at, from), secret.keepLast4 ? maskKeepingLast4(secret.value) : year ? (bareNumberAt(text, from, to) ? `"${year}"` : year) : mask);
    at = to;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function redactText(text: string, secrets: readonly Secret[], also: readonly Secret[]): string {
  let out = maskValues(maskValues(text, secrets), also);
  for (const [shape, replacement] of shapes) out = out.replace(shape, replacement as string);
  const queryShape = secrets.length > 0 ? queryShapeOf(secrets) : null;
  return queryShape ? out.replace(queryShape, `$1${mask}`) : out;
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

const secretParamNames = new RegExp(`^(?:${secretParams}|authorization)$`, 'i');
/**
 * Parsed JSON that a tool wrote (a trace, a blob, Playwright's report data), masked as data as
 * redactValue does, and by its keys as the text shapes would: a string under a secret's key, and the
 * value of a `{"name": "code", "value": …}` pair (how traces record headers and query strings).
 */
export function redactData(value: unknown, secrets: readonly Secret[], also: readonly Secret[] = []): unknown {
  const walk = (node: unknown, key = ''): unknown => {
    if (typeof node === 'string') {
      if (node === '' || node === mask) return node;
      if (secretKeys.has(key.toLowerCase())) return mask;
      if (last4Keys.has(key.toLowerCase())) return maskKeepingLast4(node);
      if (key.toLowerCase() === 'dateofbirth') return dateOfBirthShown(node);
      return redact(node, secrets, also);
    }
    if (Array.isArray(node)) return node.map((child) => walk(child));
    if (node && typeof node === 'object') {
      const pair = node as { name?: unknown; value?: unknown };
      const secretPair = typeof pair.name === 'string' && typeof pair.value === 'string' && secretParamNames.test(pair.name);
      return Object.fromEntries(Object.entries(node).map(([k, child]) => [k, secretPair && k === 'value' ? (child === '' ? child : mask) : walk(child, k)]));
    }
    return node;
  };
  return walk(value);
}

/**
 * Digit runs long enough to be a bank account number or an undashed tax id, in partner data, to their
 * last 4 digits, and dates to their year; a bare JSON number becomes a string, so the body stays JSON.
 */
export function maskAccountNumbers(text: string): string {
  return text.replace(/(?<![\d.\w])\d(?:[ -]?\d){7,}(?![\d.\w])/g, (run, at: number) => {
    // A date (a date of birth) keeps its year only, as the report's personal-data mask keeps it: its last 4 digits are its month and day.
    if (/^\d{4}-\d{2}-\d{2}$/.test(run)) return yearOnly(run);
    const masked = maskKeepingLast4(run.replace(/\D/g, ''));
    return bareNumberAt(text, at, at + run.length) ? JSON.stringify(masked) : masked;
  });
}

/** Whether `text` from `from` to `to` is a bare JSON number (a value, between `:[,` and `,]}`): masked, it is quoted, so a body stays JSON. */
function bareNumberAt(text: string, from: number, to: number): boolean {
  const before = text
    .slice(Math.max(0, from - 8), from)
    .trimEnd()
    .at(-1);
  const after = text.slice(to, to + 8).trimStart()[0];
  return before !== undefined && ':[,'.includes(before) && (after === undefined || ',]}'.includes(after)) && /^\d+$/.test(text.slice(from, to));
}

/** Evidence as it may be stored: every secret masked, and account numbers in bodies and URLs. */
export function redactEvidence(exchanges: readonly Exchange[], secrets: readonly Secret[]): Exchange[] {
  return redactValue(exchanges, secrets).map(({ request, response, ...rest }) => ({
    ...rest,
    request: { ...request, url: maskAccountNumbers(request.url), ...(request.body !== undefined ? { body: maskAccountNumbers(request.body) } : {}) },
    ...(response ? { response: { ...response, body: maskAccountNumbers(response.body) } } : {}),
  }));
}

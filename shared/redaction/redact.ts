import { sensitiveFields } from '../../checks/catalogue';
import { jsonResponse, parseJson, type Exchange, type JsonBody } from '../../checks/evidence';
import { lastSegment } from '../../checks/payload';
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
  /**
   * `value` is the name of a query parameter of a profile URL: its value is masked in every URL, whatever
   * the name (a gateway's `X-Amz-Signature`, `apiToken`), as `code=…` is.
   */
  queryName?: true;
  /**
   * `value` is no secret but ordinary text of the run (a rule id, a profile's URL): a fragment of a secret
   * that also occurs in it is left as it is (DESIGN §5). Whole secrets are masked wherever they are.
   */
  ordinary?: true;
}

export const mask = '[redacted]';
const maskKeepingLast4 = (value: string) => `****${value.slice(-4)}`;

const secretKeys = new Set(['access_token', 'refresh_token', 'refreshtoken', 'id_token', 'client_secret', 'password', 'token', 'api-key', 'apikey']);
// In what the harness sends, "code" is an authorization code; in an answer it is an error code (MISSING_FILTER).
const sentSecretKeys = new Set([...secretKeys, 'code']);
// The fields the spec's tables mark sensitive (company.taxInfo.identifier, bankAccountNumber), by their last segment.
const last4Keys = new Set(sensitiveFields.map((field) => lastSegment(field.path).toLowerCase()));

/** Shorter values (a username, a test word) are not masked by value: they would mask ordinary text. */
export const shortestSecret = 6;

/**
 * Whether a value learned from an exchange or a browser (a token, a session cookie) is masked wherever it
 * shows up, or only in its own field (by shape). From 8 characters, whatever its letters: a value issued in a
 * credential's place is one (8 random letters are 2·10^11 guesses), and now that a fragment is spared only
 * where it also occurs in ordinary text (secret-matcher.ts), letters need no extra length to be told from
 * words. Shorter values ("en", "true", "rule", a username) are flags and words: masked whole, they would mask
 * the report's own.
 */
export const maskedEverywhere = (value: string) => value.length >= 8;

/** A profile URL's query value or user name that may be a word (`?user=complete`) is masked where it sits, by its name. */
const credentialShaped = (value: string) => value.length >= 16 || (value.length >= 8 && /[^A-Za-z]/.test(value));

function secretsInBody(
  body: string | undefined,
  keys: ReadonlySet<string>,
  into: Map<string, Secret>,
  json: JsonBody = body ? parseJson(body) : { ok: false, error: 'empty' },
) {
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
  if (json.ok) visit(json.value);
  else for (const [key, value] of new URLSearchParams(body)) visit(value, key);
}

const formEncoded = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

/** Whether a value is an absolute URL: shown, with its secret parts (urlSecretParts) masked. */
export const isUrl = (value: string) => /^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i.test(value) && URL.canParse(value);

/**
 * The parts of a URL that are secrets: the password of its userinfo, a user name and query values that
 * look like credentials (a word such as `?user=complete` would mask that word in every report: those
 * are masked where they sit, in URLs, by their names: `urlQueryNames`).
 */
export function urlSecretParts(url: string): string[] {
  const { username, password, searchParams } = new URL(url);
  const decoded = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  return [
    ...(password ? [decoded(password)] : []),
    ...(username && credentialShaped(decoded(username)) ? [decoded(username)] : []),
    ...[...searchParams.values()].filter(credentialShaped),
  ].filter((part) => part.length >= shortestSecret);
}

/** Every string a profile holds, wherever it sits (endpoints, the code source, browser steps, the platform). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** Values that are no secret but ordinary text of the run (Secret.ordinary); a text shorter than a fragment holds none. */
export const ordinaryText = (values: Iterable<string>): Secret[] =>
  [...new Set(values)].filter((value) => value.length >= 8).map((value) => ({ value, ordinary: true }));

/** A profile's values that hold none of its secrets, its URLs without credentials or query: ordinary text. */
function ordinaryValues(profile: Profile, secrets: readonly string[]): string[] {
  const lower = secrets.map((secret) => secret.toLowerCase());
  const values = stringsOf(profile).map((value) => (isUrl(value) ? `${new URL(value).origin}${new URL(value).pathname}` : value));
  return values.filter((value) => !lower.some((secret) => value.toLowerCase().includes(secret)));
}

/**
 * Every value a profile holds that must never be shown: its secrets by field, every value it read from
 * an `env:` variable wherever it sits (of a URL, its secret parts), the secret parts of its URLs and the
 * names of their query parameters, and the client's HTTP Basic credential (`client_id:secret`,
 * form-encoded first as RFC 6749 §2.3.1 says, then base64).
 */
export function profileSecrets(profile: Profile, envValues: readonly string[] = []): Secret[] {
  const urls = stringsOf(profile).filter(isUrl);
  const values = [
    profile.clientSecret,
    profile.platform?.apiKey,
    profile.platform?.mockLinkKey,
    profile.dataApi?.token,
    ...(profile.codes.static ?? []),
    ...(profile.codes.browser?.steps ?? []).map((step) => ('value' in step ? step.value : undefined)),
    ...envValues,
    ...urls.flatMap(urlSecretParts),
  ].filter((value): value is string => typeof value === 'string' && value.length >= shortestSecret);
  const secrets = [...new Set(values)].map((value): Secret => ({ value }));
  const queryNames = new Set(urls.flatMap((url) => [...new URL(url).searchParams.keys()]).filter((name) => name.length > 0));
  secrets.push(...[...queryNames].map((value): Secret => ({ value, queryName: true })));
  const { clientId, clientSecret } = profile;
  if (clientId !== undefined && clientSecret !== undefined) {
    const basic = [`${clientId}:${clientSecret}`, `${formEncoded(clientId)}:${formEncoded(clientSecret)}`];
    secrets.push({ value: Buffer.from(basic[0]!).toString('base64'), forms: [...new Set(basic)].flatMap(base64Forms) });
  }
  return [...secrets, ...ordinaryText(ordinaryValues(profile, values))];
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
    if (response) secretsInBody(response.body, secretKeys, learned, jsonResponse(response).json);
  }
  const secrets = new Map<string, Secret>();
  for (const secret of known)
    if (secret) secrets.set(typeof secret === 'string' ? secret : secret.value, typeof secret === 'string' ? { value: secret } : secret);
  for (const secret of learned.values())
    if (!secrets.has(secret.value) && (secret.keepLast4 ? secret.value.length >= shortestSecret : maskedEverywhere(secret.value)))
      secrets.set(secret.value, secret);
  return [...secrets.values()];
}

// Query parameters and JSON keys whose value is a credential, whatever the value: gateways put keys in URLs.
const secretParams =
  'code|token|access_token|refresh_token|id_token|client_secret|secret|password|passwd|pwd|api-key|api_key|apikey|x-api-key|key|subscription-key|sig|signature|auth';
/**
 * The value of a parameter named by `names` (a regex alternation) in a form body or a URL, also
 * percent-encoded inside another URL (the host page's ?src=…auth%3Fcode%3D…). A mask already
 * percent-encoded (a HAR's URLs are URIs: reports/har.ts) is left as it is.
 */
const paramShape = (names: string) =>
  new RegExp(
    `((?:[?&;]|%3F|%26)(?:${names})(?:=|%3D))(?!${encodeURIComponent(mask)}(?:%26|[&#\\s"'<>\\\\]|$))[^&#\\s"'<>\\\\]+?(?=%26|[&#\\s"'<>\\\\]|$)`,
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
  [/(\\*"(?:access_token|refresh_token|refreshToken|id_token|client_secret|password|api-key|apiKey|token|secret)\\*"\s*:\s*\\*")[^"\\]+/gi, `$1${mask}`],
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
  // US tax ids in their usual dashed shapes (SSN or ITIN 123-45-6789, EIN 12-3456789), wherever they are.
  [/(?<![\d-])\d{3}-\d{2}-(\d{4})(?![\d-])/g, '***-**-$1'],
  [/(?<![\d-])\d{2}-\d{3}(\d{4})(?![\d-])/g, '**-***$1'],
];

// A query parameter's name and ordinary text are no secrets to find (each keeps its place, so owners stay indices of the array).
const matchable = (secret: Secret) =>
  secret.queryName || secret.ordinary
    ? { value: '' }
    : { value: secret.value, forms: [...(secret.forms ?? []), ...(secret.keepLast4 ? [] : base64Forms(secret.value))] };
const ordinaryOf = (secrets: readonly Secret[]) => secrets.filter((secret) => secret.ordinary).map((secret) => secret.value);

// One matcher per secrets array: the vault hands out the same array while nothing changed, and when a
// scope (one partner's secrets: shared/redaction/vault.ts) learns more, a new array that starts with its
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
export function redactData(value: unknown, secrets: readonly Secret[]): unknown {
  const walk = (node: unknown, key = ''): unknown => {
    if (typeof node === 'string') {
      if (node === '' || node === mask) return node;
      if (secretKeys.has(key.toLowerCase())) return mask;
      if (last4Keys.has(key.toLowerCase())) return maskKeepingLast4(node);
      return redact(node, secrets);
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
    if (/^\d{4}-\d{2}-\d{2}$/.test(run)) return `${run.slice(0, 4)}-••-••`;
    const digits = run.replace(/\D/g, '');
    const masked = maskKeepingLast4(digits);
    const before = text
      .slice(Math.max(0, at - 8), at)
      .trimEnd()
      .at(-1);
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

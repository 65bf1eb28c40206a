import { sensitiveKeys } from '../checks/sensitive-fields';
import { jsonResponse, parseJson, type Exchange, type JsonBody, type ResponseRecord } from '../checks/evidence';
import type { Profile } from '../profile/profile-schema';
import { looseFields } from './loose-fields';
import { calendarDates, dateForms } from './personal-data';
import { base64Forms } from './secret-matcher';

/** A value redaction masks wherever it shows up (redact.ts), as a profile holds it or an exchange carried it. */
export interface Secret {
  value: string;
  /** Bank account numbers and tax ids keep their last 4 characters, so a partner can tell them apart. */
  keepLast4?: boolean;
  /**
   * A user's date of birth (`YYYY-MM-DD`, learned from a `dateOfBirth` field): masked wherever it shows up, in
   * any artifact, to its year (`1961-••-••`), also in the forms of `forms` (`19610723`, `07/23/1961`…).
   */
  keepYear?: true;
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

export const secretKeys = new Set([
  'access_token',
  'accesstoken',
  'refresh_token',
  'refreshtoken',
  'id_token',
  'idtoken',
  'client_secret',
  'clientsecret',
  'password',
  'token',
  'api-key',
  'apikey',
]);
// In what the harness sends, "code" is an authorization code; in an answer it is an error code (MISSING_FILTER),
// except in a redirect's Location (RFC 6749 §4.1.2) and in the answers of a mint hook, which the harness asked for a code.
const sentSecretKeys = new Set([...secretKeys, 'code']);
const mintedCodeKeys = new Set(['code', 'authorization_code', 'authorizationcode']);
// The fields the spec's tables mark sensitive (company.taxInfo.identifier, bankAccountNumber), by their last segment.
export const last4Keys = new Set(sensitiveKeys.map((key) => key.toLowerCase()));

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

/** The secret a field holds, by its name (`keys`, the last segment of a dotted one for a date of birth), if any. */
function learnField(key: string, value: string, keys: ReadonlySet<string>, into: Map<string, Secret>): void {
  const lower = key.toLowerCase();
  if (keys.has(lower)) into.set(value, { value });
  else if (last4Keys.has(lower)) into.set(value, { value, keepLast4: true, forms: numberForms(value) });
  // A date of birth in any form a partner sends it (`07/23/1961`): the date it is, masked in all its forms, the one sent among them.
  else if (/(?:^|\.)dateofbirth$/.test(lower))
    for (const date of calendarDates(value)) into.set(date, { value: date, keepYear: true, forms: [...dateForms(date), ...(value === date ? [] : [value])] });
}

const maybeFields = /["'=]/;

/**
 * The secrets a body holds under their names: every field of a JSON body, and of a body that does not parse as a
 * whole (JSON with text after it, cut short, inside HTML, a form: loose-fields.ts); also in a JSON string that
 * holds fields itself (`"error": "upstream said {\"access_token\": …}"`).
 */
function secretsInBody(
  body: string | undefined,
  keys: ReadonlySet<string>,
  into: Map<string, Secret>,
  json: JsonBody = body ? parseJson(body) : { ok: false, error: 'empty' },
) {
  if (!body) return;
  const wanted = (name: string) => {
    const lower = name.toLowerCase();
    return keys.has(lower) || last4Keys.has(lower) || lower.endsWith('dateofbirth');
  };
  const loose = (text: string) => looseFields(text, wanted, (key, value) => learnField(key, value, keys, into));
  const visit = (value: unknown, key = ''): void => {
    if (typeof value === 'string' || typeof value === 'number') {
      learnField(key, String(value), keys, into);
      if (typeof value === 'string' && maybeFields.test(value)) loose(value);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, Array.isArray(value) ? key : k);
    }
  };
  if (json.ok) return visit(json.value);
  for (const [key, value] of new URLSearchParams(body)) learnField(key, value, keys, into);
  loose(body);
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

/** The values of a Set-Cookie header (one cookie a line, as client/http.ts joins them): a session is a credential. */
const cookieValues = (header: string | undefined): string[] =>
  (header ?? '')
    .split('\n')
    .map((line) => line.split(';')[0]!)
    .filter((pair) => pair.includes('='))
    .map((pair) =>
      pair
        .slice(pair.indexOf('=') + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );

/** The values of a URL's query and fragment parameters named by `keys` (an OAuth redirect carries its code or token in either). */
function paramsOf(url: string | undefined, keys: ReadonlySet<string>): string[] {
  if (!url) return [];
  const values: string[] = [];
  looseFields(
    url,
    (name) => keys.has(name.toLowerCase()),
    (_, value) => values.push(value),
  );
  return values;
}

/**
 * Every code a mint hook's answer carries, whatever its status (a 500 that quotes the code it minted, a redirect
 * with `code=` in its Location): under "code" (or "authorization_code") at any depth of a JSON body, in a body that
 * does not parse (loose-fields.ts), and in the Location's query or fragment. The harness asked this answer for a
 * code, so its "code" is one, not an error code. A number is a code too.
 */
export function mintedCodesIn(response: ResponseRecord): string[] {
  const codes = new Set<string>();
  const wanted = (name: string) => mintedCodeKeys.has(name.toLowerCase());
  const loose = (text: string) => looseFields(text, wanted, (_, value) => codes.add(value));
  const visit = (value: unknown, key = ''): void => {
    if ((typeof value === 'string' || typeof value === 'number') && wanted(key)) codes.add(String(value));
    if (typeof value === 'string' && maybeFields.test(value)) loose(value);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, Array.isArray(value) ? key : k);
  };
  const { json } = jsonResponse(response);
  if (json.ok) visit(json.value);
  else loose(response.body);
  for (const value of paramsOf(response.headers.location, mintedCodeKeys)) codes.add(value);
  codes.delete('');
  return [...codes];
}

/**
 * The secrets an exchange carried (credentials, codes, tokens, the cookies an answer sets, the code or token of a
 * redirect's Location, bank account numbers, tax ids, dates of birth) plus `known`.
 */
export function secretsOf(exchanges: readonly Exchange[], known: readonly (Secret | string | undefined)[] = []): Secret[] {
  const learned = new Map<string, Secret>();
  for (const { request, response } of exchanges) {
    const credentials = /^(?:bearer|basic)\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (credentials) learned.set(credentials, { value: credentials });
    if (request.headers['api-key']) learned.set(request.headers['api-key'], { value: request.headers['api-key'] });
    for (const [key, value] of new URL(request.url, 'http://invalid').searchParams) if (sentSecretKeys.has(key.toLowerCase())) learned.set(value, { value });
    secretsInBody(request.body, sentSecretKeys, learned);
    if (!response) continue;
    secretsInBody(response.body, secretKeys, learned, jsonResponse(response).json);
    for (const value of cookieValues(response.headers['set-cookie'])) learned.set(value, { value });
    for (const value of paramsOf(response.headers.location, sentSecretKeys)) learned.set(value, { value });
  }
  const secrets = new Map<string, Secret>();
  for (const secret of known)
    if (secret) secrets.set(typeof secret === 'string' ? secret : secret.value, typeof secret === 'string' ? { value: secret } : secret);
  for (const secret of learned.values())
    if (!secrets.has(secret.value) && (secret.keepLast4 ? secret.value.length >= shortestSecret : maskedEverywhere(secret.value)))
      secrets.set(secret.value, secret);
  return [...secrets.values()];
}

/**
 * The forms a tax id or an account number is also written in, each masked to its last 4 digits: its digits alone,
 * and a 9-digit id (SSN, ITIN, EIN) grouped as each is (3-2-4, 2-7) with any separator a person writes.
 */
export function numberForms(value: string): string[] {
  const digits = value.replace(/\D/g, '');
  if (digits.length < 6) return [];
  const grouped =
    digits.length === 9
      ? ['-', '.', ' ', '/', '', '\u2011', '\u2013'].flatMap((sep) => [
          `${digits.slice(0, 3)}${sep}${digits.slice(3, 5)}${sep}${digits.slice(5)}`,
          `${digits.slice(0, 2)}${sep}${digits.slice(2)}`,
        ])
      : [];
  return [...new Set([digits, ...grouped])].filter((form) => form !== value);
}

import type { ClauseId } from './clauses';
import { bodyPreview, isObject, jsonType, mediaType, type JsonResponse } from './evidence';
import type { Rule } from './finding';

interface Endpoint {
  /** Rule id prefix: `token-exchange`, `account-info`. */
  id: string;
  /** The answer, as a phrase: `a successful token exchange`. */
  answer: string;
  /** An example of the expected body, for messages: `{"access_token": "…"}`. */
  example: string;
  clause: ClauseId;
  impact: string;
}

/** What a status names, for messages: a 5xx is a server error, with or without Retry-After. */
export function statusDescription({ status, headers }: JsonResponse): string {
  if (status < 500 || status > 599) return String(status);
  const retryAfter = headers['retry-after'];
  return `${status}, a server error ${retryAfter === undefined ? 'without Retry-After' : `with "Retry-After: ${retryAfter}"`} (the platform does not retry during sign-on)`;
}

/** What a body that is not JSON looks like, for messages: an HTML page and a cut-off body are named. */
function notJson(body: string, error: string): string {
  if (/^\s*</.test(body)) return `the body is an HTML page, not JSON; it starts ${bodyPreview(body)}`;
  if (/end of JSON input|Unterminated string|Expected .* after/i.test(error) && /^\s*[{[]/.test(body)) {
    return `the body is JSON cut off after ${body.length} characters (${error}); it ends ${bodyPreview(body.slice(-40))}`;
  }
  return `the body is not JSON (${error}), it starts ${bodyPreview(body)}`;
}

/** The rules every JSON-answering endpoint shares: status 200, application/json, a JSON object in UTF-8 with sound keys. */
export function jsonResponseRules({ id, answer, example, clause, impact }: Endpoint) {
  const status: Rule<JsonResponse> = {
    id: `${id}/status`,
    owner: 'partner',
    field: 'status',
    clause,
    level: 'MUST',
    requirement: `${answer} has status 200`,
    impact: `${impact}: the platform accepts only 200`,
    must: { signOn: 'the platform accepts only 200', spec: 'spec §4.2 and §7.3: "HTTP 200"' },
    check: (r) =>
      r.status === 200
        ? []
        : r.status === 404
          ? [
              {
                code: 'not-found',
                params: { status: 404 },
                message: `"status" is 404 (${bodyPreview(r.body)}): nothing is served at this URL; check the path in the profile, then answer ${answer} with 200`,
              },
            ]
          : [{ code: 'status', params: { status: r.status }, message: `"status" is ${statusDescription(r)}; answer ${answer} with 200` }],
  };
  const contentType: Rule<JsonResponse> = {
    id: `${id}/content-type`,
    owner: 'partner',
    field: 'content-type',
    clause,
    level: 'MUST',
    requirement: `${answer} is served as application/json`,
    impact: `${impact}: the platform reads only application/json`,
    must: { signOn: 'the platform reads only application/json', spec: 'spec §4.2: "application/json"' },
    check: (r) =>
      mediaType(r.headers) === 'application/json'
        ? []
        : [
            {
              code: 'content-type',
              params: { contentType: r.headers['content-type'] ?? '(missing)' },
              message: `"content-type" is ${JSON.stringify(r.headers['content-type'] ?? '(missing)')}; send "application/json"`,
            },
          ],
  };
  const bodyJson: Rule<JsonResponse> = {
    id: `${id}/body-json`,
    owner: 'partner',
    field: 'body',
    clause,
    level: 'MUST',
    requirement: `the body of ${answer} is a JSON object`,
    impact: `${impact}: the platform cannot read the body`,
    must: { signOn: 'a body that is not a JSON object cannot be read', spec: 'spec §4.2: a JSON object' },
    check: (r) => {
      if (!r.json.ok) return [{ code: 'not-json', message: `${notJson(r.body, r.json.error)}; send a JSON object such as ${example}` }];
      return isObject(r.json.value)
        ? []
        : [
            {
              code: 'not-an-object',
              params: { actual: jsonType(r.json.value) },
              message: `the body is ${jsonType(r.json.value)}; send a JSON object such as ${example}`,
            },
          ];
    },
  };
  const utf8: Rule<JsonResponse> = {
    id: `${id}/utf-8`,
    owner: 'partner',
    field: 'body',
    clause: 'RFC8259 §8.1',
    level: 'MUST',
    requirement: `the body of ${answer} is UTF-8, without a byte order mark`,
    impact: `${impact}: a strict JSON parser refuses the body, a lenient one garbles names`,
    must: { signOn: 'a byte order mark or another encoding makes a strict parser refuse the body, and garbles the names of users who have accents' },
    check: (r) => (r.encodingProblem ? [{ code: 'encoding', message: `the body ${r.encodingProblem}; send UTF-8 without a byte order mark` }] : []),
  };
  const uniqueKeys: Rule<JsonResponse> = {
    id: `${id}/unique-keys`,
    owner: 'partner',
    field: 'body',
    clause: 'RFC8259 §4',
    level: 'SHOULD',
    requirement: `no key appears twice in one object of ${answer}`,
    levelWhy: 'RFC 8259 §4: the names within an object "SHOULD be unique"; a repeated key with one value breaks nothing',
    impact: `${impact}: parsers disagree on which of two equal keys counts, so the platform may read another value than the one checked`,
    check: (r) =>
      r.keys.duplicates.map((path) => ({
        code: 'duplicate-key',
        field: path,
        message: `"${path}" appears twice in its object; JSON.parse would silently keep the last one, so send each key once (RFC 8259 §4: names "SHOULD be unique")`,
      })),
  };
  const noProtoKeys: Rule<JsonResponse> = {
    id: `${id}/no-proto-keys`,
    owner: 'partner',
    field: 'body',
    clause: 'harness §json-keys',
    level: 'SHOULD',
    requirement: `no key of ${answer} is named "__proto__"`,
    levelWhy: 'no sign-on fails for it and no one else gets in through it by itself: it arms a bug in whatever merges the body into an object',
    impact: 'a "__proto__" key merged into an object by a JavaScript client changes the prototype of every object (prototype pollution)',
    check: (r) =>
      r.keys.proto.map((path) => ({
        code: 'proto-key',
        field: path,
        message: `"${path}" is a "__proto__" key; remove it: merged into an object it pollutes every object's prototype`,
      })),
  };
  return { status, contentType, bodyJson, utf8, uniqueKeys, noProtoKeys };
}

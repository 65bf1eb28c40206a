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

/** The three rules every JSON-answering endpoint shares: status 200, application/json, a JSON object. */
export function jsonResponseRules({ id, answer, example, clause, impact }: Endpoint) {
  const status: Rule<JsonResponse> = {
    id: `${id}/status`,
    field: 'status',
    clause,
    level: 'MUST',
    requirement: `${answer} has status 200`,
    impact: `${impact}: the platform accepts only 200`,
    check: (r) => (r.status === 200 ? [] : [{ message: `"status" is ${r.status}; answer ${answer} with 200` }]),
  };
  const contentType: Rule<JsonResponse> = {
    id: `${id}/content-type`,
    field: 'content-type',
    clause,
    level: 'MUST',
    requirement: `${answer} is served as application/json`,
    impact: `${impact}: the platform reads only application/json`,
    check: (r) =>
      mediaType(r.headers) === 'application/json'
        ? []
        : [{ message: `"content-type" is ${JSON.stringify(r.headers['content-type'] ?? '(missing)')}; send "application/json"` }],
  };
  const bodyJson: Rule<JsonResponse> = {
    id: `${id}/body-json`,
    field: 'body',
    clause,
    level: 'MUST',
    requirement: `the body of ${answer} is a JSON object`,
    impact: `${impact}: the platform cannot read the body`,
    check: (r) => {
      if (!r.json.ok) return [{ message: `the body is not JSON (${r.json.error}), it starts ${bodyPreview(r.body)}; send a JSON object such as ${example}` }];
      return isObject(r.json.value) ? [] : [{ message: `the body is ${jsonType(r.json.value)}; send a JSON object such as ${example}` }];
    },
  };
  return { status, contentType, bodyJson };
}

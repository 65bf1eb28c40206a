import { valueAt } from './paths';
import { isObject, jsonObject, type JsonResponse } from './evidence';
import { fundingSourceIds } from './funding-sources';
import { blocked, evaluate, evaluateAll, listed, type Finding, type Issue, type Rule } from './finding';
import type { Endpoint, Payload, PayloadContext, PayloadRule } from './payload';
import { jsonResponseRules } from './response';
import { transportRules } from './transport';

/**
 * Rules for the two Bearer-protected partner endpoints (spec §4.2): the response around the payload,
 * refusals without a valid token, nulls, and what two calls with the same token must agree on.
 */

interface Resource {
  id: Endpoint;
  urlField: 'accountInfoUrl' | 'fundingSourcesUrl';
  answer: string;
  example: string;
  impact: string;
}

const accountInfo: Resource = {
  id: 'account-info',
  urlField: 'accountInfoUrl',
  answer: 'an account-information request',
  example: '{"user": {…}, "company": {…}}',
  impact: 'sign-on fails for every user',
};
const fundingSources: Resource = {
  id: 'funding-sources',
  urlField: 'fundingSourcesUrl',
  answer: 'a funding-sources request',
  example: '{"fundingSources": […]}',
  impact: 'no funding source reaches the platform, so users must add their bank accounts by hand',
};

/** The paths of every null in a payload (a hot path: strings are built only where the walk goes). */
function nullPaths(value: unknown, path: string, out: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const child: unknown = value[index];
      if (child === null) out.push(`${path}[${index}]`);
      else if (typeof child === 'object') nullPaths(child, `${path}[${index}]`, out);
    }
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      const child = value[key];
      if (child === null) out.push(path ? `${path}.${key}` : key);
      else if (typeof child === 'object') nullPaths(child, path ? `${path}.${key}` : key, out);
    }
  }
  return out;
}

/** A request the endpoint did not answer with its resource: anything but a 2xx. */
export const isRefusal = (status: number) => status < 200 || status > 299;

function rulesOf(resource: Resource) {
  const { id, urlField } = resource;
  // The refusal is what keeps others out; its status, 401, is RFC 6750 hygiene (refusal-status).
  const refuses = (name: string, what: string): Rule<JsonResponse> => ({
    id: `${id}/${name}`,
    owner: 'partner',
    field: urlField,
    clause: 'RFC6750 §3',
    level: 'MUST',
    requirement: `${what} is refused: it gets no 2xx answer`,
    impact: "anyone can read a user's account data without a valid access token",
    must: { othersIn: "anyone without a valid token reads the user's data" },
    check: ({ status }) =>
      isRefusal(status)
        ? []
        : [
            {
              code: 'status',
              params: { status },
              message: `"${urlField}" answered ${status} to ${what}; refuse it, with 401 and "WWW-Authenticate: Bearer" (RFC 6750 §3)`,
            },
          ],
  });
  return {
    transport: transportRules(id, urlField, 'partner'),
    ...jsonResponseRules({ id, answer: resource.answer, example: resource.example, clause: 'spec §4.2', impact: resource.impact }),
    missingToken: refuses('missing-token', 'a request without "Authorization"'),
    invalidToken: refuses('invalid-token', 'a request with an unknown Bearer token'),
    refusalStatus: {
      id: `${id}/refusal-status`,
      owner: 'partner',
      field: 'status',
      clause: 'RFC6750 §3',
      level: 'SHOULD',
      requirement: 'a request without a valid token is refused with 401',
      levelWhy: 'the platform always sends a valid token, and any refusal keeps others out: the status is RFC 6750 hygiene',
      impact: 'clients cannot tell a missing or expired token from a request they may never make',
      check: ({ status }) =>
        status === 401
          ? []
          : [
              {
                code: 'status',
                params: { status },
                message: `a request without a valid Bearer token was refused with ${status}; answer 401 (RFC 6750 §3.1: "The resource server SHOULD respond with the HTTP 401 (Unauthorized) status code")`,
              },
            ],
    } satisfies Rule<JsonResponse>,
    wwwAuthenticate: {
      id: `${id}/www-authenticate`,
      owner: 'partner',
      field: 'WWW-Authenticate',
      clause: 'RFC6750 §3',
      level: 'SHOULD',
      requirement: 'a 401 carries "WWW-Authenticate: Bearer"',
      impact: 'clients cannot tell that a Bearer token is expected, or why it was refused',
      check: ({ status, headers }) => {
        if (status !== 401) return [];
        const value = headers['www-authenticate'];
        return /^bearer\b/i.test(value ?? '')
          ? []
          : [
              {
                code: 'challenge',
                params: { challenge: value ?? '(missing)' },
                message: `"WWW-Authenticate" is ${value === undefined ? 'missing' : JSON.stringify(value)} on a 401; send "WWW-Authenticate: Bearer"`,
              },
            ];
      },
    } satisfies Rule<JsonResponse>,
    nullValues: {
      id: `${id}/null-values`,
      owner: 'partner',
      field: 'body',
      clause: 'harness §null',
      level: 'SHOULD',
      requirement: 'no field is sent as null',
      impact: 'a null counts as missing; the user is asked for the value as if it were left out',
      check: (payload) =>
        nullPaths(payload, '').map((path): Issue => ({ code: 'null', field: path, message: `"${path}" is null; leave the field out instead of sending null` })),
    } satisfies Rule<Payload>,
  };
}

export const accountInfoResource = rulesOf(accountInfo);
export const fundingSourcesResource = rulesOf(fundingSources);

/** Two answers to the same token, each already judged on its own. */
export interface TwoCalls {
  first: Payload;
  second: Payload;
}

export const accountInfoConsistent: Rule<TwoCalls> = {
  id: 'account-info/consistent-ids',
  owner: 'partner',
  field: 'user.id',
  clause: 'spec §2.3',
  level: 'MUST',
  requirement: 'two calls with the same token name the same "user.id" and "company.id"',
  impact: 'the platform links the sign-on to another user or company, or creates duplicates',
  must: { signOn: 'the user is signed on as another user, or duplicated', spec: 'spec §2.3: the ids "must uniquely identify" the user and the company' },
  check: ({ first, second }) =>
    ['user.id', 'company.id'].flatMap((path): Issue[] => {
      const [a, b] = [valueAt(first, path), valueAt(second, path)];
      return JSON.stringify(a) === JSON.stringify(b)
        ? []
        : [
            {
              code: 'changed',
              field: path,
              message: `"${path}" was ${JSON.stringify(a)}, then ${JSON.stringify(b)} for the same token; send the id that permanently names it`,
            },
          ];
    }),
};

const idsOf = (payload: Payload) => fundingSourceIds(payload).map((id) => JSON.stringify(id ?? null));

export const fundingSourceIdsStable: Rule<TwoCalls> = {
  id: 'funding-sources/id/stable',
  owner: 'partner',
  field: 'fundingSources[].id',
  clause: 'spec §4.2 sync',
  level: 'MUST',
  requirement: 'two calls with the same token list the same funding-source ids',
  impact: "the platform removes and re-adds the user's funding sources at every sign-on",
  must: { signOn: "every sign-on removes and re-adds the user's funding sources", spec: 'spec §4.2: a source whose id is no longer listed is removed' },
  check: ({ first, second }) => {
    const [a, b] = [idsOf(first), idsOf(second)];
    const [inA, inB] = [new Set(a), new Set(b)];
    const gone = a.filter((id) => !inB.has(id));
    const added = b.filter((id) => !inA.has(id));
    if (gone.length === 0 && added.length === 0) return [];
    return [
      {
        code: 'changed',
        params: { dropped: gone.length, added: added.length },
        message: `the second call dropped ${listed(gone) || 'nothing'} and added ${listed(added) || 'nothing'}; keep each source's "id" stable`,
      },
    ];
  },
};

type ResourceRules = ReturnType<typeof rulesOf>;

/** The body as JSON: an object, in UTF-8, with each key once and none named "__proto__". */
export const bodyRules = (resource: ResourceRules) => [resource.bodyJson, resource.utf8, resource.uniqueKeys, resource.noProtoKeys];

/**
 * Judges one answer to a request with a valid token: the response first, then, when the body is a JSON
 * object from a 2xx answer, every field rule on it. `payload` is that object, for the cross-call rules.
 */
export function checkPayload(
  resource: ResourceRules,
  fieldRules: readonly PayloadRule[],
  response: JsonResponse,
  ctx: PayloadContext,
): { findings: Finding[]; payload?: Payload } {
  const shape = evaluateAll([resource.status, resource.contentType], response, undefined);
  const payloadRules = [resource.nullValues, ...fieldRules];
  if (response.status < 200 || response.status > 299) {
    return {
      findings: [
        ...shape,
        ...blocked([...bodyRules(resource), ...payloadRules], { rule: resource.status.id, reason: `the request was answered ${response.status}` }),
      ],
    };
  }
  const body = evaluateAll(bodyRules(resource), response, undefined);
  const payload = jsonObject(response);
  if (!payload) return { findings: [...shape, ...body, ...blocked(payloadRules, { rule: resource.bodyJson.id, reason: 'the body is not a JSON object' })] };
  return { findings: [...shape, ...body, ...evaluate(resource.nullValues, payload, undefined), ...evaluateAll(fieldRules, payload, ctx)], payload };
}

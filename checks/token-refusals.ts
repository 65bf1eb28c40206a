import type { ClauseId } from './clauses';
import { type Exchange, type JsonResponse, type RequestRecord } from './evidence';
import { blocked, evaluate, failed, type Finding, type Level, type MustGrounds, type Rule } from './finding';
import { bounded, describeJsonResponse, errorCode, grantsToken, tokenVerdict } from './token-exchange';

// ---- negative cases (RFC 6749) ------------------------------------------------------------------

interface Situation {
  id: string;
  /** The request, as a phrase: `an unknown "code"`. */
  what: string;
  level: Level;
  clause: ClauseId;
  impact: string;
  levelWhy?: string;
  must?: MustGrounds;
}

function rejects({ id, what, level, clause, impact, must }: Situation): Rule<JsonResponse> {
  return {
    id,
    owner: 'partner',
    field: 'code',
    clause,
    level,
    ...(must ? { must } : {}),
    requirement: `${what} is refused, without a token`,
    impact,
    check: (r) =>
      grantsToken(r) ? [{ code: 'not-refused', params: { status: r.status }, message: `${what} was answered ${describeJsonResponse(r)}; refuse it` }] : [],
  };
}

/** The error RFC 6749 §5.2 prescribes for a situation: any of `errors`, with any of `statuses`. */
function answersError({ id, what, level, clause, impact, levelWhy }: Situation, statuses: readonly number[], errors: readonly string[]): Rule<JsonResponse> {
  const alternatives = (items: readonly (string | number)[]) => items.map((item) => (typeof item === 'string' ? `"${item}"` : String(item))).join(' or ');
  const expected = `${alternatives(statuses)} with {"error": ${alternatives(errors)}}`;
  return {
    id,
    owner: 'partner',
    field: 'error',
    clause,
    level,
    ...(levelWhy ? { levelWhy } : {}),
    requirement: `${what} is answered ${expected}`,
    impact,
    check: (r) => {
      const code = errorCode(r);
      return statuses.includes(r.status) && code !== undefined && errors.includes(code)
        ? []
        : [
            {
              code: 'wrong-error',
              params: { status: r.status, error: bounded(code) ?? '(none)' },
              message: `${what} was answered ${describeJsonResponse(r)}; answer ${expected}`,
            },
          ];
    },
  };
}

/**
 * A request the endpoint must refuse: `refuse` judges that no token came, `error` the RFC 6749 §5.2
 * error that says why. Ids: `token-exchange/<name>-rejected` and `token-exchange/<name>-<error>`.
 */
function negativeCase({
  name,
  what,
  refuse,
  error,
}: {
  name: string;
  what: string;
  refuse: Omit<Situation, 'id' | 'what'>;
  error: Omit<Situation, 'id' | 'what'> & { statuses: readonly number[]; errors: readonly string[] };
}) {
  const { statuses, errors, ...format } = error;
  return {
    rejected: rejects({ id: `token-exchange/${name}-rejected`, what, ...refuse }),
    error: answersError({ id: `token-exchange/${name}-${errors[0]!.replace(/_/g, '-')}`, what, ...format }, statuses, errors),
  };
}

export const { rejected: unknownCodeRejected, error: unknownCodeInvalidGrant } = negativeCase({
  name: 'unknown-code',
  what: 'an unknown "code"',
  refuse: { level: 'MUST', clause: 'RFC6749 §4.1.3', impact: 'anyone can sign in with a made-up code', must: { othersIn: 'a made-up code gets a token' } },
  error: {
    level: 'SHOULD',
    clause: 'RFC6749 §5.2',
    levelWhy: 'the platform fails alike on any refusal; RFC 6749 §5.2 names "invalid_grant" for a code that is not valid',
    impact: 'the platform cannot tell a bad code from an outage',
    statuses: [400],
    errors: ['invalid_grant'],
  },
});

export const { rejected: codeReuseRejected, error: codeReuseInvalidGrant } = negativeCase({
  name: 'code-reuse',
  what: 'a "code" used a second time',
  refuse: {
    level: 'MUST',
    clause: 'RFC6749 §4.1.2',
    impact: 'a leaked or replayed code signs an attacker in as the user',
    must: { othersIn: 'a replayed code signs an attacker in as the user' },
  },
  error: {
    level: 'SHOULD',
    clause: 'RFC6749 §5.2',
    impact: 'the platform cannot tell a replayed code from an outage',
    statuses: [400],
    errors: ['invalid_grant'],
  },
});

// RFC 6749 §5.2: invalid_client is a 400, or a 401; the 401 is required only when the client authenticated
// with the Authorization header, and the platform sends its credentials in the body.
export const { rejected: wrongSecretRejected, error: wrongSecretInvalidClient } = negativeCase({
  name: 'wrong-secret',
  what: 'a wrong "client_secret"',
  refuse: {
    level: 'MUST',
    clause: 'RFC6749 §2.3.1',
    impact: 'anyone who learns a code can exchange it without the client secret',
    must: { othersIn: 'a code is exchanged without the client secret' },
  },
  error: {
    level: 'SHOULD',
    clause: 'RFC6749 §5.2',
    impact: 'the platform cannot tell a credential problem from an outage',
    statuses: [400, 401],
    errors: ['invalid_client'],
  },
});

export const codeReuseRevokesToken: Rule<Exchange> = {
  id: 'token-exchange/code-reuse-revokes-token',
  owner: 'partner',
  field: 'access_token',
  clause: 'RFC6749 §4.1.2',
  level: 'SHOULD',
  requirement: 'after a code is reused, the token first issued for it no longer works',
  impact: 'whoever replayed a code keeps the token that the first exchange issued',
  check: (exchange) => {
    const verdict = tokenVerdict(exchange);
    // Not judged, and not "not applicable": the rule applies, and the answer that would judge it is another rule's failure.
    if (typeof verdict === 'object') return [{ code: 'not-checked', message: `not checked: ${verdict.unknown}`, outcome: 'not-checked' }];
    return verdict === 'accepted'
      ? [{ code: 'token-still-works', message: 'the access token issued for a "code" still works after that code was reused; revoke it' }]
      : [];
  },
};

/** A token-endpoint answer together with the HTTP authentication scheme the request used, if any. */
export interface Answered {
  response: JsonResponse;
  /** The scheme of the request's Authorization header (`Basic`); undefined when credentials went in the body. */
  scheme: string | undefined;
}

export const schemeOf = (request: { headers?: RequestRecord['headers'] }): string | undefined => {
  const header = Object.entries(request.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return header?.trim().split(/\s+/)[0];
};

export const unauthorizedNamesScheme: Rule<Answered> = {
  id: 'token-exchange/www-authenticate',
  owner: 'partner',
  field: 'WWW-Authenticate',
  clause: 'RFC6749 §5.2',
  level: 'SHOULD',
  requirement: 'a 401 from the token endpoint carries "WWW-Authenticate", naming the scheme the request used',
  impact: 'clients cannot tell which authentication scheme the endpoint expects',
  check: ({ response: { status, headers }, scheme }) => {
    if (status !== 401) return [];
    const challenge = headers['www-authenticate'];
    if (scheme !== undefined) {
      // RFC 6749 §5.2: a client that used the Authorization header MUST get a challenge for that scheme.
      if (challenge?.toLowerCase().startsWith(scheme.toLowerCase())) return [];
      return [
        {
          code: 'challenge',
          params: { scheme, challenge: challenge ?? '(missing)' },
          message: `"WWW-Authenticate" is ${challenge === undefined ? 'missing' : JSON.stringify(challenge)} on a 401 to a request that authenticated with "${scheme}"; send "WWW-Authenticate: ${scheme} realm=\\"…\\""`,
        },
      ];
    }
    if (challenge !== undefined) return [];
    // Credentials in the body: RFC 6749 §5.2 allows 400 here; a 401 needs a challenge (RFC 9110 §15.5.2).
    return [
      {
        code: 'challenge',
        params: { challenge: '(missing)' },
        message:
          '"WWW-Authenticate" is missing on a 401 (RFC 9110 §15.5.2 requires it on every 401); the platform sent its client credentials in the body, so answer 400 with "invalid_client" (RFC 6749 §5.2 allows it) or name the scheme you accept, e.g. "WWW-Authenticate: Basic realm=\\"token\\""',
      },
    ];
  },
};

export const missingGrantTypeRejected = answersError(
  {
    id: 'token-exchange/missing-grant-type',
    what: 'a request without "grant_type"',
    level: 'SHOULD',
    clause: 'RFC6749 §4.1.3',
    impact: 'requests the endpoint does not understand still spend codes',
  },
  [400],
  ['invalid_request'],
);
// RFC 6749 §5.2: unauthorized_client (the client may not use this grant) is as good as
// unsupported_grant_type (the server has no such grant) for a grant the platform's client never uses; and
// the request, sent without "username" and "password", lacks parameters that grant requires (§4.3.2), for
// which invalid_request is as correct an answer.
export const unsupportedGrantTypeRejected = answersError(
  {
    id: 'token-exchange/unsupported-grant-type',
    what: 'a request with "grant_type": "password"',
    level: 'SHOULD',
    clause: 'RFC6749 §5.2',
    impact: 'a code is accepted under a grant type the platform never uses',
  },
  [400],
  ['unsupported_grant_type', 'unauthorized_client', 'invalid_request'],
);

export const noTokenWithoutCredentials: Rule<{ grantType: string; response: JsonResponse }> = {
  id: 'token-exchange/no-token-without-credentials',
  owner: 'partner',
  field: 'grant_type',
  clause: 'RFC6749 §3.2.1',
  level: 'MUST',
  requirement: 'no grant other than authorization_code yields a token to a request without client credentials',
  must: { othersIn: 'anyone who reaches the endpoint gets a token, without a code or a secret' },
  impact: 'anyone who can reach the token endpoint gets an access token, without a code or a secret',
  check: ({ grantType, response }) =>
    grantsToken(response)
      ? [
          {
            code: 'token-without-credentials',
            params: { grantType, status: response.status },
            message: `a request with "grant_type": ${JSON.stringify(grantType)} and no client credentials was answered ${describeJsonResponse(response)}; refuse it (400 "unsupported_grant_type", or 401 "invalid_client"): such a token is free for anyone`,
          },
        ]
      : [],
};

/** A refusal rule gates its error-format rule: once a bad request got a token, its error code is moot. */
export function checkRefusal(refusal: Rule<JsonResponse>, format: Rule<JsonResponse>, answered: Answered): Finding[] {
  const refused = evaluate(refusal, answered.response, undefined);
  const rest =
    failed(refused).length > 0
      ? blocked([format], { rule: refusal.id, reason: 'the request was not refused' })
      : evaluate(format, answered.response, undefined);
  return [...refused, ...rest, ...evaluate(unauthorizedNamesScheme, answered, undefined)];
}

import { decodeJwt } from 'jose/jwt/decode';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { isObject, jsonObject, type JsonResponse } from './evidence';
import type { Issue, Rule } from './finding';
import { transportRules } from './transport';
import { landingCookies, landingFrameAncestors, landingReferrerPolicy, tamperedLinkRules } from './mock-link-landing';

/**
 * Rules of the platform's sandbox mock link (spec §4.3, §5.4; DESIGN §5 "Mock-link JWT"). They judge
 * the platform, not the partner: a partner engineer reads them to trust the SSO results built on it.
 */

export const maxLinkLifetimeSeconds = 600;
/** What a mock link's JWT is on a platform: its signing algorithms, the claim with the account information, and its longest life. */
export interface MockLinkShape {
  algorithms: readonly string[];
  claim: string;
  maxLifetimeSeconds: number;
}
/** The bundled emulator's: the spec says only "JWT-encoded account information". */
export const emulatorMockLink: MockLinkShape = { algorithms: ['HS256'], claim: 'accountInfo', maxLifetimeSeconds: maxLinkLifetimeSeconds };
/** A link as issued, and the shape this platform's links have (the emulator's unless the profile says). */
/** `signature`: where the profile names the platform's published keys, whether the link verified with them, or why not. */
type Shaped = IssuedLink & { shape?: MockLinkShape; signature?: { verified: true } | { problem: string } };
/** A complete answer, without a redirect, from the mock-link endpoint under "platform.url". */
export const mockLinkTransportRules = transportRules('mock-link', 'platform.url', 'platform');
const impact = 'the mock-link sign-on the browser suites build on cannot be trusted';

/** The link a successful call answered and the JWT in it, decoded without verification (the harness has no key). */
export interface IssuedLink {
  link?: string;
  token?: string;
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
}

export function issuedLink(response: JsonResponse): IssuedLink {
  const link = jsonObject(response)?.link;
  if (typeof link !== 'string' || !URL.canParse(link)) return {};
  const token = new URL(link).searchParams.get('token') ?? undefined;
  if (!token) return { link };
  try {
    return { link, token, header: decodeProtectedHeader(token), claims: decodeJwt(token) };
  } catch {
    return { link, token };
  }
}

export const linkCreated: Rule<JsonResponse> = {
  id: 'mock-link/create/accepted',
  owner: 'platform',
  field: 'link',
  clause: 'spec §4.3',
  level: 'MUST',
  requirement: 'a valid mock-link request is answered with a success (2xx) and a JSON "link" that carries the JWT in its "token" parameter',
  impact,
  must: { spec: 'spec §4.3: the response is a JSON object with "link", carrying the JWT in "token"', signOn: 'without a link there is no mock-link sign-on' },
  check: (response) => {
    // The spec gives the body, not the status (spec §4.3): any success that carries the link is one.
    if (response.status < 200 || response.status > 299)
      return [
        {
          code: 'status',
          message: `a valid request was answered ${response.status} (${response.body.slice(0, 120)}); answer with a success (200 or 201) and {"link": …}`,
        },
      ];
    const { link, token } = issuedLink(response);
    if (!link) return [{ code: 'no-link', message: '"link" is not an absolute URL string; answer {"link": "https://…?token=<JWT>"}' }];
    if (!token) return [{ code: 'no-token', message: `"link" has no "token" query parameter; put the JWT there` }];
    return [];
  },
};

export const linkAlgorithm: Rule<Shaped> = {
  id: 'mock-link/jwt/algorithm',
  owner: 'platform',
  field: 'token',
  clause: 'RFC8725 §3.1',
  level: 'MUST',
  requirement:
    'the JWT is signed with the algorithm the platform pins (HS256 on the emulator), never "none", and verifies with the keys the platform publishes where the profile names them',
  impact,
  must: { othersIn: 'a link signed with no algorithm, or one the platform does not pin, can be forged' },
  emulatorChoice: { field: 'platform.mockLink.algorithms', what: 'the algorithm the link is signed with' },
  check: ({ header, shape = emulatorMockLink, signature }) => {
    if (typeof header?.alg !== 'string' || header.alg.toLowerCase() === 'none' || !shape.algorithms.includes(header.alg))
      return [{ code: 'alg', message: `the JWT's "alg" is ${JSON.stringify(header?.alg ?? '(no JWT)')}; sign with ${shape.algorithms.join(' or ')}` }];
    return signature && 'problem' in signature
      ? [
          {
            code: 'signature',
            message: `the JWT's signature does not verify with the keys at "platform.mockLink.jwksUrl": ${signature.problem}; sign links with a key that set publishes`,
          },
        ]
      : [];
  },
};

export const linkClaims: Rule<Shaped> = {
  id: 'mock-link/jwt/claims',
  owner: 'platform',
  field: 'token',
  clause: 'RFC7519 §4.1',
  level: 'MUST',
  requirement: `the JWT carries "iss", "aud", "iat", "jti" and an "exp" at most ${maxLinkLifetimeSeconds / 60} minutes after "iat" (the platform's own longest life, where the profile states one)`,
  impact,
  must: { othersIn: 'a link without these claims is good forever, for any audience, and again' },
  emulatorChoice: { field: 'platform.mockLink.maxLifetimeSeconds', what: 'the longest life of a link' },
  check: ({ claims, shape = emulatorMockLink }) => {
    if (!claims) return [{ code: 'no-jwt', message: 'the link carries no decodable JWT' }];
    const issues: Issue[] = [];
    for (const name of ['iss', 'jti'] as const)
      if (typeof claims[name] !== 'string') issues.push({ code: 'missing', field: name, message: `"${name}" is missing; add it` });
    if (typeof claims.aud !== 'string' && !Array.isArray(claims.aud))
      issues.push({ code: 'missing', field: 'aud', message: '"aud" is missing; name the partner\'s auth URL audience' });
    const { iat, exp } = claims;
    if (typeof iat !== 'number' || typeof exp !== 'number') issues.push({ code: 'type', field: 'exp', message: '"iat" and "exp" must both be numbers' });
    else if (exp <= iat || exp - iat > shape.maxLifetimeSeconds)
      issues.push({ code: 'lifetime', field: 'exp', message: `the JWT lives ${exp - iat} s; keep it within ${shape.maxLifetimeSeconds} s` });
    return issues;
  },
};

/** The same JSON value, whatever the order of its keys: a platform may serialise an object its own way. */
function sameJson(a: unknown, b: unknown): boolean {
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  return a === b;
}

export const linkCarriesAccountInfo: Rule<{ issued: IssuedLink; sent: Record<string, unknown>; shape?: MockLinkShape }> = {
  id: 'mock-link/jwt/account-info',
  owner: 'platform',
  field: 'accountInfo',
  clause: 'spec §4.3',
  level: 'MUST',
  requirement: 'the JWT carries the account information that was sent, user and company alike',
  impact: 'the embedded app shows another user or company than the partner sent',
  must: { spec: 'spec §4.3: the link carries the account information', signOn: 'the app signs on another user or company than the one sent' },
  emulatorChoice: { field: 'platform.mockLink.claim', what: 'the name of the claim that carries the account information' },
  check: ({ issued, sent, shape = emulatorMockLink }) => {
    const carried = issued.claims?.[shape.claim];
    if (!isObject(carried)) return [{ code: 'missing', message: `the JWT has no "${shape.claim}" claim` }];
    return (['user', 'company'] as const)
      .filter((part) => !sameJson(carried[part], sent[part]))
      .map((part) => ({ code: 'differs', field: `${shape.claim}.${part}`, message: `"${shape.claim}.${part}" in the JWT differs from the one sent` }));
  },
};

/** A request the endpoint must refuse, and what came back. */
export interface Refusal {
  /** What was wrong with the request: `without "api-key"`. */
  case: string;
  /** The field the error should name, if one is at fault. */
  field?: string;
  response: JsonResponse;
  /** The statuses this platform refuses it with, as the profile states (platform.mockLink.unauthorizedStatus, invalidStatus). */
  statuses?: readonly number[];
}

function refusedWith(id: string, status: 400 | 401, requirement: string, clause: 'spec §4.3' | 'spec §5.4'): Rule<readonly Refusal[]> {
  return {
    id,
    owner: 'platform',
    field: 'status',
    clause,
    level: 'MUST',
    requirement,
    impact:
      status === 401
        ? "anyone could mint sign-on links for the partner's users"
        : 'a broken mock-link request yields a link that fails later, far from its cause',
    must:
      status === 401
        ? { othersIn: "anyone could mint sign-on links for the partner's users", spec: 'spec §5.4: the mock link is authenticated by "api-key"' }
        : { spec: 'spec §4.3: the request fields and what they must equal' },
    // The refusal is the spec's; its status is not (spec §7.5: "Error responses of the mock-link endpoint: not shown").
    emulatorChoice: {
      field: status === 401 ? 'platform.mockLink.unauthorizedStatus' : 'platform.mockLink.invalidStatus',
      what: `the status ${status} of the refusal`,
    },
    check: (refusals) =>
      refusals
        .filter((refusal) => !(refusal.statuses ?? [status]).includes(refusal.response.status))
        .map((refusal) => ({
          field: refusal.field ?? 'status',
          code: 'not-refused',
          message: `a request ${refusal.case} was answered ${refusal.response.status}; refuse it with ${(refusal.statuses ?? [status]).join(' or ')}`,
        })),
  };
}

export const apiKeyRequired = refusedWith('mock-link/api-key/required', 401, 'a request without the "api-key" header is refused with 401', 'spec §5.4');
export const apiKeyChecked = refusedWith('mock-link/api-key/checked', 401, 'a request with a wrong "api-key" is refused with 401', 'spec §5.4');
export const malformedJsonRefused = refusedWith('mock-link/request/malformed-json', 400, 'a body that is not JSON is refused with 400', 'spec §4.3');
export const requiredFieldsRefused = refusedWith(
  'mock-link/request/required-fields',
  400,
  'a request missing any of its five fields is refused with 400',
  'spec §4.3',
);
export const tokenUuidRefused = refusedWith('mock-link/request/token-uuid', 400, 'a "token" that is not a UUID is refused with 400', 'spec §4.3');
export const userIdMismatchRefused = refusedWith(
  'mock-link/request/user-id-matches',
  400,
  'an "externalUserId" other than "accountInfo.user.id" is refused with 400',
  'spec §4.3',
);
export const orgIdMismatchRefused = refusedWith(
  'mock-link/request/org-id-matches',
  400,
  'an "externalOrgId" other than "accountInfo.company.id" is refused with 400',
  'spec §4.3',
);

export const refusalsExplained: Rule<readonly Refusal[]> = {
  id: 'mock-link/request/error-json',
  owner: 'platform',
  field: 'body',
  clause: 'spec §4.3',
  level: 'SHOULD',
  requirement: 'each refusal of a request field names the field at fault, in whatever format the platform answers',
  impact: 'a partner engineer cannot tell which field of the mock-link request to fix',
  // Judged by its effect, not by our emulator's JSON shape: spec §7.5 leaves the mock link's errors open.
  effect: 'a partner engineer whose request is refused cannot tell which field to fix',
  check: (refusals) =>
    refusals.flatMap(({ case: what, field, response }): Issue[] =>
      field && !response.body.includes(field)
        ? [
            {
              code: 'field-not-named',
              field,
              message: `the refusal of a request ${what} does not name "${field}": ${JSON.stringify(response.body.slice(0, 120))}`,
            },
          ]
        : [],
    ),
};

/** Every rule of the mock link: its contract over HTTP, its landing page and the links the platform must refuse. */
export const mockLinkRules = [
  ...mockLinkTransportRules,
  linkCreated,
  linkAlgorithm,
  linkClaims,
  linkCarriesAccountInfo,
  landingReferrerPolicy,
  landingFrameAncestors,
  landingCookies,
  apiKeyRequired,
  apiKeyChecked,
  malformedJsonRefused,
  requiredFieldsRefused,
  tokenUuidRefused,
  userIdMismatchRefused,
  orgIdMismatchRefused,
  refusalsExplained,
  ...Object.values(tamperedLinkRules),
] as const;

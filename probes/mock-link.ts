import { jsonResponse, type Exchange, type JsonResponse } from '../checks/evidence';
import { evaluate, evaluateAll, type Rule } from '../checks/finding';
import { landingCookies, landingFrameAncestors, landingReferrerPolicy, type Landing } from '../checks/mock-link-landing';
import {
  apiKeyChecked,
  apiKeyRequired,
  issuedLink,
  linkAlgorithm,
  linkCarriesAccountInfo,
  linkClaims,
  linkCreated,
  malformedJsonRefused,
  mockLinkTransportRules,
  orgIdMismatchRefused,
  refusalsExplained,
  requiredFieldsRefused,
  tokenUuidRefused,
  userIdMismatchRefused,
  type Refusal,
} from '../checks/mock-link';
import type { Payload } from '../checks/payload';
import { checkTransport } from '../checks/transport';
import { answer, type HttpClient } from '../client/http';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { mockLinkBody, mockLinkRequest, type PlatformProbe } from './platform';
import { stopped } from './probe';
import { hasPlatform } from './needs';
import { sampleAccountInfo } from '../checks/sample-account-info';

/** The mock-link contract (spec §4.3, §5.4), over HTTP: the link, its JWT, the landing page and every refusal. */

/** Redirects a link may take to reach its page: as a browser would follow them, and no more. */
const maxLandingHops = 5;

const createRules = [linkCreated, linkAlgorithm, linkClaims, linkCarriesAccountInfo, landingReferrerPolicy, landingFrameAncestors, landingCookies];

/** Whether `token` verifies with the key set the platform publishes at `jwksUrl`, in one of its algorithms; its lifetime is judged by its own rule. */
export async function verifiedWith(
  http: HttpClient,
  jwksUrl: string,
  token: string,
  algorithms: readonly string[],
): Promise<{ verified: true } | { problem: string }> {
  const got = await answer(http, { method: 'GET', url: jwksUrl, headers: { accept: 'application/json' } });
  if ('problem' in got) return { problem: `the key set gave no answer (${got.problem})` };
  const keys = got.response.json.ok ? got.response.json.value : undefined;
  try {
    await compactVerify(token, createLocalJWKSet(keys as JSONWebKeySet), { algorithms: [...algorithms] });
    return { verified: true };
  } catch (error) {
    return { problem: got.response.status === 200 ? (error as Error).message : `the key set answered ${got.response.status}` };
  }
}

const createProbe: PlatformProbe = {
  kind: 'platform',
  id: 'mock-link/create',
  area: 'mock-link',
  title: 'a mock link carries the account information it was built from in a signed JWT, and lands with safe headers',
  rules: [...mockLinkTransportRules, ...createRules],
  codes: 0,
  profileNeeds: [hasPlatform],
  run: async (ctx, _met, http) => {
    const body = mockLinkBody(ctx.platform, sampleAccountInfo);
    const created = await http.send(mockLinkRequest(ctx.platform, JSON.stringify(body)));
    const transport = checkTransport(mockLinkTransportRules, created);
    if (!transport.usable) return stopped({ notApplicable: 'no usable answer from the mock-link endpoint' }, transport.findings);
    const response = jsonResponse(created.response!);
    const issued = issuedLink(response);
    const findings = [
      ...transport.findings,
      ...evaluate(linkCreated, response, undefined),
      ...evaluateAll(
        [linkAlgorithm, linkClaims],
        {
          ...issued,
          shape: ctx.platform.mockLink,
          ...(ctx.platform.mockLink.jwksUrl && issued.token
            ? { signature: await verifiedWith(http, ctx.platform.mockLink.jwksUrl, issued.token, ctx.platform.mockLink.algorithms) }
            : {}),
        },
        undefined,
      ),
      ...evaluate(linkCarriesAccountInfo, { issued, sent: body.accountInfo as Payload, shape: ctx.platform.mockLink }, undefined),
    ];
    if (!issued.link) return stopped({ notApplicable: 'no link was issued' }, findings);
    // The link may go on to the app by redirects, as a browser follows them, with the cookies each hop set
    // sent back to its host: the page it lands on is judged, and every response on the way.
    const hops: Exchange[] = [];
    const jar = new Map<string, Map<string, string>>();
    let url = issued.link;
    for (let hop = 0; hop < maxLandingHops; hop++) {
      const host = new URL(url).host;
      const hostJar = jar.get(host) ?? new Map<string, string>();
      jar.set(host, hostJar);
      const cookies = [...hostJar].map(([name, value]) => `${name}=${value}`).join('; ');
      const exchange = await http.send({ method: 'GET', url, headers: { accept: 'text/html', ...(cookies ? { cookie: cookies } : {}) } });
      hops.push(exchange);
      const { status, headers } = exchange.response ?? {};
      for (const line of (headers?.['set-cookie'] ?? '').split('\n').filter(Boolean)) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        if (at > 0) hostJar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
      }
      if (status === undefined || status < 300 || status > 399 || !headers?.location || !URL.canParse(headers.location, url)) break;
      url = new URL(headers.location, url).href;
    }
    const landing = hops.at(-1)!;
    if (!landing.response) return stopped({ notApplicable: `the link did not load: ${landing.failure?.message}` }, findings);
    const token = issued.token!;
    const seen: Landing = {
      headers: landing.response.headers,
      // The Referrer-Policy that protects the token is the one of each response whose address carried it.
      tokenResponses: hops
        .filter((hop) => hop.request.url.includes(token) && hop.response)
        .map((hop) => ({ url: hop.request.url, referrerPolicy: hop.response!.headers['referrer-policy'] })),
      cookies: hops.flatMap((hop) =>
        (hop.response?.headers['set-cookie'] ?? '')
          .split('\n')
          .filter(Boolean)
          .map((line) => ({ origin: new URL(hop.request.url).origin, line })),
      ),
      hostOrigin: ctx.platform.hostOrigin,
    };
    return [...findings, ...evaluateAll([landingReferrerPolicy, landingFrameAncestors, landingCookies], seen, undefined)];
  },
};

const refusalRules = [
  apiKeyRequired,
  apiKeyChecked,
  malformedJsonRefused,
  requiredFieldsRefused,
  tokenUuidRefused,
  userIdMismatchRefused,
  orgIdMismatchRefused,
];

const refusalsProbe: PlatformProbe = {
  kind: 'platform',
  id: 'mock-link/refusals',
  area: 'mock-link',
  title: 'the mock-link endpoint refuses a missing or wrong api-key with 401 and a broken request with 400, naming the field',
  rules: [...refusalRules, refusalsExplained],
  codes: 0,
  profileNeeds: [hasPlatform],
  run: async (ctx, _met, http) => {
    const valid = mockLinkBody(ctx.platform, sampleAccountInfo);
    const without = (field: string) => JSON.stringify({ ...valid, [field]: undefined });
    const changed = (edit: Payload) => JSON.stringify({ ...valid, ...edit });
    const cases: (Omit<Refusal, 'response'> & { rule: Rule<readonly Refusal[]>; body: string; apiKey?: string | null })[] = [
      { rule: apiKeyRequired, case: 'without "api-key"', body: JSON.stringify(valid), apiKey: null },
      { rule: apiKeyChecked, case: 'with a wrong "api-key"', body: JSON.stringify(valid), apiKey: `${ctx.platform.apiKey}-wrong` },
      { rule: malformedJsonRefused, case: 'with a body that is not JSON', body: '{"partnerName": ' },
      ...['partnerName', 'token', 'externalUserId', 'externalOrgId', 'accountInfo'].map((field) => ({
        rule: requiredFieldsRefused,
        case: `without "${field}"`,
        field,
        body: without(field),
      })),
      { rule: tokenUuidRefused, case: 'whose "token" is not a UUID', field: 'token', body: changed({ token: 'not-a-uuid' }) },
      {
        rule: userIdMismatchRefused,
        case: 'whose "externalUserId" differs from "accountInfo.user.id"',
        field: 'externalUserId',
        body: changed({ externalUserId: `${String(valid.externalUserId)}-other` }),
      },
      {
        rule: orgIdMismatchRefused,
        case: 'whose "externalOrgId" differs from "accountInfo.company.id"',
        field: 'externalOrgId',
        body: changed({ externalOrgId: `${String(valid.externalOrgId)}-other` }),
      },
    ];
    const answers = await Promise.all(cases.map((c) => answer(http, mockLinkRequest(ctx.platform, c.body, c.apiKey))));
    const unanswered = answers.find((got) => 'problem' in got);
    if (unanswered && 'problem' in unanswered) return stopped({ notApplicable: `the mock-link endpoint gave no answer (${unanswered.problem})` });
    // Where the profile states this platform's refusal statuses, they are its requirement (the spec leaves them open).
    const { unauthorizedStatus, invalidStatus } = ctx.platform.mockLink;
    // A body that is not JSON may also get HTTP's own 400, whatever the platform answers a request it can read.
    const statusesOf = (rule: Rule<readonly Refusal[]>): number[] | undefined => {
      if (rule === apiKeyRequired || rule === apiKeyChecked) return unauthorizedStatus === undefined ? undefined : [unauthorizedStatus];
      if (invalidStatus === undefined) return undefined;
      return rule === malformedJsonRefused ? [400, invalidStatus] : [invalidStatus];
    };
    const judged = cases.map((c, i) => ({
      ...c,
      response: (answers[i] as { response: JsonResponse }).response,
      ...(statusesOf(c.rule) ? { statuses: statusesOf(c.rule) } : {}),
    }));
    const byField = judged.filter((refusal) => refusal.rule !== apiKeyRequired && refusal.rule !== apiKeyChecked);
    return [
      ...refusalRules.flatMap((rule) =>
        evaluate(
          rule,
          judged.filter((refusal) => refusal.rule === rule),
          undefined,
        ),
      ),
      ...evaluate(refusalsExplained, byField, undefined),
    ];
  },
};

export const mockLinkProbes: readonly PlatformProbe[] = [createProbe, refusalsProbe];

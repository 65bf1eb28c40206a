import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError, type HarborContext } from './context.js';
import { registerDataApi } from './data-api.js';
import { faultList, hasFault, prefixOf } from './faults.js';
import { parsePartnerConfig } from './partners.js';
import type { Outcome } from './sessions.js';
import { decide, hostOriginFor, problem } from './sso.js';
import { LINK_LIFETIME_S, LONG_LINK_LIFETIME_S, LinkSigner } from './tokens.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The field a mock-link body gets wrong first, with why; undefined when it is well formed. */
function mockLinkBodyProblem(b: unknown): [string, string] | undefined {
  if (!isObj(b)) return ['body', 'must be a JSON object'];
  for (const f of ['partnerName', 'token', 'externalUserId', 'externalOrgId']) {
    if (typeof b[f] !== 'string' || b[f] === '') return [f, 'is required and must be a non-empty string'];
  }
  if (!UUID.test(b.token as string)) return ['token', 'must be a UUID'];
  if (!isObj(b.accountInfo)) return ['accountInfo', 'is required and must be an object'];
  const { user, company } = b.accountInfo;
  if (!isObj(user)) return ['accountInfo.user', 'is required and must be an object'];
  if (!isObj(company)) return ['accountInfo.company', 'is required and must be an object'];
  if (user.id !== b.externalUserId) return ['externalUserId', 'must equal accountInfo.user.id'];
  if (company.id !== b.externalOrgId) return ['externalOrgId', 'must equal accountInfo.company.id'];
  return undefined;
}

export function registerApi(api: FastifyInstance, ctx: HarborContext): void {
  const requireApiKey = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!ctx.partners.isKnownApiKey(request.headers['api-key'])) {
      await sendError(reply, 403, 'forbidden', 'a valid api-key header is required');
    }
  };

  api.get('/faults', async () => faultList());

  api.post('/v1/auth/providers/standard/create-mock-link', { onRequest: requireApiKey }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const wrong = mockLinkBodyProblem(request.body);
    if (wrong) return sendError(reply, 422, 'invalid_request', `${wrong[0]} ${wrong[1]}`);
    const b = request.body as Obj & { accountInfo: Obj };
    const partner = ctx.partners.get(b.partnerName);
    if (!partner) return sendError(reply, 422, 'invalid_request', 'partnerName names no configured partner');
    if (partner.apiKey !== request.headers['api-key']) return sendError(reply, 403, 'forbidden', 'the api-key does not belong to this partner');
    const lifetime = hasFault(request, 'long-lived-links') ? LONG_LINK_LIFETIME_S : LINK_LIFETIME_S;
    const profile = { user: b.accountInfo.user, company: b.accountInfo.company };
    const jwt = await ctx.signer.sign(partner.partnerName, { profile, ext_user: b.externalUserId as string, ext_org: b.externalOrgId as string }, lifetime);
    const link = `${ctx.apiOrigin}${prefixOf(request)}/v1/sso/start?token=${encodeURIComponent(jwt)}`;
    return reply.code(201).send({ link });
  });

  api.get('/v1/sso/start', async (request, reply) => {
    // This response's URL carries the token: it must not leak through Referer to the next hop.
    reply.header('Referrer-Policy', 'no-referrer').header('Cache-Control', 'no-store');
    const token = (request.query as Obj).token;
    let outcome: Outcome;
    if (typeof token !== 'string' || token === '') {
      outcome = problem('LINK_MISSING', 'the link carries no token');
    } else {
      const partner = ctx.partners.get(LinkSigner.peekAudience(token));
      if (!partner) {
        outcome = problem('LINK_INVALID', 'the link names no known partner');
      } else {
        const hostOrigin = hostOriginFor(partner, request);
        const v = await ctx.signer.verify(token, partner.partnerName, hasFault(request, 'reusable-links'));
        if (!v.ok) outcome = problem(v.reason, v.detail, partner, hostOrigin);
        else if (readId(v.claims.profile, 'user') !== v.claims.ext_user || readId(v.claims.profile, 'company') !== v.claims.ext_org) {
          outcome = problem('LINK_INVALID', 'the link ids do not match its profile', partner, hostOrigin);
        } else {
          outcome = decide(partner, v.claims.profile, ctx.now(), hasFault(request, 'skips-collection'), hostOrigin);
        }
      }
    }
    const ticket = ctx.store.issueTicket(outcome);
    return reply.redirect(`${ctx.appOrigin}${prefixOf(request)}/session/open?ticket=${ticket}`, 302);
  });

  api.post('/v1/sandbox/partners', { onRequest: requireApiKey }, async (request, reply) => {
    const parsed = parsePartnerConfig(request.body);
    if (!parsed.ok) return sendError(reply, 422, 'invalid_request', `${parsed.field}: ${parsed.detail}`);
    const existing = ctx.partners.get(parsed.partner.partnerName);
    if (existing && existing.apiKey !== request.headers['api-key']) {
      return sendError(reply, 403, 'forbidden', "only the partner's own api-key may change an existing partner");
    }
    const result = ctx.partners.upsert(parsed.partner);
    // Secrets are never echoed back.
    const shown = { ...parsed.partner, apiKey: '(set)', clientSecret: parsed.partner.clientSecret ? '(set)' : undefined };
    return reply.code(result === 'created' ? 201 : 200).send({ result, partner: shown });
  });

  registerDataApi(api);
}

function readId(profile: Obj, key: 'user' | 'company'): unknown {
  const o = profile[key];
  return isObj(o) ? o.id : undefined;
}

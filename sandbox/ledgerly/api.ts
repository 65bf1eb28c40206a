import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { isObject } from '../../checks/evidence';
import { mockLinkPath } from '../../profile/platform-urls';
import { seedData, type Seed } from '../platform/data';
import { equalSecrets } from '../secrets';
import { ledgerly, ledgerlyOrigins, ledgerlyPartners } from './config';
import { faultPrefix } from '../fault-path';
import { ledgerlyFaults, ledgerlyFaultsOf, refuseUnknownFaults } from './faults';

/**
 * Ledgerly's API origin: the mock link (spec §4.3, signed RS256, its key published as a JWKS), the link's
 * landing, which redirects to the app's origin, and the data API, with choices of its own: items name their
 * organization "orgId", a "limit" over 100 is clamped to 100, several ids are written "ids=a,b" only, and an
 * unknown cursor is an empty last page.
 */

export interface LedgerlyKeys {
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function ledgerlyKeys(): Promise<LedgerlyKeys> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: 'ledgerly-1', alg: 'RS256', use: 'sig' } };
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const invalid = (reply: FastifyReply, field: string, detail: string) => reply.code(400).send({ error: 'invalid_request', field, detail });

/** What is wrong with a mock-link request, by Ledgerly's reading of spec §4.3. */
function problemOf(body: unknown): [field: string, detail: string] | undefined {
  if (!isObject(body)) return ['body', 'a JSON object is expected'];
  for (const field of ['partnerName', 'token', 'externalUserId', 'externalOrgId'] as const)
    if (typeof body[field] !== 'string' || body[field] === '') return [field, 'required'];
  const info = body.accountInfo;
  if (!isObject(info) || !isObject(info.user) || !isObject(info.company)) return ['accountInfo', 'needs "user" and "company" objects'];
  if (!ledgerlyPartners.has(body.partnerName as string)) return ['partnerName', 'unknown partner'];
  if (!uuid.test(body.token as string)) return ['token', 'must be a UUID'];
  if (body.externalUserId !== info.user.id) return ['externalUserId', 'must equal accountInfo.user.id'];
  if (body.externalOrgId !== info.company.id) return ['externalOrgId', 'must equal accountInfo.company.id'];
  return undefined;
}

type Item = { id: string; orgId?: string } & Record<string, unknown>;

export function buildLedgerlyApi(keys: LedgerlyKeys, { seed = seedData(), appOrigin = ledgerlyOrigins.app }: { seed?: Seed; appOrigin?: string } = {}) {
  const app = Fastify({ logger: false });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: 'not_found', detail: `${request.method} ${request.url.split('?')[0]}` }));
  app.setErrorHandler((error, _request, reply) =>
    reply.code(400).send({ error: 'invalid_request', detail: error instanceof Error ? error.message : String(error) }),
  );
  app.get('/health', async () => ({ ok: true }));
  app.get('/.well-known/jwks.json', async () => ({ keys: [keys.jwk] }));
  app.get('/faults', async () => ledgerlyFaults);

  // Every route, also under /faults/<names>/ with those faults on (sandbox/ledgerly/faults.ts).
  const routes = async (app: FastifyInstance) => {
    app.addHook('onRequest', refuseUnknownFaults);
    app.post(mockLinkPath, async (request, reply) => {
      const key = request.headers['api-key'];
      if (typeof key !== 'string' || !equalSecrets(key, ledgerly.apiKey))
        return reply.code(401).send({ error: 'unauthorized', detail: 'a valid api-key header is required' });
      const problem = problemOf(request.body);
      if (problem) return invalid(reply, ...problem);
      const body = request.body as { partnerName: string; accountInfo: Record<string, unknown> };
      const token = await new SignJWT({ acct: body.accountInfo })
        .setProtectedHeader({ alg: 'RS256', kid: keys.jwk.kid! })
        .setIssuer(ledgerly.issuer)
        .setAudience(body.partnerName)
        .setIssuedAt()
        .setExpirationTime(`${ledgerly.linkLifetimeSeconds}s`)
        .setJti(randomUUID())
        .sign(keys.privateKey);
      return { link: `${request.protocol}://${request.host}${faultPrefix(request)}/launch?token=${token}` };
    });

    // The link lands here and goes on to the app, which verifies the token itself.
    app.get('/launch', async (request, reply) => {
      const { token } = request.query as { token?: unknown };
      if (typeof token !== 'string') return reply.code(400).send({ error: 'invalid_request', field: 'token', detail: 'required' });
      const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString() || '{}') as { aud?: unknown };
      const partner = typeof payload.aud === 'string' ? payload.aud : 'unknown';
      return reply
        .header('referrer-policy', 'no-referrer')
        .redirect(`${appOrigin}${faultPrefix(request)}/sso/${encodeURIComponent(partner)}?token=${encodeURIComponent(token)}`, 302);
    });

    const collections: Record<keyof Seed, Item[]> = {
      organizations: seed.organizations.map((org) => ({ ...org })),
      vendors: seed.vendors.map(({ organizationId, ...item }) => ({ ...item, orgId: organizationId })),
      bills: seed.bills.map(({ organizationId, ...item }) => ({ ...item, orgId: organizationId })),
      payments: seed.payments.map(({ organizationId, ...item }) => ({ ...item, orgId: organizationId })),
    };
    const refused = (request: FastifyRequest, reply: FastifyReply) => {
      if (ledgerlyFaultsOf(request).has('data-api-ignores-auth')) return undefined;
      const presented = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      return presented && equalSecrets(presented, ledgerly.dataApiToken)
        ? undefined
        : reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'unauthorized', detail: 'a valid Bearer token is required' });
    };
    for (const [name, all] of Object.entries(collections)) {
      app.get(`/v1/${name}`, async (request, reply) => {
        const denied = refused(request, reply);
        if (denied) return denied;
        const query = request.query as Record<string, string | string[] | undefined>;
        const last = (value: string | string[] | undefined) => (Array.isArray(value) ? value.at(-1) : value);
        const requested = Number(last(query.limit) ?? 25);
        if (!Number.isInteger(requested) || requested < 1) return invalid(reply, 'limit', 'a positive integer');
        const limit = Math.min(requested, 100);
        const organizationId = last(query.organizationId);
        const ids = last(query.ids)?.split(',');
        if (name !== 'organizations' && organizationId === undefined && ids === undefined)
          return invalid(reply, 'organizationId', 'organizationId or ids is required');
        const scope = all.filter(
          (item) =>
            (organizationId === undefined || (name === 'organizations' ? item.id === organizationId : item.orgId === organizationId)) &&
            (ids === undefined || ids.includes(item.id)),
        );
        const after = last(query.after);
        const start = after === undefined ? 0 : scope.findIndex((item) => item.id === after) + 1;
        const items = after !== undefined && start === 0 ? [] : scope.slice(start, start + limit);
        return reply
          .header('cache-control', 'no-store')
          .send({ items, hasMore: start + items.length < scope.length && items.length > 0, next: items.length > 0 ? { after: items.at(-1)!.id } : null });
      });
    }
  };
  void app.register(routes);
  void app.register(routes, { prefix: '/faults/:faults' });
  return app;
}

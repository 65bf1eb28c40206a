import type { FastifyInstance } from 'fastify';
import { isObject } from '../../checks/evidence';
import type { Payload } from '../../checks/payload';
import { partnerConfigSchema, type PartnerConfig } from '../../profile/profile-schema';
import { authUrl, emulatorPartnerPath, mockLinkPath } from '../../profile/platform-urls';
import { faultPrefix } from '../fault-path';
import { apiError } from './errors';
import type { KnownSource } from './funding';
import { signMockLink } from './jwt';
import { mockLinkProblem, remember, text } from './sign-in';

/** The emulator's own API and the mock link (spec §5.4), both behind the api-key header the caller checks. */
export function registerEmulatorApi(
  app: FastifyInstance,
  {
    partners,
    knownOf,
    key,
    now,
  }: { partners: Map<string, PartnerConfig>; knownOf: (partnerName: string, userId: string) => Map<string, KnownSource>; key: Uint8Array; now: () => number },
) {
  // The harness hands the emulator each partner's configuration from its profile.
  app.put(emulatorPartnerPath(':partnerName'), async (request, reply) => {
    const { partnerName } = request.params as { partnerName: string };
    const parsed = partnerConfigSchema.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return apiError(reply, 400, 'INVALID_CONFIGURATION', `"${issue.path.join('.')}" ${issue.message}`, issue.path.join('.'));
    }
    remember(partners, partnerName, parsed.data);
    return { partnerName, authUrl: authUrl(`${request.protocol}://${request.host}${faultPrefix(request)}`, partnerName) };
  });

  // A funding source the platform knew from an earlier sign-in, for the sync test (spec §4.2).
  app.post(`${emulatorPartnerPath(':partnerName')}/users/:userId/funding-sources`, async (request, reply) => {
    const { partnerName, userId } = request.params as { partnerName: string; userId: string };
    const body = request.body;
    if (!isObject(body) || typeof body.id !== 'string' || body.id === '') return apiError(reply, 400, 'INVALID_REQUEST', '"id" is required: a string', 'id');
    const known = knownOf(partnerName, userId);
    known.set(body.id, { id: body.id, ...(typeof body.nickname === 'string' ? { nickname: body.nickname } : {}) });
    return { known: [...known.keys()] };
  });

  app.post(mockLinkPath, async (request, reply) => {
    const problem = mockLinkProblem(request.body, partners);
    if (problem) return apiError(reply, 400, 'INVALID_REQUEST', problem.message, problem.field);
    const body = request.body as Payload;
    const partnerName = body.partnerName as string;
    const claims = {
      accountInfo: body.accountInfo as Payload,
      externalUserId: text(body.externalUserId),
      externalOrgId: text(body.externalOrgId),
      nonce: text(body.token),
    };
    const link = new URL(authUrl(`${request.protocol}://${request.host}${faultPrefix(request)}`, partnerName));
    link.searchParams.set('token', await signMockLink(claims, partnerName, key, now()));
    return reply.header('cache-control', 'no-store').send({ link: link.href });
  });
}

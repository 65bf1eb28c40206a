import type { FastifyReply, FastifyRequest } from 'fastify';
import { faultNamesOf } from '../fault-path';

/**
 * Ledgerly's faults: ways this platform, shaped unlike the emulator, gets sign-on wrong. Any route of its API
 * and of its app also answers under `/faults/<name>[,<name>…]/`; each must show in the platform's section of a
 * certification, and none in the partner's (test/self/external-platform.spec.ts).
 */
export const ledgerlyFaults = {
  'frames-anywhere': "the app's page sends no frame-ancestors, so any site can frame it",
  'posts-to-any-origin': "the app posts its messages with targetOrigin '*', whatever page frames it",
  'replayable-links': 'a mock link signs its user in again each time it is opened',
  'data-api-ignores-auth': 'the data API serves a request without a valid Bearer token',
  // A conformant variation, which no rule may flag: the form is fine, only not readable without a map of it.
  'opaque-input-names': 'conformant: the collection form names its inputs by position ("field0"), not by spec path, so a profile must map them',
} as const satisfies Record<string, string>;

export type LedgerlyFault = keyof typeof ledgerlyFaults;
export const ledgerlyFaultNames = Object.keys(ledgerlyFaults) as LedgerlyFault[];

/** The faults a request asked for in its path. */
export const ledgerlyFaultsOf = (request: FastifyRequest): ReadonlySet<string> => new Set(faultNamesOf(request));

/** Refuses, with a 404 of JSON, a request under `/faults/…` naming a fault Ledgerly does not have. */
export async function refuseUnknownFaults(request: FastifyRequest, reply: FastifyReply) {
  const unknown = [...ledgerlyFaultsOf(request)].filter((name) => !Object.hasOwn(ledgerlyFaults, name));
  if (unknown.length > 0)
    return reply.code(404).send({
      error: 'unknown_fault',
      detail: `Ledgerly has no fault ${unknown.map((name) => `"${name}"`).join(', ')}; it has ${ledgerlyFaultNames.join(', ')}`,
    });
}

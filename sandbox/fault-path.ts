import type { FastifyRequest } from 'fastify';

/**
 * Every sandbox server also answers under `/faults/<name>[,<name>…]/`, its routes registered a second time
 * under that prefix: these read it back from a request.
 */

/** The fault names the request's path asked for, as written (none without the prefix). */
export const faultNamesOf = (request: FastifyRequest): string[] => (request.params as { faults?: string }).faults?.split(',') ?? [];

/** The prefix the request's route was registered under: '' or `/faults/<names>`. */
export const faultPrefix = (request: FastifyRequest): string => {
  const list = (request.params as { faults?: string }).faults;
  return list ? `/faults/${list}` : '';
};

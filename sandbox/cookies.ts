import type { FastifyRequest } from 'fastify';

/** The value of the cookie `name` the request sent, if any (everything after its first "="). */
export const cookieOf = (request: FastifyRequest, name: string): string | undefined => {
  const pair = request.headers.cookie
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`));
  return pair?.slice(name.length + 1);
};

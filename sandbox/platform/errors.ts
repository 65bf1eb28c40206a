import type { FastifyReply } from 'fastify';

/** How deep a request body may nest: real account information is 4 levels deep. */
export const maxBodyDepth = 32;

/** Errors of the emulator's APIs (DESIGN §5): JSON `{code, message}`, plus the field at fault when there is one. */
export const apiError = (reply: FastifyReply, status: number, code: string, message: string, field?: string) =>
  reply
    .code(status)
    .header('cache-control', 'no-store')
    .send({ code, message, ...(field ? { field } : {}) });

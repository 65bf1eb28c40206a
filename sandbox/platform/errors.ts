import type { FastifyReply } from 'fastify';

/** Errors of the emulator's APIs (DESIGN §5): JSON `{code, message}`, plus the field at fault when there is one. */
/** How deep a request body may nest: real account information is 4 levels deep. */
export const maxBodyDepth = 32;

/** The nesting depth of a parsed body, walked without recursion (a deep body must not overflow the stack). */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > maxBodyDepth) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export const apiError = (reply: FastifyReply, status: number, code: string, message: string, field?: string) =>
  reply.code(status).header('cache-control', 'no-store').send({ code, message, ...(field ? { field } : {}) });

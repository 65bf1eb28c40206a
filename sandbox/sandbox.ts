import type { FastifyInstance } from 'fastify';
import { buildHostPage } from './host-page/server';
import { buildPlatform } from './platform/server';
import { buildReferencePartner } from './reference-partner/server';

export const sandboxHost = '127.0.0.1';
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/**
 * The bundled sandbox's three servers, in the order they start: the host page and the platform emulator
 * first, the reference partner last, because playwright.config.ts waits for the partner's /health.
 */
export function buildSandbox(): { name: string; server: FastifyInstance; port: number; hint: string }[] {
  return [
    { name: 'host page', server: buildHostPage(), port: port('HOST_PAGE_PORT', 4402), hint: '/?src=<auth URL>' },
    { name: 'platform emulator', server: buildPlatform(), port: port('PLATFORM_PORT', 4401), hint: '/faults' },
    { name: 'reference partner', server: buildReferencePartner(), port: port('REFERENCE_PARTNER_PORT', 4400), hint: '/faults' },
  ];
}

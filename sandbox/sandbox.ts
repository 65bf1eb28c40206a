import type { FastifyInstance } from 'fastify';
import { buildHostPage } from './host-page/server';
import { buildPlatform } from './platform/server';
import { buildReferencePartner } from './reference-partner/server';
import { buildLedgerlyApi, ledgerlyKeys } from './ledgerly/api';
import { buildLedgerlyApp } from './ledgerly/app';
import { ledgerly } from './ledgerly/config';
import { buildHarbor } from './harbor/server';

export const sandboxHost = '127.0.0.1';
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/**
 * The bundled sandbox's servers, in the order they start: the host page, the platform emulator, Ledgerly
 * (sandbox/ledgerly) and Harbor (sandbox/harbor) first, the reference partner last, because playwright.config.ts waits for its /health.
 */
export async function buildSandbox(): Promise<{ name: string; server: FastifyInstance; port: number; hint: string }[]> {
  const keys = await ledgerlyKeys();
  // Harbor (sandbox/harbor), a third platform written from the spec alone, on three origins of its own.
  const harbor = buildHarbor();
  return [
    { name: 'host page', server: buildHostPage(), port: port('HOST_PAGE_PORT', 4402), hint: '/?src=<auth URL>' },
    { name: 'platform emulator', server: buildPlatform(), port: port('PLATFORM_PORT', 4401), hint: '/faults' },
    { name: 'Ledgerly, a second platform: its API', server: buildLedgerlyApi(keys), port: ledgerly.apiPort, hint: '/.well-known/jwks.json' },
    { name: 'Ledgerly: its app', server: await buildLedgerlyApp(keys), port: ledgerly.appPort, hint: '/sso/reference?code=…' },
    { name: 'Harbor, a third platform: its API', server: harbor.api, port: 4405, hint: '/faults' },
    { name: 'Harbor: its app', server: harbor.app, port: 4406, hint: '/embed?tenant=reference&code=…' },
    { name: 'Harbor: its keys', server: harbor.keys, port: 4407, hint: '/keys/harbor.jwks' },
    { name: 'reference partner', server: buildReferencePartner(), port: port('REFERENCE_PARTNER_PORT', 4400), hint: '/faults' },
  ];
}

/**
 * Bounded load on the platform emulator over loopback, with autocannon: the mock-link → auth (token path)
 * flow, and data-API pages. Used by `npm run bench` (longer) and test/self/load.spec.ts (short, asserts
 * zero errors). Each run starts an emulator of its own on an ephemeral port and closes it.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { dataApiClient } from '../client/data-api';
import { buildPlatform, platformSandbox } from '../sandbox/platform/server';
import { bodyOf } from '../sandbox/reference-partner/resources';

export interface LoadResult {
  label: string;
  connections: number;
  durationS: number;
  requests: number;
  requestsPerSecond: number;
  p99Ms: number;
  /** Socket errors and timeouts. */
  errors: number;
  non2xx: number;
  server5xx: number;
}

const summary = (label: string, connections: number, durationS: number, r: autocannon.Result): LoadResult => ({
  label,
  connections,
  durationS,
  requests: r.requests.total,
  requestsPerSecond: Math.round(r.requests.average),
  p99Ms: r.latency.p99,
  errors: r.errors + r.timeouts,
  non2xx: r.non2xx,
  server5xx: r['5xx'],
});

export async function loadEmulator({ durationS, connections }: { durationS: number; connections: number }): Promise<LoadResult[]> {
  const platform = buildPlatform({ dataSeed: { organizations: 1, bills: 20_000 } });
  await platform.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(platform.server.address() as AddressInfo).port}`;
  try {
    const hostOrigin = 'http://127.0.0.1:4402';
    const configured = await fetch(`${origin}/v1/emulator/partners/load`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'api-key': platformSandbox.apiKey },
      body: JSON.stringify({
        tokenExchangeUrl: 'http://127.0.0.1:9/token',
        accountInfoUrl: 'http://127.0.0.1:9/account',
        collectMissingAccountInfo: false,
        tokenExchangeEncoding: 'json',
        requestTimeoutMs: 1000,
        hostOrigin,
      }),
    });
    if (!configured.ok) throw new Error(`configuring the emulator failed: ${configured.status}`);

    // The mock link's account information is the reference partner's complete user: the auth URL lands in the app.
    const accountInfo = bodyOf('account-info', 'complete', new Date(), new Set()) as { user: { id: string }; company: { id: string } };
    const linkBody = () =>
      JSON.stringify({ partnerName: 'load', token: randomUUID(), externalUserId: accountInfo.user.id, externalOrgId: accountInfo.company.id, accountInfo });
    const flow = await autocannon({
      url: origin,
      connections,
      duration: durationS,
      requests: [
        {
          method: 'POST',
          path: '/v1/auth/providers/standard/create-mock-link',
          headers: { 'content-type': 'application/json', 'api-key': platformSandbox.apiKey },
          setupRequest: (request) => ({ ...request, body: linkBody() }),
          onResponse: (status, body, context) => {
            (context as { link?: string }).link = status === 200 ? (JSON.parse(body) as { link: string }).link : undefined;
          },
        },
        {
          method: 'GET',
          // Each link is single-use: the sequence starts over (a new link) when there is none.
          setupRequest: (request, context) => {
            const { link } = context as { link?: string };
            return link ? { ...request, path: `${new URL(link).pathname}${new URL(link).search}` } : (undefined as unknown as autocannon.Request);
          },
        },
      ],
    });

    // Data-API pages: the paths of one organization's first 100 pages, requested in random order.
    const api = dataApiClient({ baseUrl: origin, token: platformSandbox.dataApiToken });
    const organizationId = (await api.getOrganizations()).items[0]!.id;
    const paths: string[] = [];
    let after: string | undefined;
    for await (const page of api.pages('bills', { organizationId, limit: 100 })) {
      paths.push(`/v1/bills?organizationId=${organizationId}&limit=100${after ? `&after=${after}` : ''}`);
      after = page.next?.after;
      if (paths.length === 100) break;
    }
    const pages = await autocannon({
      url: origin,
      connections,
      duration: durationS,
      headers: { authorization: `Bearer ${platformSandbox.dataApiToken}` },
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)]! }) }],
    });
    return [
      summary('mock link → auth URL (token path), 2 requests a flow', connections, durationS, flow),
      summary('data-API pages of 100 bills', connections, durationS, pages),
    ];
  } finally {
    await platform.close();
  }
}

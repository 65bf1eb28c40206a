import { expect, test } from '@playwright/test';
import { dataApiClient, pageUrl } from '../../client/data-api';
import { isSetupError } from '../../client/setup-error';
import { platformSandbox } from '../../sandbox/platform/server';
import { startPlatform } from '../support/sandbox';

let platform: Awaited<ReturnType<typeof startPlatform>>;
test.beforeAll(async () => (platform = await startPlatform()));
test.afterAll(() => platform.close());

const client = () => dataApiClient({ baseUrl: platform.origin, token: platformSandbox.dataApiToken });

test('pageUrl spells ids both ways and leaves out what is not given', () => {
  expect(pageUrl('https://api.example/', 'bills', { organizationId: 'o 1', ids: ['a', 'b'], limit: 5 })).toBe(
    'https://api.example/v1/bills?organizationId=o+1&ids=a%2Cb&limit=5',
  );
  expect(pageUrl('https://api.example', 'vendors', { ids: ['a', 'b'], idsEncoding: 'repeated', after: 'x' })).toBe(
    'https://api.example/v1/vendors?ids=a&ids=b&after=x',
  );
});

test("the client walks every page of an organization's bills: no duplicates, in order, as many as one page of ids says", async () => {
  // Two walks of 10,000 bills: seconds alone, but more than the default 30 s beside the suite's nested runs on 2 cores.
  test.setTimeout(90_000);
  const api = client();
  const {
    items: [org],
  } = await api.getOrganizations();
  let pages = 0;
  const ids: string[] = [];
  for await (const page of api.pages('bills', { organizationId: org!.id, limit: 100 })) {
    pages++;
    expect(page.items.length).toBeLessThanOrEqual(100);
    ids.push(...page.items.map((bill) => bill.id));
  }
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual(ids);
  expect(pages).toBe(Math.ceil(ids.length / 100));
  let walked = 0;
  for await (const bill of api.all('bills', { organizationId: org!.id })) {
    expect(bill.organizationId).toBe(org!.id);
    walked++;
  }
  expect(walked).toBe(ids.length);
  const picked = [ids[0]!, ids[500]!, ids.at(-1)!];
  for (const idsEncoding of ['comma', 'repeated'] as const) {
    expect((await api.getBills({ ids: picked, idsEncoding })).items.map((bill) => bill.id)).toEqual(picked);
  }
});

test('refusals come back as set-up errors "data-api" with the status and the API\'s code', async () => {
  const refusal: unknown = await client()
    .getBills()
    .catch((error: unknown) => error);
  expect(isSetupError(refusal, 'data-api')).toBe(true);
  await expect(client().getBills()).rejects.toMatchObject({ code: 'data-api', params: { status: 400, apiCode: 'MISSING_FILTER' } });
  await expect(dataApiClient({ baseUrl: platform.origin, token: 'wrong' }).getOrganizations()).rejects.toMatchObject({
    code: 'data-api',
    params: { status: 401, apiCode: 'INVALID_AUTHENTICATION_TOKEN' },
  });
});

test('the emulator answers bad data-API input with a 4xx JSON error, never a 5xx', async () => {
  const get = (query: string, init: RequestInit = {}) =>
    fetch(`${platform.origin}/v1/bills?${query}`, { ...init, headers: { authorization: `Bearer ${platformSandbox.dataApiToken}` } });
  const cases: [string, RequestInit, number, string][] = [
    ['organizationId=org_0001&limit=10&limit=20', {}, 400, 'INVALID_LIMIT'],
    ['organizationId=org_0001&limit=101', {}, 400, 'INVALID_LIMIT'],
    ['organizationId=org_0001&limit=2.5', {}, 400, 'INVALID_LIMIT'],
    ['organizationId=org_0001&after=a&after=b', {}, 400, 'INVALID_CURSOR'],
    ['organizationId=org_0002&after=bill_0000002', {}, 400, 'INVALID_CURSOR'],
    ['organizationId=a&organizationId=b', {}, 400, 'INVALID_FILTER'],
    ['organizationId=org_0001', { method: 'DELETE' }, 405, 'METHOD_NOT_ALLOWED'],
  ];
  for (const [query, init, status, code] of cases) {
    const response = await get(query, init);
    expect(response.status, query).toBe(status);
    expect(await response.json(), query).toMatchObject({ code });
  }
  const unknownOrganization = (await (await get('organizationId=org_9999')).json()) as unknown;
  expect(unknownOrganization).toEqual({ items: [], hasMore: false, next: null });
});

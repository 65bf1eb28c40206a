import { deleteAt, setAt } from '../../checks/paths';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { faultCatalogue, isFault, omitted, type Behaviour, type FaultSpec } from './faults';
import { hostileAccountBody, hostileFundingBody, leakingAccountInfo } from './hostile';
import type { Store } from './store';
import { faultsOf, realm } from './token-endpoint';
import { users, type UserKey } from './users';

type Resource = 'account-info' | 'funding-sources';

/** The body a resource serves for a user: its data with the fault catalogue's field edits applied. */
export function bodyOf(resource: Resource, user: UserKey, now: Date, faults: ReadonlySet<string>): unknown {
  const data = users[user].data(now);
  const body = resource === 'account-info' ? structuredClone(data.accountInfo) : { fundingSources: structuredClone(data.fundingSources) };
  for (const fault of faults) {
    if (!isFault(fault)) continue;
    const spec: FaultSpec = faultCatalogue[fault];
    const edits = resource === 'account-info' ? spec.account : spec.funding;
    for (const [path, value] of Object.entries(edits ?? {})) applyEdit(body, path, value);
  }
  return body;
}

function applyEdit(body: Record<string, unknown>, path: string, value: unknown) {
  if (value === omitted) deleteAt(body, path);
  else setAt(body, path, value);
}

/** The payload with its ids renamed, for the unstable-ids faults: a new name on every call. */
function renamed(resource: Resource, body: unknown, call: number): unknown {
  if (resource === 'account-info') {
    const info = body as { user: { id: string } };
    return { ...info, user: { ...info.user, id: `${info.user.id}-${call}` } };
  }
  const list = (body as { fundingSources: { id: string }[] }).fundingSources;
  return { fundingSources: list.map((source) => ({ ...source, id: `${source.id}-${call}` })) };
}

/** RFC 6750 §3: a Bearer-protected resource, with the behaviour faults of its endpoint. */
export function bearerResource(store: Store, resource: Resource, now: () => number, dateOfBirth?: string) {
  let calls = 0;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const faults = faultsOf(request);
    const has = (behaviour: Behaviour) => faults.has(`${resource}-${behaviour}`);
    if (has('reset')) {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (has('redirect')) return reply.redirect(request.url, 302);
    const refuse = (error: string, description: string) => {
      if (!faults.has('no-www-authenticate'))
        reply.header('www-authenticate', `Bearer realm="${realm}"${error === 'invalid_token' ? ', error="invalid_token"' : ''}`);
      return reply.code(has('forbidden-403') ? 403 : 401).send({ error, error_description: description });
    };
    const match = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    let user: UserKey | undefined = 'complete';
    if (!match) {
      if (!has('ignores-missing-token')) return refuse('unauthorized', 'send "Authorization: Bearer <access token>"');
    } else {
      user = resource === 'account-info' && faults.has('tokens-not-accepted') ? undefined : store.userOfToken(match[1]!);
      if (!user && has('accepts-any-token')) user = 'complete';
      if (!user) return refuse('invalid_token', 'the access token is unknown, expired or revoked');
    }
    let body = bodyOf(resource, user, new Date(now()), faults);
    if (dateOfBirth !== undefined && resource === 'account-info') setAt(body as Record<string, unknown>, 'user.dateOfBirth', dateOfBirth);
    if (resource === 'funding-sources' && match && store.withoutLastFundingSource(match[1]!)) (body as { fundingSources: unknown[] }).fundingSources.pop();
    if (resource === 'account-info' && faults.has('personal-data-elsewhere')) body = leakingAccountInfo(body);
    if (has('unstable-ids')) body = renamed(resource, body, ++calls);
    reply.header('cache-control', 'no-store').code(has('status-202') ? 202 : 200);
    if (has('text-plain')) return reply.type('text/plain; charset=utf-8').send(JSON.stringify(body));
    const corrupted = resource === 'account-info' ? hostileAccountBody(faults, body) : hostileFundingBody(faults, body);
    if (corrupted) return reply.type('application/json; charset=utf-8').send(corrupted);
    if (has('not-json')) {
      if (resource === 'funding-sources') return reply.send((body as { fundingSources: unknown[] }).fundingSources);
      const text = JSON.stringify(body);
      return reply.type('application/json').send(text.slice(0, Math.floor(text.length / 2)));
    }
    return reply.send(body);
  };
}

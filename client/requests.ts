import { encodings, type Encoding } from '../checks/token-exchange';
import type { Profile } from '../profile/profile-schema';
import type { HttpRequest } from './http';

/** The requests the platform sends a partner (spec §4.2): the probes send them, and so does the emulator when it signs a user in. */

/** What the platform knows about a partner's token exchange: the profile, or the emulator's partner configuration. */
export type TokenClient = Pick<Profile, 'tokenExchangeUrl' | 'clientId' | 'clientSecret' | 'scope'>;

export type TokenParams = Partial<Record<'code' | 'grant_type' | 'client_id' | 'client_secret' | 'scope', string | undefined>>;

/**
 * One deviation from the platform's request, for the probes that test how an endpoint takes it (RFC 6749
 * §2.3.1, §3.2): sent as a GET with every parameter in the query; the client credentials moved from the
 * body to the query; the same credentials sent with HTTP Basic instead (RFC 6749 §2.3.1), to tell a refused secret
 * from an endpoint that takes Basic only; or parameters added after the platform's, where a name may repeat one already sent.
 */
export type RequestBend = { method: 'GET' } | { credentialsInQuery: true } | { basic: true } | { extra: readonly (readonly [string, string])[] };

/**
 * The token request as the platform sends it (spec §4.2, §5.3): code and grant_type, plus client_id,
 * client_secret and scope only when the profile predefines them. `overrides` bends one parameter for
 * the negative cases; an override of `undefined` leaves the parameter out.
 */
export function tokenRequest(profile: TokenClient, encoding: Encoding, overrides: TokenParams, bend?: RequestBend): HttpRequest {
  const params: TokenParams = {
    grant_type: 'authorization_code',
    client_id: profile.clientId,
    client_secret: profile.clientSecret,
    scope: profile.scope,
    ...overrides,
  };
  const present = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (bend && 'method' in bend) {
    return { method: 'GET', url: withQuery(profile.tokenExchangeUrl, present), headers: { accept: 'application/json' } };
  }
  const isCredential = ([name]: readonly [string, string]) => name === 'client_id' || name === 'client_secret';
  const inQuery = bend && 'credentialsInQuery' in bend ? present.filter(isCredential) : [];
  const basic = bend && 'basic' in bend && params.client_id !== undefined && params.client_secret !== undefined;
  const moved = basic ? present.filter(isCredential) : inQuery;
  const inBody = [...present.filter((entry) => !moved.includes(entry)), ...(bend && 'extra' in bend ? bend.extra : [])];
  return {
    method: 'POST',
    url: withQuery(profile.tokenExchangeUrl, inQuery),
    headers: {
      'content-type': encodings[encoding].contentType,
      accept: 'application/json',
      ...(basic ? { authorization: basicCredentials(params.client_id!, params.client_secret!) } : {}),
    },
    // Written pair by pair, so a name sent twice stays twice, in JSON as in a form.
    body:
      encoding === 'json'
        ? `{${inBody.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`
        : new URLSearchParams(inBody.map(([n, v]) => [n, v])).toString(),
  };
}

/** RFC 6749 §2.3.1: the client id and secret, each form-encoded (Appendix B), joined by ":" and sent as HTTP Basic. */
const formEncoded = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
const basicCredentials = (clientId: string, secret: string) => `Basic ${Buffer.from(`${formEncoded(clientId)}:${formEncoded(secret)}`).toString('base64')}`;

function withQuery(url: string, params: readonly (readonly [string, string])[]): string {
  if (params.length === 0) return url;
  const target = new URL(url);
  for (const [name, value] of params) target.searchParams.append(name, value);
  return target.href;
}

/** A call to a Bearer-protected partner endpoint as the platform sends it (spec §4.2); without `token`, no Authorization header. */
export const resourceRequest = (url: string, token?: string): HttpRequest => ({
  method: 'GET',
  url,
  headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), accept: 'application/json' },
});

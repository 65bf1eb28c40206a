import { encodings, type Encoding } from '../checks/token-exchange';
import type { Profile } from '../shared/profile-schema';
import type { HttpRequest } from './http';

/** The requests the platform sends a partner (spec §4.2): the probes send them, and so does the emulator when it signs a user in. */

/** What the platform knows about a partner's token exchange: the profile, or the emulator's partner configuration. */
export type TokenClient = Pick<Profile, 'tokenExchangeUrl' | 'clientId' | 'clientSecret' | 'scope'>;

export type TokenParams = Partial<Record<'code' | 'grant_type' | 'client_id' | 'client_secret' | 'scope', string | undefined>>;

/**
 * The token request as the platform sends it (spec §4.2, §5.3): code and grant_type, plus client_id,
 * client_secret and scope only when the profile predefines them. `overrides` bends one parameter for
 * the negative cases; an override of `undefined` leaves the parameter out.
 */
export function tokenRequest(profile: TokenClient, encoding: Encoding, overrides: TokenParams): HttpRequest {
  const params: TokenParams = {
    grant_type: 'authorization_code',
    client_id: profile.clientId,
    client_secret: profile.clientSecret,
    scope: profile.scope,
    ...overrides,
  };
  const present = Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return {
    method: 'POST',
    url: profile.tokenExchangeUrl,
    headers: { 'content-type': encodings[encoding].contentType, accept: 'application/json' },
    body: encoding === 'json' ? JSON.stringify(present) : new URLSearchParams(present).toString(),
  };
}

/** A call to a Bearer-protected partner endpoint as the platform sends it (spec §4.2); without `token`, no Authorization header. */
export const resourceRequest = (url: string, token?: string): HttpRequest => ({
  method: 'GET',
  url,
  headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), accept: 'application/json' },
});

import { randomUUID } from 'node:crypto';
import type { Profile } from '../profile/profile-schema';
import { authUrl, mockLinkUrl } from '../profile/platform-urls';
import { mask } from '../redaction/redact';

/**
 * What says which run a result belongs to, and what it certified. A run's id is CERTIFY_RUN_ID: set it to
 * one value on every shard of a run (a CI run's id), so that the merge can tell its blobs from those of
 * another run; a run without it gets an id of its own. The targets and the profile's digest are taken
 * when the run starts, so a merge never reports the endpoints of the profile as it reads at merge time.
 */
export const runIdVariable = 'CERTIFY_RUN_ID';
const runIdShape = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

/** Why CERTIFY_RUN_ID cannot be a run id, naming the fix; undefined when it can, or is not set. */
export function runIdProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env[runIdVariable];
  if (given === undefined || given === '' || runIdShape.test(given)) return undefined;
  return `${runIdVariable}="${given.slice(0, 40)}" is not a run id: give letters, digits and . _ : - (at most 100), such as your CI run's id`;
}

/** The run's id: CERTIFY_RUN_ID (checked by runIdProblem before the run), or a new one; the plan hands it to the workers. */
export const runIdOf = (env: NodeJS.ProcessEnv = process.env): string => env[runIdVariable] || randomUUID();

/** A URL as a report may show it: where it goes, with its userinfo password and every query value masked. */
export function displayUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.password) parsed.password = mask;
  const query = [...parsed.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=${mask}`).join('&');
  parsed.search = '';
  return `${parsed.toString()}${query ? `?${query}` : ''}`;
}

/** The endpoints a run of this profile calls, by name, as a report shows them. */
export function targetsOf(profile: Profile | undefined): Record<string, string> {
  if (!profile) return {};
  const targets: Record<string, string | undefined> = {
    'token exchange': profile.tokenExchangeUrl,
    'account information': profile.accountInfoUrl,
    'funding sources': profile.fundingSourcesUrl,
    'mock link': profile.platform && mockLinkUrl(profile.platform.url),
    'auth URL': profile.platform && authUrl(profile.platform.url, profile.platform.partnerName),
    'data API': profile.dataApi?.baseUrl,
  };
  return Object.fromEntries(Object.entries(targets).flatMap(([name, url]) => (url === undefined ? [] : [[name, displayUrl(url)]])));
}

import { createHash, randomUUID } from 'node:crypto';
import type { Profile } from '../profile/profile-schema';
import { authUrl, mockLinkUrl } from '../profile/platform-urls';
import { mask, redactValue } from '../redaction/redact';
import type { Secret } from '../redaction/secrets';

/**
 * What says which run a result belongs to, and what it certified. A run's id is CERTIFY_RUN_ID: set it to
 * one value on every shard of a run (a CI run's id), so that the merge can tell its blobs from those of
 * another run; a run without it gets an id of its own. The targets and the profile's digest are taken
 * when the run starts, so a merge never reports the endpoints of the profile as it reads at merge time.
 */
export const runIdVariable = 'CERTIFY_RUN_ID';
const runIdShape = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

/** The run's id: CERTIFY_RUN_ID, or a new one set there for the workers; an unusable one is an error naming the fix. */
export function ensureRunId(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[runIdVariable];
  if (given === undefined || given === '') return (env[runIdVariable] = randomUUID());
  if (!runIdShape.test(given))
    throw new Error(`${runIdVariable}="${given.slice(0, 40)}" is not a run id: give letters, digits and . _ : - (at most 100), such as your CI run's id`);
  return given;
}

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

/** The SHA-256 of what a profile says, its secrets masked: two shards that ran one profile have one digest. */
export function profileDigest(profile: Profile, secrets: readonly Secret[]): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => [k, sorted(v)]),
          )
        : value;
  return createHash('sha256')
    .update(JSON.stringify(sorted(redactValue(profile, secrets))))
    .digest('hex');
}

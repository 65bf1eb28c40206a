import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadProfile } from '../../partners/profile';
import { type Profile } from '../../profile/profile-schema';
import type { Fault } from '../../sandbox/reference-partner/faults';
import type { HostileFault, LeakFault } from '../../sandbox/reference-partner/hostile';
import type { UserKey } from '../../sandbox/reference-partner/users';
import { tempDir } from './temp';

/**
 * partners/reference.json, pointed at a reference partner on `origin` with `faults` switched on:
 * every URL keeps its path behind the `/faults/<list>` prefix.
 */
export function referenceProfile(
  origin: string,
  faults: readonly (Fault | HostileFault | LeakFault)[] = [],
  { user = 'complete', collectMissingAccountInfo = false }: { user?: UserKey; collectMissingAccountInfo?: boolean } = {},
): Profile {
  const { profile } = loadProfile('partners/reference.json', {});
  if (!profile) throw new Error('partners/reference.json does not load');
  const prefix = faults.length > 0 ? `/faults/${faults.join(',')}` : '';
  const move = (url: string) => {
    const { pathname, search } = new URL(url);
    return `${origin}${prefix}${pathname}${search}`;
  };
  const base = profile.profile;
  return {
    ...base,
    tokenExchangeUrl: move(base.tokenExchangeUrl),
    accountInfoUrl: move(base.accountInfoUrl),
    ...(base.fundingSourcesUrl ? { fundingSourcesUrl: move(base.fundingSourcesUrl) } : {}),
    collectMissingAccountInfo,
    codes: { mintUrl: move(base.codes.mintUrl!).replace(/user=[^&]*/, `user=${user}`) },
  };
}

/** The partner's HTTP side of a profile (endpoints, client, codes), for a profile file of a test's own. */
export const endpointsOf = ({ tokenExchangeUrl, accountInfoUrl, fundingSourcesUrl, clientId, clientSecret, codes, tokenExchangeEncoding }: Profile) => ({
  tokenExchangeUrl,
  tokenExchangeEncoding,
  accountInfoUrl,
  ...(fundingSourcesUrl ? { fundingSourcesUrl } : {}),
  ...(clientId ? { clientId } : {}),
  ...(clientSecret ? { clientSecret } : {}),
  codes,
});

/** A PARTNERS_DIR of its own: each profile written as `<name>.json` in a new temporary folder. */
export function partnersDir(profiles: Record<string, object>): string {
  const dir = tempDir('partners-');
  for (const [name, profile] of Object.entries(profiles)) writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(profile, null, 2));
  return dir;
}

/** partners/reference.json under another name (on the platform too), with `faults` switched on: a PARTNERS_DIR. */
export function referenceAs(name: string, switchedOn: readonly Fault[] = []): string {
  const profile = referenceProfile('http://127.0.0.1:4400', switchedOn, { collectMissingAccountInfo: true });
  return partnersDir({ [name]: { ...profile, platform: { ...profile.platform!, partnerName: name } } });
}

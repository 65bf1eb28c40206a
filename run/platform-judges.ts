import { platformKey } from '../profile/host-key';
import type { Profile } from '../profile/profile-schema';

/**
 * The partner whose tests judge each platform for every partner of the run on it (DESIGN §4: the
 * platform's rules are the platform's, the same whichever partner signs on): by platform, a partner whose
 * platform set-up works (one whose credentials the platform refused judges it for no one, when another can),
 * then the one whose profile reaches the most of it (a data API, then funding sources to sync), then the
 * first by name. The preflight names the judge, and the certification reporter plans the run by it.
 */
export function platformJudges(partners: readonly { name: string; profile?: Profile }[], setupFailed: ReadonlySet<string> = new Set()): Record<string, string> {
  const failed = ({ name }: { name: string }) => (setupFailed.has(name) ? 1 : 0);
  const reach = ({ profile }: { profile?: Profile }) => (profile?.dataApi ? 2 : 0) + (profile?.fundingSourcesUrl ? 1 : 0);
  const onPlatform = partners.filter((partner) => partner.profile?.platform);
  const judges: Record<string, string> = {};
  for (const partner of onPlatform) {
    const key = platformKey(partner.profile!.platform!.url);
    const peers = onPlatform.filter((other) => platformKey(other.profile!.platform!.url) === key);
    judges[partner.name] = [...peers].sort((a, b) => failed(a) - failed(b) || reach(b) - reach(a) || a.name.localeCompare(b.name))[0]!.name;
  }
  return judges;
}

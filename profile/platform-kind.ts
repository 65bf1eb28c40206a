import { hostKey } from './host-key';
import type { PlatformProfile, Profile } from './profile-schema';

/** A URL on this machine, however its host is written (127.x.y.z, localhost, [::1], 0.0.0.0, a hosts-file name): where the bundled sandbox runs. */
export const onLoopback = (url: string) => hostKey(url)?.startsWith('loopback:') === true;

/** The bundled emulator runs on loopback; any other platform is one the harness did not write, unless the profile says otherwise. */
export const platformKind = (platform: Pick<PlatformProfile, 'kind' | 'url'>): 'emulator' | 'external' =>
  platform.kind ?? (onLoopback(platform.url) ? 'emulator' : 'external');

/** The data API's: the platform's kind when the profile has a platform block, otherwise by its own address. */
export const dataApiKind = (profile: Pick<Profile, 'platform' | 'dataApi'>): 'emulator' | 'external' | undefined =>
  profile.platform?.kind ?? (profile.dataApi ? (onLoopback(profile.dataApi.baseUrl) ? 'emulator' : 'external') : undefined);

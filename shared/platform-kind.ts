import type { PlatformProfile, Profile } from './profile-schema';

/** A host on this machine: where the bundled sandbox runs. */
export const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The bundled emulator runs on loopback; any other platform is one the harness did not write, unless the profile says otherwise. */
export const platformKind = (platform: Pick<PlatformProfile, 'kind' | 'url'>): 'emulator' | 'external' => platform.kind ?? (isLoopback(new URL(platform.url).hostname) ? 'emulator' : 'external');

/** The data API's: the platform's kind when the profile has a platform block, otherwise by its own address. */
export const dataApiKind = (profile: Pick<Profile, 'platform' | 'dataApi'>): 'emulator' | 'external' | undefined =>
  profile.platform?.kind ?? (profile.dataApi ? (isLoopback(new URL(profile.dataApi.baseUrl).hostname) ? 'emulator' : 'external') : undefined);

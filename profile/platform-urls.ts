/**
 * Where things live on a platform (spec §4.3, DESIGN §5): the harness builds these URLs to call the
 * platform, and the emulator serves them, so both read them here.
 */

export const mockLinkPath = '/v1/auth/providers/standard/create-mock-link';
/** The bundled emulator's own API: it learns a partner's configuration here. */
export const emulatorPartnerPath = (partnerName: string) => `/v1/emulator/partners/${partnerName}`;
export const authPath = (partnerName: string) => `/${partnerName}/auth`;

const trimmed = (url: string) => url.replace(/\/+$/, '');

/** `{base}/{partnerName}/auth`, the auth URL, for a platform at `base` (which may carry a path prefix). */
export const authUrl = (base: string, partnerName: string) => `${trimmed(base)}${authPath(partnerName)}`;
export const mockLinkUrl = (base: string) => `${trimmed(base)}${mockLinkPath}`;
export const emulatorPartnerUrl = (base: string, partnerName: string) => `${trimmed(base)}${emulatorPartnerPath(partnerName)}`;

import type { Profile } from './profile-schema';

/** Where `npm run sandbox` (and the configuration's webServer) serves the bundled sandbox. */
export const sandboxOrigins = {
  partner: 'http://127.0.0.1:4400',
  platform: 'http://127.0.0.1:4401',
  hostPage: 'http://127.0.0.1:4402',
  ledgerlyApi: 'http://127.0.0.1:4403',
  ledgerlyApp: 'http://127.0.0.1:4404',
  harborApi: 'http://127.0.0.1:4405',
  harborApp: 'http://127.0.0.1:4406',
  harborKeys: 'http://127.0.0.1:4407',
} as const;

/** Whether a profile calls the bundled sandbox, so a run of it needs the sandbox started. */
export function usesSandbox(profile: Profile): boolean {
  const urls = [
    profile.tokenExchangeUrl,
    profile.accountInfoUrl,
    profile.fundingSourcesUrl,
    profile.codes.mintUrl,
    profile.platform?.url,
    profile.dataApi?.baseUrl,
  ];
  const origins = new Set<string>(Object.values(sandboxOrigins));
  return urls.some((url) => url !== undefined && URL.canParse(url) && origins.has(new URL(url).origin));
}

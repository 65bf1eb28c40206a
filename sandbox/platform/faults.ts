/**
 * The platform emulator's faults: ways a platform can get sign-on wrong. Any emulator route also answers
 * under `/faults/<name>[,<name>…]/`; the browser and mock-link suites must catch each one
 * (test/self/platform-faults.spec.ts names the rule each must trip).
 */
export const platformFaults = {
  'posts-to-any-origin': "messages to the host are posted with targetOrigin '*', so any page that frames the app reads them",
  'skips-missing-info-screen': 'missing Yes* fields go straight to the app instead of the collection screen',
  'accepts-expired-jwt': 'an expired mock-link JWT still signs the user in',
  'allows-jwt-replay': 'a mock-link JWT can be used more than once',
  'no-frame-ancestors': 'the embedded screens send no CSP frame-ancestors, so any site can frame them',
  'no-referrer-policy': 'the landing page sends no Referrer-Policy, so the token in its URL can leak to other sites',
  'none-cookies-without-secure':
    "the session cookie is SameSite=None without Secure, which a browser drops: the app loses its sign-in inside the partner's iframe",
  'unescaped-html': 'the company name is written into the page as markup, not text',
  'blank-app': 'the auth URL answers a page with no screen at all: the app never renders, for anyone',
  // A conformant variation, which no rule may flag: a single-page app posts once a fetch of its own is done.
  'posts-late': 'conformant: posts its message to the host 1.5 s after the screen shows, as a single-page app does after a fetch',
  'posts-late-varied': 'conformant: posts its message to the host 0.4 s to 2 s after the screen shows, a delay drawn anew for every screen',
} as const satisfies Record<string, string>;

export type PlatformFault = keyof typeof platformFaults;
export const platformFaultNames = Object.keys(platformFaults) as PlatformFault[];
export const isPlatformFault = (name: string): name is PlatformFault => Object.hasOwn(platformFaults, name);

/** Faults of the data API (spec §2.2, §4.1), each caught by the data-API suite (test/self/data-api-faults.spec.ts). */
export const dataApiFaults = {
  'cursor-off-by-one': 'the page after a cursor starts one item too late, so an item is never served',
  'duplicate-at-page-boundary': 'the page after a cursor starts at the cursor item itself, so it is served twice',
  'has-more-on-last-page': '"hasMore" is true on the last page too',
  'ignores-organization-filter': '"organizationId" is ignored: every organization\'s items come back',
  'ignores-auth': 'a request without a valid Bearer token is served',
} as const satisfies Record<string, string>;

export type DataApiFault = keyof typeof dataApiFaults;
export const dataApiFaultNames = Object.keys(dataApiFaults) as DataApiFault[];
export const isDataApiFault = (name: string): name is DataApiFault => Object.hasOwn(dataApiFaults, name);
export const isEmulatorFault = (name: string) => isPlatformFault(name) || isDataApiFault(name);

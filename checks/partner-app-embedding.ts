import type { Issue } from './finding';
import type { Screen } from './sign-on-visit';

/** What the probe recorded of the partner's page at each load, and how a rule's problem names the loads it was seen at. */

/** One load of the partner's page, as the browser saw it. */
export interface EmbedLoad {
  /** Its number, in the order the page was loaded (the login's own landing on the page is the first). */
  n: number;
  /** `auth-error`: the probe swapped the framed code for one nobody issued, so no app is expected there. */
  purpose: 'sign-on' | 'auth-error';
  /** The frame's `src`, as the page wrote it. */
  src: string | undefined;
  /** Its `srcdoc` attribute is set: the page wrote the frame's document itself. */
  srcdoc?: boolean;
  sandbox: string | null;
  /** The page's Content-Security-Policy header. */
  csp: string | undefined;
  /** The browser reported no response for the page's document: its header policies are unknown. */
  headersUnseen?: boolean;
  /** Its <meta http-equiv="Content-Security-Policy"> elements' policies, enforced beside the header's. */
  metaCsp?: readonly string[];
  /** The URL of the document the frame held when its screen was read. */
  document?: string;
  /** The browser gave no access to the frame's document when it was read: what it held is unknown. */
  frameUnread?: boolean;
  /** Every address the frame was navigated to in this load, redirects included, in order. */
  navigations?: readonly string[];
  /** The platform's screen in the frame (after the collection screen was filled, where it came). */
  screen?: Screen;
  text?: string;
  /** The platform's ready message reached the page from one of its app origins; undefined where the profile names none. */
  ready?: boolean;
}

export interface Embedding {
  /** The partner's page, the CSP's 'self'. */
  page: string;
  loads: readonly EmbedLoad[];
  /** The platform's auth URL with `codeMarker` where the code goes: where the frame must point. */
  authUrl: string;
  /** The origins the platform's app is served from. */
  appOrigins: readonly string[];
}

/** `at loads 2, 3 of 5`: where a problem was seen. */
const loadsPhrase = (at: readonly number[], total: number) => `at load${at.length > 1 ? 's' : ''} ${at.join(', ')} of ${total}`;

/** One issue a problem, naming every load it was seen at: `at loads 2, 3: …`. */
export function perLoad(loads: readonly EmbedLoad[], problem: (load: EmbedLoad) => string | undefined, total = loads.length): Issue[] {
  const seen = new Map<string, number[]>();
  for (const load of loads) {
    const message = problem(load);
    if (message !== undefined) seen.set(message, [...(seen.get(message) ?? []), load.n]);
  }
  return [...seen].map(([message, at]) => ({ code: 'at-loads', message: `${loadsPhrase(at, total)}, ${message}`, params: { loads: at.join(',') } }));
}

/** Loads the browser left something of unread at: a rule cannot judge them there, and says so (not checked, never passed). */
function unreadAt(loads: readonly EmbedLoad[], unread: (load: EmbedLoad) => boolean | undefined, what: string): Issue[] {
  const at = loads.filter(unread).map((load) => load.n);
  return at.length === 0 ? [] : [{ code: 'unseen', message: `${loadsPhrase(at, loads.length)}, ${what}; run again`, outcome: 'not-checked' }];
}
export const unseen = (loads: readonly EmbedLoad[]) =>
  unreadAt(loads, (load) => load.headersUnseen, "the browser reported no response for the page's document, so its header policies could not be read");
export const unread = (loads: readonly EmbedLoad[]) =>
  unreadAt(loads, (load) => load.frameUnread, "the browser gave no access to the frame's document when it was read, so what it held is unknown");

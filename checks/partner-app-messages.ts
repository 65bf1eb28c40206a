import type { Rule } from './finding';

/** Rules on how the partner's page handles the messages it receives: only the platform's acted on, whatever the channel, and the platform's error shown. */

/** Where a forged message came from, as a page can receive one. */
export type Channel = 'opened-window' | 'inner-frame' | 'opener' | 'parent';
export const channelNames: Record<Channel, string> = {
  'opened-window': 'a window the page opened',
  'inner-frame': 'a frame inside the page',
  opener: 'the window that opened the page',
  parent: 'a page that frames it',
};

/** What one channel showed: the foreign origin the page acted on, if any, or why nothing could be posted through it. */
export interface ChannelResult {
  channel: Channel;
  /** The foreign origins that posted through it. */
  origins: readonly string[];
  reactedTo?: string;
  /** The same message from the platform's own origin through this channel: acted on, ignored, or why it could not be sent. */
  control?: boolean | string;
  /** Why no foreign origin could post through it (the browser refused the frame or the window). */
  closed?: string;
}

export const actsOnPlatformMessagesOnly: Rule<{ channels: readonly ChannelResult[] }> = {
  id: 'sign-on/partner-app/message-origin',
  owner: 'partner',
  field: 'event.origin',
  clause: 'HTML postMessage',
  level: 'MUST',
  requirement:
    "the partner's page acts only on messages from the platform's origins, through every channel it can receive from (windows it opens, its opener, frames inside it, a page that frames it), look-alike origins included",
  impact: "any page that can post to the partner's window (one it frames, opens, or is opened or framed by) makes it show a sign-on state of its choosing",
  must: { othersIn: "any page that can post to the partner's window drives its sign-on state" },
  check: ({ channels }) =>
    channels.flatMap(({ channel, reactedTo }) =>
      reactedTo === undefined
        ? []
        : [
            {
              code: 'heeded-foreign',
              message: `a message posted from ${reactedTo} through ${channelNames[channel]} made the page show its sign-on error; compare event.origin exactly (===) with the platform's origin before acting on a message, whatever window sent it`,
              params: { channel, origin: reactedTo },
            },
          ],
    ),
};

export const authErrorShown: Rule<{ shown: boolean; message: unknown; locator: string; waitedMs: number }> = {
  id: 'sign-on/partner-app/auth-error-shown',
  owner: 'partner',
  field: 'partnerApp.authError',
  clause: 'spec §7.1',
  level: 'MUST',
  requirement: "when the platform posts its authentication error to the partner's page, the page shows the user that sign-on failed",
  impact: 'a user whose sign-on failed looks at an empty or stuck frame, with nothing to tell them why or what to do',
  must: { spec: 'spec §7.1: the service posts an authentication error message to the host application' },
  check: ({ shown, message, locator, waitedMs }) =>
    shown
      ? []
      : [
          {
            code: 'error-not-shown',
            message: `the platform posted ${JSON.stringify(message)} to the page, and ${locator} did not show within ${waitedMs / 1000} s; show the user the failure when the platform's error message arrives`,
          },
        ],
};

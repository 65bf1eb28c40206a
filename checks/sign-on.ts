import { isObject } from './evidence';
import type { Issue, Owner, Rule } from './finding';
import { collectionCompletes, collectionScreenShown, inlineErrorShown } from './sign-on-collect';
import {
  describe,
  fromWhere,
  received,
  screenNames,
  screenRule,
  shownText,
  type MessageVocabulary,
  type ReceivedMessage,
  type Screen,
  type Visit,
} from './sign-on-visit';

/**
 * Rules on what sign-on shows: what a browser saw in the embedded app and in the host page that frames it. The probes observe; these rules only judge the observation.
 * The visit they judge is in sign-on-visit.ts, the collection screen's rules in sign-on-collect.ts; signOnRules lists them all.
 */

/**
 * The app shown, and the host told so, on each path: on the code path the platform exchanges a fresh code
 * with the partner and reads its account information, so these are the partner's (the only browser rules a
 * partner can move); on the mock-link path nothing of the partner's is called, so they are the platform's.
 */
function appShownOn(id: string, owner: Owner, how: string): Rule<Visit & { expected: readonly string[] }> {
  return {
    id,
    owner,
    field: 'screen',
    clause: 'spec §1',
    level: 'MUST',
    requirement: `${how} lands in the app, which shows the user's name and company`,
    impact: 'users who sign on do not reach the payments app',
    must: { signOn: 'the user does not reach the app', spec: 'spec §1: the web app is embedded through SSO' },
    check: (visit) => {
      if (visit.screen !== 'app') return [{ code: 'screen', message: `the frame showed ${screenNames[visit.screen]} (${shownText(visit.text)}), not the app` }];
      return visit.expected
        .filter((text) => !visit.text.includes(text))
        .map((text) => ({ code: 'text-missing', message: `the app does not show ${JSON.stringify(text)}` }));
    },
  };
}

function navigatedOn(id: string, owner: Owner, how: string): Rule<Visit> {
  return {
    id,
    owner,
    field: 'message',
    clause: 'harness §messages',
    level: 'MUST',
    requirement: `after ${how}, the host receives NAVIGATED_TO_TARGET from the platform when the app is shown`,
    impact: "the partner's app never learns that the embedded app is ready",
    must: { signOn: 'a host that waits for the message to show the app never shows it' },
    emulatorChoice: { field: 'platform.messages', what: 'the message posted when the app is shown' },
    check: (visit) =>
      received(visit, 'ready').length === 1
        ? []
        : [{ code: 'ready', message: `the host received ${describe(visit)}; expected one ${visit.vocabulary.ready} from ${fromWhere(visit)}` }],
  };
}

const codePath = "sign-on with a fresh code (the partner's token exchange and account information)";
const linkPath = 'sign-on with a mock link';
export const appShown = appShownOn('sign-on/app/shown', 'partner', codePath);
export const navigatedMessage = navigatedOn('sign-on/message/navigated', 'partner', codePath);
export const linkAppShown = appShownOn('sign-on/mock-link-app/shown', 'platform', linkPath);
export const linkNavigatedMessage = navigatedOn('sign-on/mock-link-message/navigated', 'platform', linkPath);

export const errorShown = screenRule(
  'sign-on/error/shown',
  'error',
  'spec §7.1',
  'account information without its required data leads to the error screen',
  'users with incomplete data get into the app, and the platform fails later',
);

export const authenticationErrorMessage: Rule<Visit> = {
  id: 'sign-on/message/authentication-error',
  owner: 'platform',
  field: 'message',
  clause: 'spec §7.1',
  level: 'MUST',
  requirement: 'on the error screen the host receives AUTHENTICATION_ERROR with a reason',
  impact: "the partner's app cannot tell the user what went wrong",
  must: { spec: 'spec §7.1: the service posts an authentication error message to the host' },
  emulatorChoice: { field: 'platform.messages', what: 'the name and shape of the authentication error message' },
  check: (visit) => {
    const [message] = received(visit, 'error');
    const reason = message && isObject(message.data) ? message.data[visit.vocabulary.reasonKey] : undefined;
    if (typeof reason === 'string' && reason !== '') return [];
    return [
      {
        code: 'error-message',
        message: `the host received ${describe(visit)}; expected ${visit.vocabulary.error} with a "${visit.vocabulary.reasonKey}" from ${fromWhere(visit)}`,
      },
    ];
  },
};

/** The app's funding sources after a sign-on in which the platform knew `seeded`, which the partner does not list. */
export interface FundingVisit extends Visit {
  shownIds: readonly string[];
  partnerIds: readonly string[];
  seeded: string;
  /** Sign-ons with the shorter list the source was looked for after, when more than one: the test user's other sign-ons, running at once, list it again. */
  signOns?: number;
}

export const fundingSynced: Rule<FundingVisit> = {
  id: 'sign-on/funding/sync',
  owner: 'platform',
  field: 'fundingSources[].id',
  clause: 'spec §4.2 sync',
  level: 'MUST',
  requirement: "after sign-on the app lists exactly the partner's funding sources: new ids added, ids no longer listed removed",
  impact: 'users pay from accounts they removed, or miss accounts they added',
  must: { spec: 'spec §4.2: sources are added, and those no longer listed removed' },
  check: (visit) => {
    if (visit.screen !== 'app') return [{ code: 'screen', message: `the frame showed ${screenNames[visit.screen]} (${shownText(visit.text)}), not the app` }];
    const issues: Issue[] = [];
    if (visit.shownIds.includes(visit.seeded))
      issues.push({
        code: 'still-shown',
        message: `"${visit.seeded}", which the partner no longer lists, is still shown${visit.signOns ? ` after each of ${visit.signOns} sign-ons with the shorter list` : ''}`,
      });
    const missing = visit.partnerIds.filter((id) => !visit.shownIds.includes(id));
    if (missing.length > 0)
      issues.push({
        code: 'not-shown',
        message: `the partner's ${missing.map((id) => `"${id}"`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not shown`,
      });
    return issues;
  },
};

/** A host page on another origin than the configured one. */
export interface ForeignVisit {
  /** With the page's CSP in force: what the foreign frame rendered. */
  framed: Screen;
  /** The platform's document the browser let the foreign frame load; undefined where it refused the frame. */
  document?: string;
  /** With the CSP taken off by the test: what the foreign host received. */
  messages: readonly ReceivedMessage[];
  vocabulary: MessageVocabulary;
  foreignOrigin: string;
}

export const foreignHostCannotFrame: Rule<ForeignVisit> = {
  id: 'sign-on/frame/foreign-host-blocked',
  owner: 'platform',
  field: 'content-security-policy',
  clause: 'CSP3 frame-ancestors',
  level: 'MUST',
  requirement: "a page on another origin than the partner's host cannot frame the embedded app",
  impact: 'any site can frame the app and trick signed-in users into clicks (clickjacking)',
  must: { othersIn: "a site that frames the signed-in app steers the user's clicks: payments the user never meant" },
  // By effect: the browser let the platform's page load in the foreign frame (whatever it then rendered), or it showed a screen.
  check: (visit) =>
    visit.framed === 'none' && visit.document === undefined
      ? []
      : [
          {
            code: 'framed',
            message: `${visit.foreignOrigin} framed the app${visit.document ? ` (the browser loaded ${visit.document.split('?')[0]} there)` : ''} and saw ${screenNames[visit.framed]}; send "frame-ancestors <host origin>"`,
          },
        ],
};

export const messagesToHostOnly: Rule<ForeignVisit> = {
  id: 'sign-on/message/exact-origin',
  owner: 'platform',
  field: 'message',
  clause: 'harness §messages',
  level: 'MUST',
  requirement: "messages are posted to the partner's host origin only, never to '*'",
  impact: 'any page that frames the app reads the sign-on messages',
  must: { othersIn: 'any page that frames the app reads the sign-on messages' },
  check: (visit) =>
    visit.messages.length === 0
      ? []
      : [{ code: 'posted', message: `a host on ${visit.foreignOrigin} received ${describe(visit)}; post to the configured host origin, not '*'` }],
};

export const partnerDataEscaped: Rule<Visit & { injected: boolean; markup: string }> = {
  id: 'sign-on/html/escaped',
  owner: 'platform',
  field: 'company.name',
  clause: 'harness §escaping',
  level: 'MUST',
  requirement: 'partner data is shown as text, never as markup',
  impact: 'a partner record carrying markup runs inside the payments app (cross-site scripting)',
  must: { othersIn: "markup in a partner's record runs in the payments app, with the user's session" },
  check: (visit) => {
    if (visit.injected)
      return [{ code: 'injected', message: `a company name of ${JSON.stringify(visit.markup)} became an element of the page; escape partner data` }];
    return visit.text.includes(visit.markup)
      ? []
      : [{ code: 'not-shown', message: `the app does not show the company name ${JSON.stringify(visit.markup)} as text` }];
  },
};

/** Every rule of sign-on in the browser through the harness's own host page (the partner's own page: partner-app.ts). */
export const signOnRules = [
  appShown,
  navigatedMessage,
  linkAppShown,
  linkNavigatedMessage,
  errorShown,
  authenticationErrorMessage,
  collectionScreenShown,
  inlineErrorShown,
  collectionCompletes,
  fundingSynced,
  foreignHostCannotFrame,
  messagesToHostOnly,
  partnerDataEscaped,
] as const;

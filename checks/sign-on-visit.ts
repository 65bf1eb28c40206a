import type { ClauseId } from './clauses';
import { isObject } from './evidence';
import type { Rule } from './finding';

/** What a browser saw at sign-on (a visit of the auth URL inside a host page), how the rules quote it, and the rule on which screen it showed. */

export type Screen = 'app' | 'error' | 'collect' | 'none';

export interface ReceivedMessage {
  /** `event.origin` as the host page saw it. */
  origin: string;
  data: unknown;
}

/** One visit of the auth URL inside a host page. */
export interface Visit {
  screen: Screen;
  /** The visible text of the embedded screen. */
  text: string;
  messages: readonly ReceivedMessage[];
  /** The origins the embedded app is served from: messages must come from one of them. */
  platformOrigins: readonly string[];
  /** What the platform calls its messages. */
  vocabulary: MessageVocabulary;
  /** How long after its screen showed the screen's own message arrived, when it did. */
  messageAfterMs?: number;
}

export const screenNames: Record<Screen, string> = {
  app: 'the app',
  error: 'the error screen',
  collect: 'the collection screen',
  none: 'nothing (the frame did not render)',
};
/** What a platform calls the messages it posts to the host: the spec leaves them open ("Events: not shown"). */
export interface MessageVocabulary {
  typeKey: string;
  ready: string;
  error: string;
  reasonKey: string;
}
/** The bundled emulator's. */
export const emulatorMessages: MessageVocabulary = { typeKey: 'type', ready: 'NAVIGATED_TO_TARGET', error: 'AUTHENTICATION_ERROR', reasonKey: 'reason' };

export const messageType = (message: ReceivedMessage, vocabulary: MessageVocabulary) => (isObject(message.data) ? message.data[vocabulary.typeKey] : undefined);
/** The messages of one kind the host received from the platform's own origins. */
export const received = (visit: Visit, kind: 'ready' | 'error') =>
  visit.messages.filter((message) => messageType(message, visit.vocabulary) === visit.vocabulary[kind] && visit.platformOrigins.includes(message.origin));
export const fromWhere = (visit: Visit) => visit.platformOrigins.join(' or ');
/** A screen's text, quoted whole (a reason code cut short tells a partner nothing), within a bound. */
const longestQuote = 2_000;
export const shownText = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > longestQuote ? `${flat.slice(0, longestQuote)}…` : flat);
};

/** The messages a host received, as a finding quotes them. */
export function describe({ messages, vocabulary }: Pick<Visit, 'messages' | 'vocabulary'>): string {
  if (messages.length === 0) return 'no message';
  const reasonOf = (m: ReceivedMessage) =>
    isObject(m.data) && typeof m.data[vocabulary.reasonKey] === 'string' ? ` (${vocabulary.reasonKey} ${JSON.stringify(m.data[vocabulary.reasonKey])})` : '';
  return messages.map((m) => `${JSON.stringify(messageType(m, vocabulary) ?? m.data)}${reasonOf(m)} from ${m.origin}`).join(', ');
}

// Every screen rule judges the platform's app: what a partner sends decides which screen, not whether it shows.
export function screenRule(id: string, screen: Screen, clause: ClauseId, requirement: string, impact: string): Rule<Visit> {
  return {
    id,
    owner: 'platform',
    field: 'screen',
    clause,
    level: 'MUST',
    must: { spec: `${clause}: ${requirement}` },
    requirement,
    impact,
    check: (visit) =>
      visit.screen === screen
        ? []
        : [{ code: 'screen', message: `the frame showed ${screenNames[visit.screen]} (${shownText(visit.text)}), not ${screenNames[screen]}` }],
  };
}

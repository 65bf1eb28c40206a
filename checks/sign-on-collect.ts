import { accountInfoFieldRules } from './account-info';
import type { Issue, Rule } from './finding';
import type { Payload } from './payload';
import { valueAt } from './paths';
import { screenNames, screenRule, shownText, type Visit } from './sign-on-visit';

/** The collection screen (spec §7.2): the missing Yes* fields it must ask for, its inline errors, and the app once they are typed. */

/**
 * Spec §2.3 and §7.2: the fields a collection screen must ask for when the account information leaves them
 * out: its Yes* string fields (a missing address is its Yes* parts), either spelling counting as there.
 * Read from the spec's table as the field rules carry it, not from what a platform (or the emulator) decides.
 */
export function missingYesStarFields(accountInfo: Payload): string[] {
  const spelledAs = (path: string, spelling: string) => `${path.slice(0, path.lastIndexOf('.') + 1)}${spelling}`;
  const absent = (path: string) => valueAt(accountInfo, path) === undefined || valueAt(accountInfo, path) === null;
  return accountInfoFieldRules
    .filter((rule) => rule.judges === 'presence' && rule.subject.marker === 'Yes*' && rule.subject.kind === 'string')
    .map((rule) => rule.subject)
    .filter((field) => absent(field.path) && (field.spellings ?? []).every((spelling) => absent(spelledAs(field.path, spelling))))
    .map((field) => field.path);
}

/** The collection screen and the field paths it asks for. */
export interface CollectVisit extends Visit {
  fields: readonly string[];
  expectedFields: readonly string[];
}

export const collectionScreenShown: Rule<CollectVisit> = {
  id: 'sign-on/collect/fields',
  owner: 'platform',
  field: 'screen',
  clause: 'spec §7.2',
  level: 'MUST',
  requirement: 'with CollectMissingAccountInfo, missing Yes* fields lead to a screen that asks for exactly those fields',
  impact: 'users are not asked for the details the partner did not send, and the platform lacks them later',
  must: { spec: 'spec §7.2: a screen collecting the missing required data' },
  check: (visit) => {
    if (visit.screen !== 'collect')
      return [{ code: 'screen', message: `the frame showed ${screenNames[visit.screen]} (${shownText(visit.text)}), not the collection screen` }];
    const extra = visit.fields.filter((field) => !visit.expectedFields.includes(field));
    const missing = visit.expectedFields.filter((field) => !visit.fields.includes(field));
    return [
      ...missing.map((field) => ({ code: 'not-asked', field, message: `the collection screen does not ask for "${field}"` })),
      ...extra.map((field) => ({ code: 'asked-extra', field, message: `the collection screen asks for "${field}", which the partner sent` })),
    ];
  },
};

export const inlineErrorShown: Rule<CollectVisit & { invalidField: string; errors: Readonly<Record<string, string>> }> = {
  id: 'sign-on/collect/inline-error',
  owner: 'platform',
  field: 'screen',
  clause: 'spec §7.2',
  level: 'MUST',
  requirement: 'an invalid typed value keeps the user on the collection screen with an error beside that field',
  impact: 'users can type invalid details that the platform then rejects later',
  must: { signOn: 'a user who typed an invalid value is refused later, with no word of which field' },
  emulatorChoice: { field: 'platform.screens.fieldErrors', what: 'an error shown beside the field on the collection screen' },
  check: (visit): Issue[] => {
    if (visit.screen !== 'collect')
      return [{ code: 'screen', message: `after an invalid "${visit.invalidField}" the frame showed ${screenNames[visit.screen]}, not the collection screen` }];
    return visit.errors[visit.invalidField]
      ? []
      : [{ code: 'no-inline-error', field: visit.invalidField, message: `no error is shown beside "${visit.invalidField}"` }];
  },
};

export const collectionCompletes = screenRule(
  'sign-on/collect/completes',
  'app',
  'spec §7.2',
  'once the typed details are valid, the user reaches the app',
  'users who typed their details are stuck before the app',
);

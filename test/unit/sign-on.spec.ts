import { expect, test } from '@playwright/test';
import { signOnDecision, typedValueProblems } from '../../checks/sign-on-decision';
import { syncFundingSources, type KnownSource } from '../../sandbox/platform/funding';
import { html, styleSheet, unsafeRaw } from '../../html/template';
import { users } from '../../sandbox/reference-partner/users';

const now = new Date('2026-11-21T12:00:00Z');
const collecting = { now, collectMissingAccountInfo: true };
const strict = { now, collectMissingAccountInfo: false };
const complete = () => structuredClone(users.complete.data().accountInfo) as Record<string, Record<string, unknown>>;
const minimal = () => structuredClone(users.minimal.data().accountInfo);

test('complete account information goes straight to the app', () => {
  expect(signOnDecision(complete(), strict)).toEqual({ screen: 'app', beforePayment: [] });
});

test('missing Yes* fields are collected with CollectMissingAccountInfo, as string fields; a missing address becomes its four parts', () => {
  const decision = signOnDecision(minimal(), collecting);
  expect(decision.screen).toBe('collect');
  const paths = decision.screen === 'collect' ? decision.fields.map((field) => field.path) : [];
  expect(paths).toEqual([
    'user.firstName',
    'user.lastName',
    'user.phone',
    'user.dateOfBirth',
    'company.name',
    ...['line1', 'city', 'state', 'postalcode'].map((part) => `company.address.${part}`),
    ...['line1', 'city', 'state', 'postalcode'].map((part) => `company.legalAddress.${part}`),
  ]);
});

test('without CollectMissingAccountInfo a missing Yes* field is the error screen; a missing user.email always is (spec §7.2)', () => {
  expect(signOnDecision(minimal(), strict)).toMatchObject({ screen: 'error', reason: 'MISSING_REQUIRED_ACCOUNT_INFO' });
  const info = complete();
  delete info.user!.email;
  expect(signOnDecision(info, collecting)).toMatchObject({ screen: 'error', reason: 'MISSING_REQUIRED_ACCOUNT_INFO' });
});

test('present but invalid data is the error screen even with collection, with the rule messages as problems', () => {
  const info = complete();
  info.user!.lastName = "O'Brien";
  const decision = signOnDecision(info, collecting);
  expect(decision).toMatchObject({ screen: 'error', reason: 'INVALID_ACCOUNT_INFO' });
  expect(decision.screen === 'error' && decision.problems.map((p) => p.rule)).toEqual(['account-info/user.lastName/pattern']);
});

test('typed values are judged by the same rules: blanks are required, invalid values get the rule message, valid ones pass', () => {
  const info = complete();
  delete info.user!.phone;
  delete info.company!.legalAddress;
  const decision = signOnDecision(info, collecting);
  if (decision.screen !== 'collect') throw new Error(`expected the collection screen, got ${decision.screen}`);
  const typed = {
    'user.phone': '212 555 0142',
    'company.legalAddress.line1': 'PO Box 12',
    'company.legalAddress.city': 'Springfield',
    'company.legalAddress.state': 'IL',
  };
  const { problems } = typedValueProblems(info, decision.fields, typed, collecting);
  expect(Object.keys(problems).sort()).toEqual(['company.legalAddress.line1', 'company.legalAddress.postalcode', 'user.phone']);
  expect(problems['company.legalAddress.postalcode']).toBe('required');
  expect(problems['user.phone']).toContain('"user.phone" is "212 555 0142"');
  const fixed = { ...typed, 'user.phone': '212-555-0142', 'company.legalAddress.line1': '12 Main Street', 'company.legalAddress.postalcode': '62701' };
  const accepted = typedValueProblems(info, decision.fields, fixed, collecting);
  expect(accepted.problems).toEqual({});
  expect(signOnDecision(accepted.merged, collecting)).toEqual({ screen: 'app', beforePayment: [] });
});

test('funding sync (spec §4.2) adds new ids, removes vanished ones, keeps only the last 4 digits, and ignores an invalid list', () => {
  const known = new Map<string, KnownSource>([['gone', { id: 'gone' }]]);
  const listed = { fundingSources: users.complete.data().fundingSources };
  expect(syncFundingSources(known, listed, now)).toEqual({ added: ['fs-3001', 'fs-3002'], removed: ['gone'] });
  expect([...known.values()]).toEqual([
    { id: 'fs-3001', nickname: 'Operating account', last4: '6789' },
    { id: 'fs-3002', nickname: 'Payroll', last4: '4321' },
  ]);
  expect(syncFundingSources(known, listed, now)).toEqual({ added: [], removed: [] });
  const invalid = syncFundingSources(known, { fundingSources: [{ id: 'x', type: 'card' }] }, now);
  expect(invalid).toMatchObject({ added: [], removed: [], notice: expect.stringContaining('Funding sources were not updated') });
  expect([...known.keys()]).toEqual(['fs-3001', 'fs-3002']);
});

test("a stylesheet is the harness's own text, unescaped (an escaped quote or > matches nothing), and cannot close its element", () => {
  expect(styleSheet('p[data-verdict="NOT CHECKED"]>strong{color:grey}').text).toBe('<style>p[data-verdict="NOT CHECKED"]>strong{color:grey}</style>');
  expect(styleSheet('a{}</style><script>').text).toBe('<style>a{}<\\/style><script></style>');
});

test('html escapes every interpolation, arrays included, unless it is html itself', () => {
  const name = `<img src=x onerror="alert('x')"> & co`;
  expect(html`<p>${name}</p>${[html`<b>${'<i>'}</b>`]}${unsafeRaw('<hr>')}`.text).toBe(
    '<p>&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; co</p><b>&lt;i&gt;</b><hr>',
  );
});

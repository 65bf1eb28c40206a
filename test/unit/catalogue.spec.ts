import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { accountInfoFieldRules } from '../../checks/account-info';
import { allRules, catalogue, publishedSchemas, sensitiveFields } from '../../checks/catalogue';
import { sensitiveKeys } from '../../checks/sensitive-fields';
import { groundsOf } from '../../checks/grounds';
import { evaluateAll, failed } from '../../checks/finding';
import { fundingSourceRules } from '../../checks/funding-sources';
import { lastSegment, type Payload, type PayloadRule } from '../../checks/payload';
import { faultCatalogue, faultNames, type FaultSpec } from '../../sandbox/reference-partner/faults';
import { bodyOf } from '../../sandbox/reference-partner/resources';
import { userKeys } from '../../sandbox/reference-partner/users';
import { allProbes } from '../../probes/certification';
import { generatedFiles } from '../../scripts/generated-files';
import { specRows } from '../../scripts/spec-tables';

const now = new Date('2026-11-21T12:00:00Z');

test("every row of the spec's field tables has rules, with the spec's own marker", () => {
  const rows = specRows();
  expect(rows.length).toBe(31); // 19 account-information rows, 5 Address rows, fundingSources and its 6 fields
  const rules = [...accountInfoFieldRules, ...fundingSourceRules];
  for (const row of rows) {
    const covering = rules.filter((rule) => rule.subject.row?.table === row.table && rule.subject.row.property === row.property);
    expect(covering.length, `${row.table}: ${row.property}`).toBeGreaterThan(0);
    expect([...new Set(covering.map((rule) => rule.subject.marker))], `${row.table}: ${row.property}`).toEqual([row.marker]);
  }
  const known = new Set(rows.map((row) => `${row.table}: ${row.property}`));
  const invented = rules.filter((rule) => rule.subject.row && !known.has(`${rule.subject.row.table}: ${rule.subject.row.property}`));
  expect(invented.map((rule) => rule.id)).toEqual([]);
});

test('generated files are up to date (run `npm run generate`)', () => {
  for (const [file, content] of Object.entries(generatedFiles())) expect(readFileSync(file, 'utf8'), file).toBe(content);
});

test('docs/RULES.md lists every spec row and every rule', () => {
  const doc = generatedFiles()['docs/RULES.md']!;
  expect(doc).not.toContain('**no rule**');
  for (const rule of [...accountInfoFieldRules, ...fundingSourceRules]) expect(doc).toContain(`\`${rule.id}\``);
});

// ---- the published schemas agree with the catalogue -----------------------------------------------------

// What ajv and ajv-cli only warn about is an error here: a partner compiling these schemas gets no warning.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const validators = Object.fromEntries(Object.entries(publishedSchemas).map(([name, schema]) => [name, ajv.compile(schema)]));

/** What the schema can say: the verdict of the rules that carry a schema fragment, and of presence. */
const schemaBacked = (rules: readonly PayloadRule[]) => rules.filter((rule) => rule.schema || rule.judges === 'presence');

function corpus(): { name: string; account: Payload; funding: Payload }[] {
  const users = userKeys.map((user) => ({
    name: `user ${user}`,
    account: bodyOf('account-info', user, now, new Set()),
    funding: bodyOf('funding-sources', user, now, new Set()),
  }));
  const faults = faultNames
    .filter((fault) => {
      const spec: FaultSpec = faultCatalogue[fault];
      return spec.account !== undefined || spec.funding !== undefined;
    })
    .map((fault) => ({
      name: `fault ${fault}`,
      account: bodyOf('account-info', 'complete', now, new Set([fault])),
      funding: bodyOf('funding-sources', 'complete', now, new Set([fault])),
    }));
  return [...users, ...faults].map((entry) => ({ ...entry, account: entry.account as Payload, funding: entry.funding as Payload }));
}

test("each published schema accepts exactly what the catalogue's schema-backed rules pass, on every user and fault", () => {
  const entries = corpus();
  expect(entries.length).toBeGreaterThan(100);
  const cases = [
    { schema: 'account-info.schema.json', rules: schemaBacked(accountInfoFieldRules), payload: 'account', collect: false },
    { schema: 'account-info.collect-missing.schema.json', rules: schemaBacked(accountInfoFieldRules), payload: 'account', collect: true },
    { schema: 'funding-sources.schema.json', rules: schemaBacked(fundingSourceRules), payload: 'funding', collect: false },
  ] as const;
  const disagreements: string[] = [];
  for (const { schema, rules, payload, collect } of cases) {
    for (const entry of entries) {
      const failures = failed(evaluateAll(rules, entry[payload], { now, collectMissingAccountInfo: collect })).map((f) => f.rule);
      const valid = validators[schema]!(entry[payload]);
      if (valid !== (failures.length === 0))
        disagreements.push(
          `${schema} on ${entry.name}: schema ${valid ? 'accepts' : 'rejects'}, rules fail [${failures.join(', ')}] ${JSON.stringify(validators[schema]!.errors?.slice(0, 2))}`,
        );
    }
  }
  expect(disagreements).toEqual([]);
});

test('the minimal user fits only the collect-missing schema', () => {
  const minimal = bodyOf('account-info', 'minimal', now, new Set());
  expect(validators['account-info.collect-missing.schema.json']!(minimal)).toBe(true);
  expect(validators['account-info.schema.json']!(minimal)).toBe(false);
});

test('the probes own every rule of the catalogue, each exactly once, in their own area', () => {
  const owners = new Map<string, string[]>();
  for (const probe of allProbes) {
    expect(probe.id.startsWith(`${probe.area}/`), probe.id).toBe(true);
    for (const rule of probe.rules) {
      owners.set(rule.id, [...(owners.get(rule.id) ?? []), probe.id]);
      expect(rule.id.startsWith(`${probe.area}/`), `${probe.id} owns ${rule.id}`).toBe(true);
    }
  }
  const ownedTwice = [...owners].filter(([, probes]) => probes.length > 1).map(([rule, probes]) => `${rule}: ${probes.join(', ')}`);
  expect(ownedTwice).toEqual([]);
  expect(allRules.map((rule) => rule.id).filter((id) => !owners.has(id))).toEqual([]);
  expect([...owners.keys()].filter((id) => !allRules.some((rule) => rule.id === id))).toEqual([]);
  // A rule a probe judges on a call of its own is still owned by exactly one probe.
  for (const probe of allProbes) for (const rule of probe.alsoJudges ?? []) expect(owners.get(rule.id), `${probe.id} also judges ${rule.id}`).toHaveLength(1);
});

test("every rule has an owner: the partner's endpoints and data, the code path of sign-on and the partner's own app are the partner's, the rest the platform's", () => {
  expect(allRules.filter((rule) => rule.owner !== 'partner' && rule.owner !== 'platform').map((rule) => rule.id)).toEqual([]);
  const partnerAreas = ['token-exchange', 'account-info', 'funding-sources'];
  const codePath = ['sign-on/app/shown', 'sign-on/message/navigated'];
  const expectedOwner = (id: string) =>
    partnerAreas.includes(id.split('/')[0]!) || codePath.includes(id) || id.startsWith('sign-on/partner-app/') ? 'partner' : 'platform';
  expect(allRules.filter((rule) => rule.owner !== expectedOwner(rule.id)).map((rule) => `${rule.id}: ${rule.owner}`)).toEqual([]);
  expect(allRules.filter((rule) => rule.owner === 'platform').length).toBe(51);
  // A probe judges one party's rules only, so a platform's probe can run once for every partner on it.
  for (const probe of allProbes) expect(new Set([...probe.rules, ...(probe.alsoJudges ?? [])].map((rule) => rule.owner)).size, probe.id).toBeLessThanOrEqual(1);
});

test("every platform rule rests on the spec, a value the profile states, or an effect a browser or client suffers (DESIGN §5): never on our emulator's shape alone", () => {
  const platformRules = allRules.filter((rule) => rule.owner === 'platform');
  expect(platformRules.filter((rule) => groundsOf(rule).length === 0).map((rule) => rule.id)).toEqual([]);
  // A choice of our emulator's is a requirement only where the profile states that platform's own.
  expect(platformRules.filter((rule) => rule.emulatorChoice && !rule.emulatorChoice.field).map((rule) => rule.id)).toEqual([]);
  // The audit fails on a rule with none: one resting on our emulator's JSON shape alone.
  expect(groundsOf({ emulatorChoice: { what: 'a JSON error' } })).toEqual([]);
  expect(groundsOf({ effect: 'the engineer cannot tell which field to fix' }).map((ground) => ground.kind)).toEqual(['effect']);
});

test('a rule is MUST only on the grounds of DESIGN §4, each in words: it breaks sign-on (a), lets others in (b), or the spec requires it (c)', () => {
  const grounds = (rule: (typeof allRules)[number]) =>
    Object.entries(rule.must ?? {}).filter(([, words]) => typeof words === 'string' && words.trim().length >= 10);
  expect(allRules.filter((rule) => rule.level === 'MUST' && grounds(rule).length === 0).map((rule) => rule.id)).toEqual([]);
  expect(allRules.filter((rule) => rule.level !== 'MUST' && rule.must !== undefined).map((rule) => rule.id)).toEqual([]);
  // The audit of issue 33: what an RFC says MUST of but neither breaks sign-on nor lets anyone in is SHOULD.
  const levelOf = (id: string) => allRules.find((rule) => rule.id === id)?.level;
  for (const id of [
    'token-exchange/get-refused',
    'token-exchange/credentials-in-uri-refused',
    'token-exchange/unknown-code-invalid-grant',
    'account-info/refusal-status',
    'account-info/unique-keys',
    'token-exchange/no-proto-keys',
  ])
    expect(levelOf(id), id).toBe('SHOULD');
  for (const id of ['account-info/missing-token', 'funding-sources/invalid-token', 'token-exchange/concurrent-redemption'])
    expect(levelOf(id), id).toBe('MUST');
});

test('each area is one name: a catalogue key, a suite file and the prefix of its rules', () => {
  for (const [area, rules] of Object.entries(catalogue)) {
    expect(existsSync(`suites/${area}.spec.ts`), `suites/${area}.spec.ts`).toBe(true);
    expect(rules.filter((rule) => !rule.id.startsWith(`${area}/`)).map((rule) => rule.id)).toEqual([]);
  }
});

test("the masking's sensitive keys are exactly the catalogue's sensitive fields, by their last segment", () => {
  const fromRules = sensitiveFields.map((field) => lastSegment(field.path)).sort();
  expect(fromRules.length).toBeGreaterThan(0);
  expect([...sensitiveKeys].sort()).toEqual(fromRules);
});

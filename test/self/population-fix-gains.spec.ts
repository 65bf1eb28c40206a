import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { accountInfoFieldRules } from '../../checks/account-info';
import { evaluateAll, type Finding } from '../../checks/finding';
import { decideSignOn, emulatorChoices } from '../../checks/sign-on-decision';
import { edited, omit } from '../support/account-info-payloads';
import { shardKey } from '../support/shard-key';
import { tempDir } from '../support/temp';

/**
 * What each fix gains (issue 52, item 2), through the real command, against a brute-force count: users with any mix
 * of defects; each rule's "fixed alone" figure and the greedy plan recounted by deciding every user again without
 * the rules fixed.
 */

const cli = [path.resolve('node_modules/tsx/dist/cli.mjs'), path.resolve('scripts/population.ts')];
const date = '2026-11-28';
const ctx = { now: new Date(`${date}T00:00:00Z`), collectMissingAccountInfo: false };
const settings = { ...emulatorChoices, collectMissingAccountInfo: false };

/** Defects, each one rule or more; a user gets each with the chance given. */
const defects: [Record<string, unknown>, number][] = [
  [{ 'user.phone': omit }, 0.3],
  [{ 'user.phone': '212 555 0142' }, 0.15],
  [{ 'user.dateOfBirth': omit }, 0.25],
  [{ 'user.lastName': "O'Brien" }, 0.2],
  [{ 'company.address.line1': 'PO Box 12' }, 0.15],
  [{ 'company.address.state': 'Illinois' }, 0.1],
  [{ 'company.industry.naicsCode': 12345 }, 0.1],
  [{ 'company.name': 'A' }, 0.05],
  [{ 'user.email': 'not-an-address' }, 0.05],
];

/** A seeded generator: the same users every run. */
function* seeded(seed: number) {
  let state = seed;
  for (;;) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    yield state / 2 ** 31;
  }
}

const isIn = (problems: readonly Finding[], fixed: ReadonlySet<string>) =>
  decideSignOn(
    problems.filter((p) => !fixed.has(p.rule)),
    settings,
  ).screen !== 'error';

test('each fix alone, and the plan of fixes in order, are the brute-force counts of users who get in, also after a merge of shards', () => {
  const random = seeded(42);
  const users = Array.from({ length: 3000 }, () =>
    edited(Object.assign({}, ...defects.filter(([, chance]) => random.next().value! < chance).map(([edit]) => edit)) as Record<string, unknown>),
  );
  const dir = tempDir('population-fix-gains-');
  const input = path.join(dir, 'users.jsonl');
  writeFileSync(input, users.map((user) => JSON.stringify(user)).join('\n'));
  const run = spawnSync(process.execPath, [...cli, input, '--now', date, '--out', path.join(dir, 'out')], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const report = JSON.parse(readFileSync(path.join(dir, 'out', 'population.json'), 'utf8')) as {
    fixFirst: { rule: string; alone: number }[];
    fixPlan: { steps: { rule: string; users: number }[]; severalRules: number; leftOut: number; uncounted: number };
  };

  const atError = users.map((user) => evaluateAll(accountInfoFieldRules, user, ctx, { problemsOnly: true })).filter((problems) => !isIn(problems, new Set()));
  const rules = [...new Set(atError.flatMap((problems) => problems.map((p) => p.rule)))].sort();
  // Fixed alone: the users at the error screen who get in without that rule's findings.
  const alone = Object.fromEntries(rules.map((rule) => [rule, atError.filter((problems) => isIn(problems, new Set([rule]))).length]));
  expect(Object.fromEntries(report.fixFirst.filter((fix) => fix.alone > 0).map((fix) => [fix.rule, fix.alone]))).toEqual(
    Object.fromEntries(Object.entries(alone).filter(([, users]) => users > 0)),
  );
  // The plan: each step the rule that lets in the most users not yet in (ties by rule id), recounted from scratch.
  const fixed = new Set<string>();
  const plan: { rule: string; users: number }[] = [];
  for (let step = 0; step < 10; step++) {
    const inNow = atError.filter((problems) => isIn(problems, fixed)).length;
    const gains = rules
      .filter((rule) => !fixed.has(rule))
      .map((rule) => ({ rule, users: atError.filter((problems) => isIn(problems, new Set([...fixed, rule]))).length - inNow }));
    const best = gains.sort((a, b) => b.users - a.users || (a.rule < b.rule ? -1 : 1))[0];
    if (!best || best.users === 0) break;
    fixed.add(best.rule);
    plan.push(best);
  }
  expect(report.fixPlan.steps.map(({ rule, users }) => ({ rule, users }))).toEqual(plan);
  expect(plan.length).toBeGreaterThan(3);
  // Two or more fixes: no one rule fixed lets them in.
  expect(report.fixPlan.severalRules).toBe(atError.filter((problems) => !rules.some((rule) => isIn(problems, new Set([rule])))).length);
  expect(report.fixPlan.leftOut).toBe(atError.filter((problems) => !isIn(problems, fixed)).length);
  expect(report.fixPlan.uncounted).toBe(0);
  expect(run.stdout).toContain(`What each fix gains, in order: 1. ${plan[0]!.rule} (+${plan[0]!.users.toLocaleString('en-US')} users in)`);

  // Four shards, merged: the same figures.
  const key = { ...process.env, POPULATION_SHARD_KEY: shardKey };
  for (const n of [1, 2, 3, 4]) {
    const shard = spawnSync(process.execPath, [...cli, input, '--now', date, '--shard', `${n}/4`, '--out', path.join(dir, 'parts')], {
      encoding: 'utf8',
      env: key,
    });
    expect(shard.status, shard.stderr).toBe(0);
  }
  const parts = [1, 2, 3, 4].map((n) => path.join(dir, 'parts', `population-summary.${n}-of-4.json`));
  const merged = spawnSync(process.execPath, [...cli, 'merge', ...parts, '--out', path.join(dir, 'merged')], { encoding: 'utf8', env: key });
  expect(merged.status, merged.stderr).toBe(0);
  expect((JSON.parse(readFileSync(path.join(dir, 'merged', 'population.json'), 'utf8')) as typeof report).fixPlan).toEqual(report.fixPlan);
});

import { randomBytes } from 'node:crypto';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { recordAttempt } from '../../fixtures/attempt';
import { markBegun, readAttempts } from '../../run/attempt-record';
import { redact } from '../../redaction/redact';
import { redactBytes, redactTree } from '../../redaction/files';
import { Vault } from '../../redaction/vault';
import { tempDir } from '../support/temp';

/**
 * What a hostile partner or a careless operator tried (hostile-partner.spec.ts) against what a run stores:
 * the reporters' artifacts, the files masked after a run, and secrets one worker learned that another echoes.
 */

test.describe('1. artifacts that bypass the redactor', () => {
  // End to end (junit, the Playwright report's report.json, a blob's report.jsonl, traces): test/self/redaction.spec.ts.
  test("a test's attempt leaves the worker masked: its errors and annotations, whatever reporter stores them", async () => {
    const dir = tempDir('attempts-');
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const vault = new Vault([{ value: '5ecret-t0ken-value' }]);
    const testInfo = {
      project: { name: 'hostile' },
      testId: 'one',
      title: 'token exchange',
      retry: 0,
      outputDir: dir,
      status: 'failed',
      errors: [{ message: `navigation to /auth?code=c0de-abc-123 failed`, stack: `at auth?token=${jwt}` }],
      annotations: [{ type: 'warning', description: 'token-exchange/x: error_description "Bearer 5ecret-t0ken-value"' }],
      attachments: [{ name: 'probe record', contentType: 'application/json', body: Buffer.from('{"version":1}') }],
    } as unknown as Parameters<typeof recordAttempt>[2];
    await recordAttempt(vault, async () => {}, testInfo, dir);
    const stored = readFileSync(path.join(dir, 'one-0.json'), 'utf8');
    for (const value of ['c0de-abc-123', jwt, '5ecret-t0ken-value']) expect(stored).not.toContain(value);
    const { attempts, errors } = readAttempts(dir);
    expect(errors).toEqual([]);
    expect(attempts).toMatchObject([{ status: 'failed', errors: ['navigation to /auth?code=[redacted] failed'], attachments: [{ body: '{"version":1}' }] }]);
  });

  test('an attempt that began and never ended did not finish; one whose record does not parse is named', () => {
    const dir = tempDir('attempts-');
    markBegun(dir, { project: 'p', testId: 'gone', title: 'a test whose worker died', retry: 0, outputDir: dir });
    writeFileSync(path.join(dir, 'broken-0.json'), '{"version":1}');
    const { attempts, errors } = readAttempts(dir);
    expect(attempts).toMatchObject([{ testId: 'gone', status: 'interrupted' }]);
    expect(errors).toEqual([expect.stringMatching(/^broken-0\.json: its attempt record does not parse: "project"/)]);
  });
});

test.describe('1c. masking never corrupts what it stores', () => {
  test('base64 payloads of images and zips are left whole, while a JWT in text is masked', () => {
    const image = 'data:image/png;base64,iVBORw0KGgo+eyJhbGciOiJIUzI1NiJ9AAAA/eyJzdWIiOiIxIn0==';
    expect(redact(`<img src="${image}"> token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln`, [])).toBe(`<img src="${image}"> token [redacted]`);
    const zip = zipSync({ 'report.json': strToU8('{"title":"ok"}') });
    const page = `<template>data:application/zip;base64,${Buffer.from(zip).toString('base64')}</template> ?code=c0de-12345`;
    const masked = strFromU8(redactBytes(strToU8(page), []));
    expect(masked).toContain('?code=[redacted]');
    expect(strFromU8(unzipSync(Buffer.from(/base64,([^<]+)/.exec(masked)![1]!, 'base64'))['report.json']!)).toBe('{"title":"ok"}');
  });
});

test('a file that cannot be masked is named, and every other file is still masked', async () => {
  const dir = tempDir('tree-');
  writeFileSync(path.join(dir, 'broken.html'), '<template>data:application/zip;base64,AAAAAAAA</template>');
  writeFileSync(path.join(dir, 'junit.xml'), '<failure>auth?code=c0de-12345</failure>');
  const failures = redactTree(dir, []);
  expect(failures).toEqual([expect.stringMatching(/broken\.html \(.+\)$/)]);
  expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toBe('<failure>auth?code=[redacted]</failure>');
});

test('after a run, only the files written since it began are masked again: an older file was masked by its own run', async () => {
  const dir = tempDir('tree-');
  const [older, written] = [path.join(dir, 'older.html'), path.join(dir, 'junit.xml')];
  writeFileSync(older, 'left as it is: auth?code=c0de-12345');
  utimesSync(older, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  writeFileSync(written, '<failure>auth?code=c0de-12345</failure>');
  expect(redactTree(dir, [], { since: new Date() })).toEqual([]);
  expect(readFileSync(older, 'utf8')).toBe('left as it is: auth?code=c0de-12345');
  expect(readFileSync(written, 'utf8')).toBe('<failure>auth?code=[redacted]</failure>');
});

test.describe('1b. codes and tokens of earlier tests, echoed later', () => {
  test("a random code one profile's worker learned masks every profile's files where they are written; a word it learned masks its own only", () => {
    const dir = tempDir('vault-');
    const [alpha, beta, main] = [new Vault([], { dir, partner: 'alpha' }), new Vault([], { dir, partner: 'beta' }), new Vault([], { dir })];
    const code = `c0de${randomBytes(16).toString('hex')}`;
    alpha.add([code, 'victim-words-only', 'NOTCERTIFIED2026']);
    // The same server, under another profile, echoes the code the first was issued: beta's files mask it.
    const forBeta = (text: string) => redact(redact(text, main.secrets('beta')), main.runWideSecrets());
    expect(forBeta(`beta's token response echoed ${code}`)).toBe("beta's token response echoed [redacted]");
    // Words and short values stay alpha's: they rewrite no other partner's report.
    expect(forBeta('victim-words-only NOTCERTIFIED2026')).toBe('victim-words-only NOTCERTIFIED2026');
    expect(redact('victim-words-only NOTCERTIFIED2026', main.secrets('alpha'))).toBe('[redacted] [redacted]');
    // A worker keeps to its own partner's: its lists grow all run long, and the files that stay are masked again where they are written.
    expect(beta.secrets().some((secret) => secret.value === code)).toBe(false);
  });

  test('a token one worker learned is masked by another worker of the run', () => {
    const dir = tempDir('vault-');
    const [first, second] = [new Vault([], { dir }), new Vault([], { dir })];
    const token = 'at-from-worker-1-0123456789';
    first.learn([{ request: { method: 'GET', url: 'https://p.example/a', headers: { authorization: `Bearer ${token}` } }, startedAt: '', durationMs: 1 }]);
    first.add(['code-handed-out-42']);
    expect(redact(`echoed ${token} and code-handed-out-42`, second.secrets())).toBe('echoed [redacted] and [redacted]');
    expect(second.secrets()).toBe(second.secrets()); // the same array while nothing changed: one matcher
  });

  test('each secret learned later is masked as soon as it is known, and an earlier list still masks all it held', () => {
    const dir = tempDir('vault-');
    const [reporter, worker] = [new Vault([{ value: 'profile-secret-0123' }], { dir }), new Vault([], { dir })];
    const [tokens, codes] = [0, 1].map(() => Array.from({ length: 5 }, () => randomBytes(12).toString('hex')));
    const lists = [reporter.secrets()];
    for (let i = 0; i < 5; i++) {
      worker.add([tokens![i]!]);
      reporter.add([codes![i]!]);
      lists.push(reporter.secrets());
      expect(lists.at(-1)!.slice(0, lists.at(-2)!.length)).toEqual(lists.at(-2)); // each list starts with the last
      expect(redact(`t ${tokens![i]} c ${codes![i]} p profile-secret-0123`, lists.at(-1)!)).toBe('t [redacted] c [redacted] p [redacted]');
    }
    expect(redact(`${tokens![4]} profile-secret-0123`, lists[2]!)).toBe(`${tokens![4]} [redacted]`);
    expect(redact(`${tokens![0]} ${codes![4]}`, lists.at(-1)!)).toBe('[redacted] [redacted]');
  });
});

import { randomBytes } from 'node:crypto';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { TestInfo } from '@playwright/test';
import type { FullConfig } from '@playwright/test/reporter';
import { redact } from '../../redaction/redact';
import { redactBytes, secretFinder } from '../../redaction/files';
import { Vault } from '../../redaction/vault';
import { ordinaryText } from '../../redaction/secrets';
import { harnessWords } from '../../checks/harness-words';
import { Egress } from '../../run/egress';
import { scanned, scanOutputs } from '../../run/scan';
import { tempDir } from '../support/temp';

/**
 * What a hostile partner or a careless operator tried (hostile-partner.spec.ts) against what a run stores:
 * the reporters' artifacts, the run's final scan of its outputs, and secrets one worker learned that another echoes.
 */

test.describe('1. artifacts that bypass the redactor', () => {
  // End to end (junit, the Playwright report's report.json, a blob's report.jsonl, traces): test/self/redaction.spec.ts.
  test("a test's attempt leaves the worker masked: its errors, annotations and record, whatever reporter or coordinator reads them", async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const vault = new Vault([{ value: '5ecret-t0ken-value' }]);
    const sent: string[] = [];
    const egress = new Egress(vault, undefined, { send: (message) => sent.push(JSON.stringify(message)), sync: async () => {} });
    const which = { project: 'hostile', testId: 'one', retry: 0 };
    await egress.event({
      type: 'attempt-ended',
      ...which,
      status: 'failed',
      durationMs: 1,
      errors: [`navigation to /auth?code=c0de-abc-123 failed at auth?token=${jwt}`],
    });
    const annotations: { type: string; description?: string }[] = [];
    await egress.annotate({ annotations } as unknown as TestInfo, 'warning', 'token-exchange/x: error_description "Bearer 5ecret-t0ken-value"');
    const stored = [...sent, JSON.stringify(annotations)].join('\n');
    for (const value of ['c0de-abc-123', jwt, '5ecret-t0ken-value']) expect(stored).not.toContain(value);
    expect(sent[0]).toContain('navigation to /auth?code=[redacted] failed');
  });
});

test("an attempt's identifiers are Playwright's own, never masked, though a test id reads like a tax id; what it said is", async () => {
  const sent: string[] = [];
  const egress = new Egress(new Vault([]), 'p', { send: (message) => sent.push(JSON.stringify(message)), sync: async () => {} });
  // A real test id of the sign-on suite: `d24-8482225` has an EIN's shape.
  const which = { project: 'p', testId: '30e967ce7fa094806d24-8482225f925d19f1f252', retry: 0 };
  await egress.event({ type: 'attempt-begun', ...which, title: 'a fresh code opens the app' });
  await egress.event({ type: 'attempt-ended', ...which, status: 'failed', durationMs: 1, errors: ['the partner answered with EIN 24-8482225'] });
  const [begun, ended] = sent.map((message) => JSON.parse(message) as { event: { testId: string; errors?: string[] } });
  expect([begun!.event.testId, ended!.event.testId]).toEqual([which.testId, which.testId]);
  // The positive control: the same shape in what the attempt said is masked.
  expect(ended!.event.errors).toEqual(['the partner answered with EIN **-***2225']);
});

test("a fragment of a partner's run-wide secret in the harness's own words is spared, in every partner's artifacts: the rule id stays whole", async () => {
  const vault = new Vault([...ordinaryText(harnessWords), { value: 'acme-staging-secret-7f3a', partner: 'acme' }]);
  const sent: string[] = [];
  const outbound = { send: (message: unknown) => sent.push(JSON.stringify(message)), sync: async () => {} };
  for (const scope of ['acme', 'another', undefined]) {
    await new Egress(vault, scope, outbound).event({
      type: 'attempt-ended',
      project: 'p',
      testId: 't',
      retry: 0,
      status: 'passed',
      durationMs: 1,
      errors: ['token-exchange/wrong-secret-rejected: acme-staging-secret-7f3a'],
    });
  }
  for (const message of sent) expect(message).toContain('token-exchange/wrong-secret-rejected: [redacted]');
});

test("a trace's page in Latin-1, or holding a NUL, is masked and scanned as text; an image is left whole", () => {
  const code = `c0de${randomBytes(16).toString('hex')}`;
  const latin1 = Buffer.concat([Buffer.from('<title>Caf'), Buffer.from([0xe9]), Buffer.from(`</title><iframe src="/auth?c=${code}">`)]);
  const nul = Buffer.from(`<!-- \u0000 --><p>session ${code}</p>`);
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(code)]);
  const trace = zipSync({ 'resources/a.html': latin1, 'resources/b.html': nul, 'resources/c.png': png });
  const masked = unzipSync(redactBytes(trace, [{ value: code }]));
  expect(Buffer.from(masked['resources/a.html']!).toString('latin1')).toBe('<title>Caf\u00e9</title><iframe src="/auth?c=[redacted]">');
  expect(Buffer.from(masked['resources/b.html']!).toString('utf8')).toBe('<!-- \u0000 --><p>session [redacted]</p>');
  expect(Buffer.from(masked['resources/c.png']!)).toEqual(png);
  // The final scan reads them alike: each page alone is found.
  for (const entry of [latin1, nul]) expect(secretFinder([{ value: code }])(zipSync({ 'page.html': entry }))).toBe(true);
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

test("the final scan names each output that holds a secret with a secret's entropy, and one it cannot read; it rewrites none, and leaves older files", () => {
  const dir = tempDir('scan-');
  const code = `c0de${randomBytes(16).toString('hex')}`;
  const vault = new Vault([
    { value: code, partner: 'alpha' },
    { value: 'a-word-of-alpha', partner: 'alpha' },
  ]);
  const [leak, zipped, words, broken, older] = ['junit.xml', 'trace.zip', 'report.json', 'index.html', 'older.html'].map((name) => path.join(dir, name));
  writeFileSync(leak!, `<failure>auth?code=${code}</failure>`);
  writeFileSync(zipped!, zipSync({ 'trace.trace': strToU8(`{"url":"https://p.example/cb?c=${encodeURIComponent(code)}"}`) }));
  writeFileSync(words!, '{"title":"a-word-of-alpha, no secret of entropy"}');
  writeFileSync(broken!, '<template>data:application/zip;base64,UEsDBAAAAAAA</template>');
  writeFileSync(older!, `an earlier run's: ${code}`);
  utimesSync(older!, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const config = { projects: [{ outputDir: dir }], reporter: [], rootDir: dir } as unknown as FullConfig;
  const found = scanOutputs(config, scanned(vault), { since: new Date(Date.now() - 1000) });
  expect(found).toEqual([
    expect.stringMatching(/index\.html could not be scanned/),
    expect.stringMatching(/junit\.xml holds a secret of this run/),
    expect.stringMatching(/trace\.zip holds a secret of this run/),
  ]);
  expect(readFileSync(leak!, 'utf8')).toContain(code);
});

test.describe('1b. codes and tokens of earlier tests, echoed later', () => {
  /** The workers of a run and its main process, sharing what each learns through the coordinator, in memory. */
  function run(partners: readonly string[]) {
    const main = new Vault();
    const workers = new Map<string, Vault>();
    for (const partner of partners)
      workers.set(
        partner,
        new Vault([], {
          partner,
          onLearn: (fresh) => {
            main.receive(fresh);
            for (const [other, vault] of workers) if (other !== partner) vault.receive(fresh);
          },
        }),
      );
    return { main, worker: (partner: string) => workers.get(partner)! };
  }

  test("a random code one profile's worker learned masks every profile's files, in the workers too; a word it learned masks its own only", () => {
    const { main, worker } = run(['alpha', 'beta']);
    const code = `c0de${randomBytes(16).toString('hex')}`;
    worker('alpha').add([code, 'victim-words-only', 'NOTCERTIFIED2026']);
    // The same server, under another profile, echoes the code the first was issued: beta's worker and files mask it.
    for (const vault of [worker('beta'), main])
      expect(redact(`beta's token response echoed ${code}`, vault.masking('beta'), vault.runWide())).toBe("beta's token response echoed [redacted]");
    // Words and short values stay alpha's: they rewrite no other partner's report, nor what is every partner's.
    for (const [vault, partner] of [
      [worker('beta'), 'beta'],
      [main, 'beta'],
      [main, undefined],
    ] as const)
      expect(redact('victim-words-only NOTCERTIFIED2026', vault.masking(partner), vault.runWide())).toBe('victim-words-only NOTCERTIFIED2026');
    expect(redact('victim-words-only NOTCERTIFIED2026', main.masking('alpha'))).toBe('[redacted] [redacted]');
  });

  test('a token one worker learned is masked by another worker of the same partner', () => {
    const { worker } = run(['alpha', 'alpha-next']);
    const token = 'at-from-worker-1-0123456789';
    worker('alpha').learn([
      { request: { method: 'GET', url: 'https://p.example/a', headers: { authorization: `Bearer ${token}` } }, startedAt: '', durationMs: 1 },
    ]);
    worker('alpha').add(['code-handed-out-42']);
    expect(redact(`echoed ${token} and code-handed-out-42`, worker('alpha').masking('alpha'))).toBe('echoed [redacted] and [redacted]');
    expect(worker('alpha').masking()).toBe(worker('alpha').masking()); // the same array while nothing changed: one matcher
  });

  test('each secret learned later is masked as soon as it is known, and an earlier list still masks all it held', () => {
    const { main, worker } = run(['alpha']);
    main.receive([{ value: 'profile-secret-0123', partner: 'alpha' }]);
    const [tokens, codes] = [0, 1].map(() => Array.from({ length: 5 }, () => randomBytes(12).toString('hex')));
    const lists = [main.masking('alpha')];
    for (let i = 0; i < 5; i++) {
      worker('alpha').add([tokens![i]!]);
      main.receive([{ value: codes![i]!, partner: 'alpha' }]);
      lists.push(main.masking('alpha'));
      expect(lists.at(-1)!.slice(0, lists.at(-2)!.length)).toEqual(lists.at(-2)); // each list starts with the last
      expect(redact(`t ${tokens![i]} c ${codes![i]} p profile-secret-0123`, lists.at(-1)!)).toBe('t [redacted] c [redacted] p [redacted]');
    }
    expect(redact(`${tokens![4]} profile-secret-0123`, lists[2]!)).toBe(`${tokens![4]} [redacted]`);
    expect(redact(`${tokens![0]} ${codes![4]}`, lists.at(-1)!)).toBe('[redacted] [redacted]');
  });
});

test("an error the worker leaves unhandled (a browser route's handler that threw) is masked in place before Playwright's own listener reads it", () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
  const listening = process.listenerCount('unhandledRejection');
  const restore = new Egress(new Vault([{ value: '5ecret-t0ken-value' }]), 'p').guardOutput();
  try {
    // Called as Node calls it, without raising one: Playwright's own listener would fail this test.
    const [first] = process.listeners('unhandledRejection');
    const error = new Error(`route.fetch: connect ECONNREFUSED\n  - GET http://127.0.0.1:4403/launch?token=${jwt} 5ecret-t0ken-value`);
    first!(error, Promise.resolve());
    expect(`${error.message}\n${error.stack}`).not.toMatch(/eyJ|5ecret-t0ken-value/);
    // The positive control: the error's own words are left.
    expect(error.message).toContain('route.fetch: connect ECONNREFUSED');
  } finally {
    restore();
  }
  expect(process.listenerCount('unhandledRejection')).toBe(listening);
});

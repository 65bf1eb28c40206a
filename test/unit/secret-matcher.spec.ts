import { randomInt } from 'node:crypto';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import type { Exchange } from '../../checks/evidence';
import { harnessWords } from '../../checks/harness-words';
import { loadProfile } from '../../partners/profile';
import { redact } from '../../redaction/redact';
import { maskedEverywhere, ordinaryText, profileSecrets, secretsOf } from '../../redaction/secrets';
import { WindowIndex, WindowTable } from '../../redaction/rolling-hash';
import { canonical } from '../../redaction/canonical';

/**
 * The fragment rule (DESIGN §5): a fragment of a secret is left as it is only on evidence that it is ordinary
 * text of the run (it also occurs in a value that is no secret), never because it is made of letters.
 */

const letters = (length: number) => Array.from({ length }, () => String.fromCharCode(97 + randomInt(26))).join('');
/** Every run of 10 characters of `secret` that `text` still holds, in any case. */
const windowsLeft = (text: string, secret: string) =>
  Array.from({ length: secret.length - 9 }, (_, at) => secret.slice(at, at + 10)).filter((window) => text.toLowerCase().includes(window));
const run = (ordinary: readonly string[]) => ordinaryText([...harnessWords, ...ordinary]);

test('a random lower-case password, cut by one character or split in two, is masked in every fragment', () => {
  for (const password of [letters(24), letters(24), 'qzkvwmxjrtplbnhdgfcysaeu']) {
    const secrets = [{ value: password }, ...run(['https://app.acme.example/login', '#password'])];
    const texts = [
      `typed ${password.slice(0, -1)}…`,
      `…${password.slice(1)} typed`,
      JSON.stringify({ a: password.slice(0, 12), b: password.slice(12) }),
      `${password.slice(0, 12)} and ${password.slice(12).toUpperCase()}`,
    ];
    for (const text of texts) {
      const masked = redact(text, secrets);
      expect(windowsLeft(masked, password), masked).toEqual([]);
      expect(masked).toContain('[redacted]');
    }
  }
});

test('a rule id is ordinary text: a fragment of a client secret in it is left as it is, and masked anywhere else', () => {
  const secret = { value: 'acme-staging-secret-7f3a' };
  const id = 'token-exchange/wrong-secret-rejected';
  expect(harnessWords).toContain(id);
  expect(redact(`${id} failed`, [secret, ...run([])])).toBe(`${id} failed`);
  expect(redact(`${id} failed`, [secret, ...ordinaryText([id])])).toBe(`${id} failed`);
  // Without that evidence, the same letters are a fragment of the secret; with more of the secret, the run is no longer ordinary.
  expect(redact(`${id} failed`, [secret])).toBe('token-exchange/wro[redacted]rejected failed');
  expect(redact('echoed ng-secret-7f3a', [secret, ...run([])])).toBe('echoed [redacted]');
});

test('a whole secret is masked, even inside ordinary text', () => {
  expect(redact('the secret wrong-secret-rejected', [{ value: 'wrong-secret-rejected' }, ...run([])])).toBe('the secret [redacted]');
});

test("a profile's values are ordinary text, without the secrets they hold: the address of a URL, never its key", () => {
  const profile = loadProfile('partners/reference.json', {}).profile!.profile;
  const keyed = {
    ...profile,
    clientSecret: 'localhost-tokens-a1b2c3d4',
    accountInfoUrl: 'http://localhost-tokens.example/api/account?api_key=k3y-0123456789abcdef',
  };
  const secrets = profileSecrets(keyed);
  expect(secrets.filter((secret) => secret.ordinary).map((secret) => secret.value)).toContain('http://localhost-tokens.example/api/account');
  expect(secrets.some((secret) => secret.ordinary && secret.value.includes('k3y-0123456789abcdef'))).toBe(false);
  // "localhost-tokens" is 16 of the secret's 25 characters, and the account endpoint's host.
  expect(redact('GET http://localhost-tokens.example/api/account', secrets)).toBe('GET http://localhost-tokens.example/api/account');
  expect(redact('echoed localhost-tokens-a1b2', secrets)).toBe('echoed [redacted]');
});

test('a session cookie of 8 characters or more is learnt whatever its letters; "en", "true" and a username are not', () => {
  for (const cookie of ['qhzvtrwplmkdxse', letters(15), letters(8), 'Ab3-x9_k']) expect(maskedEverywhere(cookie), cookie).toBe(true);
  for (const word of ['en', 'true', 'ada', 'gateway', 'rule']) expect(maskedEverywhere(word), word).toBe(false);
  const cookie = letters(15);
  const exchange: Exchange = {
    request: { method: 'POST', url: 'https://p.example/t', headers: {} },
    response: { status: 200, headers: {}, body: JSON.stringify({ access_token: cookie }), bytes: 1 },
    startedAt: '',
    durationMs: 1,
  };
  expect(redact(`echoed ${cookie.slice(0, 12)}`, secretsOf([exchange]))).toBe('echoed [redacted]');
});

test('a word in a profile URL\'s query is no secret: "?user=complete" never masks "INCOMPLETE"', () => {
  const loaded = loadProfile('partners/reference.json', {}).profile!;
  const secrets = [...profileSecrets(loaded.profile, loaded.envValues), ...run([])];
  expect(secrets.filter((secret) => !secret.ordinary).map((secret) => secret.value)).not.toContain('complete');
  expect(redact('INCOMPLETE: the account information is complete', secrets)).toBe('INCOMPLETE: the account information is complete');
});

test('WindowTable gives each hash its pairs in the order they were added, across its growth and whatever the buckets share', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.nat(), fc.nat()), { minLength: 1100, maxLength: 2500 }), (entries) => {
      const table = new WindowTable();
      const expected = new Map<number, [number, number][]>();
      for (const [hash, first, second] of entries) {
        // Hashes 1024 apart share a bucket of the first size.
        table.add(hash * 1024, first, second);
        expected.set(hash * 1024, [...(expected.get(hash * 1024) ?? []), [first, second]]);
      }
      const found = new Map<number, [number, number][]>();
      for (const hash of [...expected.keys(), 7, 1_000_000_006]) {
        found.set(hash, []);
        for (let entry = table.find(hash); entry !== -1; entry = table.next(entry, hash)) found.get(hash)!.push([table.first(entry), table.second(entry)]);
      }
      expect(found).toEqual(new Map([...expected, [7, []], [1_000_000_006, []]]));
    }),
    { numRuns: 10 },
  );
});

test('WindowIndex finds, for each offset, the longest run from there that occurs in the texts', () => {
  const naive = (units: Uint8Array, texts: readonly Uint8Array[], offset: number) => {
    let best = 0;
    for (let length = 1; offset + length <= units.length; length++) {
      const needle = Buffer.from(units.subarray(offset, offset + length));
      if (texts.some((text) => Buffer.from(text).includes(needle))) best = length;
    }
    return best >= 8 ? best : 0;
  };
  fc.assert(
    fc.property(fc.stringMatching(/^[ab-]{8,30}$/), fc.array(fc.stringMatching(/^[ab-]{0,40}$/), { maxLength: 3 }), (secret, texts) => {
      const [units, corpus] = [canonical(secret).units, texts.map((text) => canonical(text).units)];
      const runs = new WindowIndex(corpus).longestRuns(units);
      expect([...runs]).toEqual([...units].map((_, offset) => naive(units, corpus, offset)));
    }),
  );
});

test('a client secret split unevenly across two JSON fields leaves no 8 characters of it, HTML-escaped or not; 8 characters alone are not evidence', () => {
  const secret = 'Zq8+/x"Y\\=kP3mN7vR2tW9sL4hJ6bG1dF5cA0eQ';
  const windows8 = (text: string) =>
    Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8)).filter((window) => text.toLowerCase().includes(window.toLowerCase()));
  const html = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  for (const cut of [10, 13, 15, 25, 28]) {
    const body = JSON.stringify({ error: 'invalid_client', a: secret.slice(0, cut), b: secret.slice(cut) });
    for (const text of [body, html(body), html(JSON.stringify(body))]) {
      const masked = redact(text, [{ value: secret }]);
      expect(windows8(masked.replaceAll('\\', '').replaceAll('&quot;', '"').replaceAll('&amp;', '&')), masked).toEqual([]);
    }
  }
  // The controls: a run of 8 characters with no longer fragment of the secret beside it is left as it is; so is a
  // word the secret holds, beside the whole secret quoted back.
  expect(redact(`ref ${secret.slice(12, 20)} only`, [{ value: secret }])).toBe(`ref ${secret.slice(12, 20)} only`);
  const key = 'platform-key-8Jq2vX4mTz9';
  expect(redact(`"platform.apiKey": the platform refused ${key}`, [{ value: key }])).toBe('"platform.apiKey": the platform refused [redacted]');
});

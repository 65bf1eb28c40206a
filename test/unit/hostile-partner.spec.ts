import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Exchange } from '../../checks/evidence';
import { bodyPreview } from '../../checks/evidence';
import { evaluateAll, listed, type Rule } from '../../checks/finding';
import { loadProfile, loadProfiles } from '../../partners/profile';
import { certificationHtml } from '../../reports/html-report';
import { redact, redactEvidence, redactValue } from '../../redaction/redact';
import { ordinaryText, profileSecrets, secretsOf } from '../../redaction/secrets';
import { buildCertification } from '../../reports/certification';
import { runInfo } from '../support/certifications';
import { tempDir } from '../support/temp';

/**
 * What a hostile partner or a careless operator tried (issue "Hold against a hostile partner"), one case
 * per attack, grouped by cause; those against what a run stores: hostile-partner-artifacts.spec.ts. The
 * end-to-end proofs are test/self/redaction.spec.ts (every artifact, every form, half-windows) and
 * test/self/hostile-partners.spec.ts (floods inside the body cap).
 */

const secret = 'Zq8+/x"Y\\=kP3mN7vR2tW9sL4hJ6bG1dF5cA0eQ';
const secrets = secretsOf([], [secret]);
const leaks = (text: string, value = secret) => {
  const lower = text.toLowerCase();
  const needle = value.toLowerCase();
  const run = Math.max(10, Math.ceil(needle.length / 2));
  return Array.from({ length: needle.length - run + 1 }, (_, at) => needle.slice(at, at + run)).filter((window) => lower.includes(window));
};

test.describe('2. encodings and fragments that masking by value misses', () => {
  const cases: Record<string, string> = {
    'the secret in base64': Buffer.from(secret).toString('base64'),
    'the secret in base64url': Buffer.from(secret).toString('base64url'),
    'client_id:secret in base64, an HTTP Basic credential': Buffer.from(`reference-client:${secret}`).toString('base64'),
    'the secret in upper case': secret.toUpperCase(),
    'the secret split across two JSON fields': JSON.stringify({ a: secret.slice(0, 20), b: secret.slice(20) }),
    'the first character as a JSON \\u escape': `"\\u${secret.charCodeAt(0).toString(16).padStart(4, '0')}${JSON.stringify(secret).slice(2)}`,
    'a secret holding " and \\, JSON-escaped, and escaped again': JSON.stringify(JSON.stringify(secret)),
    'form-encoded': new URLSearchParams({ client_secret: secret }).toString(),
    'percent-encoded once': encodeURIComponent(secret),
    'percent-encoded twice': encodeURIComponent(encodeURIComponent(secret)),
    'HTML-escaped': secret.replace(/"/g, '&quot;').replace(/\//g, '&#x2F;'),
    'cut by a preview': `${secret.slice(0, 30)}…`,
  };
  for (const [attack, text] of Object.entries(cases)) {
    test(attack, () => {
      const masked = redact(`error: ${text} (end)`, secrets);
      expect(leaks(masked), masked).toEqual([]);
      expect(masked).toContain('[redacted]');
      expect(masked).toMatch(/^error: .*\(end\)$/);
    });
  }

  test('an access token starting \\u002f is masked once the run learned it', () => {
    const token = '/tok3n-Abc123XyZ+987/=';
    const learned = secretsOf([
      {
        request: { method: 'POST', url: 'https://p.example/t', headers: {} },
        response: { status: 200, headers: {}, body: JSON.stringify({ access_token: token }), bytes: 1 },
        startedAt: '',
        durationMs: 1,
      },
    ]);
    expect(leaks(redact(`{"error_description":"\\u002f${token.slice(1)}"}`, learned), token)).toEqual([]);
  });

  test('a fragment is left as it is only where it also occurs in ordinary text of the run, never for its letters', () => {
    const [mixed, ordinary] = [[{ value: 's3cr3t-acme-staging-7Qp' }], ordinaryText(['ada@acme-staging.example', 'token-exchange/wrong-secret-rejected'])];
    // "acme-staging" is half of the secret, and the partner's own domain (its login's e-mail): a report must still say it.
    expect(redact('ada@acme-staging.example and token-exchange/wrong-secret-rejected', [...mixed, { value: 'acme-staging-secret-7f3a' }, ...ordinary])).toBe(
      'ada@acme-staging.example and token-exchange/wrong-secret-rejected',
    );
    expect([redact('it was s3cr3t-acme-st…', mixed), redact('ada@acme-staging.example', mixed)]).toEqual(['it was [redacted]…', 'ada@[redacted].example']);
    // A whole secret is masked, whatever it is made of.
    expect(redact('the secret acme-staging-secret', [{ value: 'acme-staging-secret' }])).toBe('the secret [redacted]');
  });

  test('a preview never cuts a word, so a long secret is quoted whole and masked, not cut to a fragment', () => {
    const long = 'S'.repeat(10) + secret + 'T'.repeat(14);
    const preview = bodyPreview(`Unauthorized: bad secret ${long} for this client`);
    expect(JSON.parse(preview)).toContain(long);
    expect(leaks(redact(preview, secretsOf([], [long])), long)).toEqual([]);
  });

  test('a preview shows no piece of a word too long to show whole: a 1,000-character token is left out, not cut to an unrecognisable fragment', () => {
    const token = 'x'.repeat(500) + secret + 'y'.repeat(500);
    const preview = JSON.parse(bodyPreview(`{"error":"invalid_grant","token":"${token}","hint":"retry"}`)) as string;
    expect(preview).toBe('{"error":"invalid_grant","token":"…');
    expect(JSON.parse(bodyPreview(`{"error":"invalid_grant","hint":"a short word"}`, 30))).toBe('{"error":"invalid_grant","hint…');
  });
});

test.describe("3. secrets inside a profile's URLs and browser steps", () => {
  test('a gateway key in a query string, as env:, is a secret of the profile wherever it sits', () => {
    const dir = tempDir('profiles-');
    writeFileSync(
      path.join(dir, 'acme.json'),
      JSON.stringify({
        tokenExchangeUrl: 'env:PARTNER_ACME_TOKEN_URL',
        accountInfoUrl: 'https://p.example/a',
        tokenExchangeEncoding: 'form',
        codes: { mintUrl: 'https://p.example/c' },
      }),
    );
    const loaded = loadProfile(path.join(dir, 'acme.json'), { PARTNER_ACME_TOKEN_URL: 'https://gw.example/token?subscription-key=k3y-0123456789' }).profile!;
    const masked = redact('POST https://gw.example/token?subscription-key=k3y-0123456789 failed', profileSecrets(loaded.profile, loaded.envValues));
    expect(masked).not.toContain('k3y-0123456789');
    // The address itself is no secret: a report says where it certified.
    expect(masked).toContain('https://gw.example/token?');
  });

  test('keys typed into a profile URL are masked whatever their names, by value where they echo and in every URL by name', () => {
    const profile = loadProfile('partners/reference.json', {}).profile!.profile;
    const keyed = { ...profile, accountInfoUrl: 'https://gw.example/api/account?X-Amz-Signature=9f86d081884c7d65&access-token=tok3n-abcdefgh&apiToken=short' };
    const secrets = profileSecrets(keyed);
    const masked = redact(
      `GET https://gw.example/api/account?X-Amz-Signature=9f86d081884c7d65&access-token=tok3n-abcdefgh&apiToken=short failed; echoed 9f86d081884c7d65 and tok3n-abcdefgh; https://other.example/x?apiToken=s3cr3t`,
      secrets,
    );
    for (const value of ['9f86d081884c7d65', 'tok3n-abcdefgh', 'apiToken=short', 'apiToken=s3cr3t']) expect(masked, value).not.toContain(value);
    expect(masked).toContain('https://gw.example/api/account?X-Amz-Signature=[redacted]&access-token=[redacted]&apiToken=[redacted]');
  });

  test('key-like query parameters and a password in userinfo are masked in any URL, by shape', () => {
    expect(redact('http://gw:P4ss-w0rd@host/x?api_key=abc&subscription-key=zzz&ok=1', [])).toBe(
      'http://gw:[redacted]@host/x?api_key=[redacted]&subscription-key=[redacted]&ok=1',
    );
  });

  test('a typed password holding " < and & is masked JSON-escaped and form-encoded', () => {
    const password = 'pa"ss<wo&rd-0a1b2c';
    const known = secretsOf([], [password]);
    for (const form of [
      JSON.stringify({ value: password }),
      new URLSearchParams({ password }).toString(),
      password.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;'),
    ]) {
      expect(leaks(redact(form, known), password)).toEqual([]);
    }
  });
});

test.describe('4. masking that corrupts the report', () => {
  const exchange: Exchange = {
    request: { method: 'GET', url: 'https://p.example/api/account', headers: {} },
    response: { status: 200, headers: {}, body: JSON.stringify({ user: { token: 'rule', password: 'request' } }), bytes: 1 },
    startedAt: '',
    durationMs: 1,
  };

  test('"token": "rule" and "password": "request" are masked in their own field only', () => {
    const learned = secretsOf([exchange]);
    expect(learned.map((s) => s.value)).not.toContain('rule');
    expect(redact('a rule of the request', learned)).toBe('a rule of the request');
    expect(redact(exchange.response!.body, learned)).toBe('{"user":{"token":"[redacted]","password":"[redacted]"}}');
  });

  test('masking parsed data rewrites string values, never keys or structure', () => {
    const findings = [{ rule: 'account-info/x', message: 'the value Zq8+/x"Y\\=kP3mN7vR2tW9sL4hJ6bG1dF5cA0eQ echoed' }];
    expect(redactValue({ findings, [secret]: 1 }, secrets)).toEqual({
      findings: [{ rule: 'account-info/x', message: 'the value [redacted] echoed' }],
      [secret]: 1,
    });
  });

  test('a part of the HTML report that cannot be built says so, and the rest is written', () => {
    const cert = buildCertification(runInfo(), []);
    const broken = { ...cert, latency: null } as unknown as typeof cert;
    const page = certificationHtml(broken, []);
    expect(page).toContain('This part of the report could not be built');
    expect(page).toContain('Every rule of yours, by endpoint');
  });
});

test.describe('5. personal data under the wrong key', () => {
  const body =
    '{"company":{"name":"Acme (EIN 98-7654321)","taxInfo":{"ssn":"078-05-1120"},"accountNumber":"000555666777","bankAccountNumber":{"value":"000888999111"},"n":12345678901}}';
  const [masked] = redactEvidence(
    [
      {
        request: { method: 'GET', url: 'https://p.example/a', headers: {} },
        response: { status: 200, headers: {}, body, bytes: 1 },
        startedAt: '',
        durationMs: 1,
      },
    ],
    [],
  );

  for (const [attack, value, kept] of [
    ['a full bank account number as "accountNumber"', '000555666777', '****6777'],
    ['an SSN as company.taxInfo.ssn', '078-05-1120', '***-**-1120'],
    ['an EIN inside company.name', '98-7654321', '**-***4321'],
    ['a full bank account number as "bankAccountNumber": {"value": …}', '000888999111', '****9111'],
    ['a long number as a bare JSON number', '12345678901', '"****8901"'],
  ] as const) {
    test(attack, () => {
      expect(masked!.response!.body).not.toContain(value);
      expect(masked!.response!.body).toContain(kept);
    });
  }

  test('the masked body is still JSON', () => {
    expect(() => JSON.parse(masked!.response!.body) as unknown).not.toThrow();
  });

  test('a token echoed in hexadecimal, in any case, is masked', () => {
    const token = 'at-9Kq2Lw7Rt4Vz1Xy8Mn3Bp6';
    const hex = Buffer.from(token).toString('hex');
    for (const echo of [hex, hex.toUpperCase()]) expect(redact(`debug: ${echo}`, [{ value: token }]), echo).toBe('debug: [redacted]');
  });

  test('a tax id the run read is masked to its last 4 digits however it is echoed: dotted, spaced, slashed, undashed', () => {
    const learned = secretsOf([
      {
        request: { method: 'GET', url: 'https://p.example/a', headers: {} },
        response: { status: 200, headers: {}, body: '{"company":{"taxInfo":{"identifier":"12-3456789"}}}', bytes: 1 },
        startedAt: '',
        durationMs: 1,
      },
    ]);
    for (const echo of ['12.3456789', '123.45.6789', '12 3456789', '123/45/6789', '123456789'])
      expect(redact(`invalid_grant: ${echo} is unknown`, learned), echo).toBe('invalid_grant: ****6789 is unknown');
  });
});

test.describe('6. runs that never end', () => {
  test('a rule lists its first 20 issues, then counts the rest', () => {
    const flood: Rule<number> = {
      id: 'x/flood',
      owner: 'partner',
      field: 'f',
      clause: 'spec §2.3',
      level: 'MUST',
      requirement: 'r',
      impact: 'i',
      check: (n) => Array.from({ length: n }, (_, i) => ({ code: 'flood', message: `issue ${i}` })),
    };
    const findings = evaluateAll([flood], 62_000, undefined);
    expect(findings).toHaveLength(21);
    expect(findings.at(-1)!.message).toBe('and 61,980 more like these, not listed one by one (the first 20 are)');
    expect(listed(Array.from({ length: 62_000 }, (_, i) => `f${i}`))).toMatch(/^f0, f1, .* f19 … and 61,980 more$/);
  });
});

test.describe('7. fleet isolation', () => {
  test('two profiles with one platform.partnerName on one platform are refused, naming both files', () => {
    const dir = tempDir('profiles-');
    const profile = {
      tokenExchangeUrl: 'https://a.example/t',
      accountInfoUrl: 'https://a.example/a',
      tokenExchangeEncoding: 'form',
      codes: { mintUrl: 'https://a.example/c' },
      platform: { url: 'http://127.0.0.1:4401', apiKey: 'k', partnerName: 'acme' },
    };
    writeFileSync(path.join(dir, 'acme.json'), JSON.stringify(profile));
    writeFileSync(path.join(dir, 'acme-staging.json'), JSON.stringify({ ...profile, tokenExchangeUrl: 'https://b.example/t' }));
    const { errors } = loadProfiles(dir, { env: {}, envFile: '/nonexistent/.env' });
    expect(errors).toEqual([
      expect.stringMatching(
        /acme\.json: "platform\.partnerName" is "acme", as in .*acme-staging\.json on the same platform; .* one partner would receive the other's codes and client secret/,
      ),
    ]);
  });
});

import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FaultSpec } from './faults';

/**
 * Hostile partners: faults that break HTTP or JSON itself rather than a field. The harness must name
 * each one in a failing check, finish within its timeouts and still write its report
 * (test/self/hostile-partners.spec.ts). Switched on like any fault: `/faults/<name>/…`.
 */
export const hostileFaults = {
  'token-html-page': { description: 'token endpoint: answers 200 with an HTML sign-in page' },
  'token-503-retry-after': { description: 'token endpoint: answers 503 with "Retry-After: 120" and an HTML body, as a load balancer does' },
  'token-500': { description: 'token endpoint: answers 500 without Retry-After' },
  'token-truncated-json': { description: 'token endpoint: cuts its JSON off in the middle' },
  'token-oversized-body': { description: "token endpoint: answers with 2 MiB of JSON, over the harness's 1 MiB cap" },
  'token-gzip-bomb': { description: 'token endpoint: a 64 KiB gzip body that inflates to 64 MiB' },
  'token-slow-drip': { description: 'token endpoint: sends the headers, then one byte every 200 ms, and never finishes' },
  'token-no-headers': { description: 'token endpoint: accepts the connection and never answers' },
  'token-reset-mid-body': { description: 'token endpoint: sends the headers and part of the body, then resets the connection' },
  'token-redirect-other-host': { description: 'token endpoint: answers the POST with a 307 to another host' },
  'token-bom': { description: 'token endpoint: starts its JSON with a UTF-8 byte order mark' },
  'account-info-duplicate-keys': { description: 'account-info: sends "user.email" twice, with different values' },
  'account-info-proto-key': { description: 'account-info: sends a "__proto__" key inside "user"' },
  'account-info-latin-1': { description: 'account-info: sends the last name "Müller" in Latin-1 bytes, declared as UTF-8' },
  'account-info-deep-nesting': { description: 'account-info: adds a field nested 100,000 arrays deep, which recursive code cannot walk' },
  'account-info-null-flood': { description: 'account-info: adds an array of 200,000 nulls (1 MiB, inside the cap)' },
  'account-info-key-flood': { description: 'account-info: repeats one key of "user" 60,000 times (1 MiB, inside the cap)' },
  'funding-sources-flood': { description: 'funding sources: lists 62,000 funding sources with distinct ids and nothing else (1 MiB, inside the cap)' },
} as const satisfies Record<string, FaultSpec>;

export type HostileFault = keyof typeof hostileFaults;
export const hostileFaultNames = Object.keys(hostileFaults) as HostileFault[];
export const isHostileFault = (name: string): name is HostileFault => Object.hasOwn(hostileFaults, name);

// A hung answer still ends some time, so a client that never hangs up cannot pin a socket forever.
const hangUpAfterMs = 120_000;
let bomb: Buffer | undefined;
// 64 gzip members of 1 MiB each (a decoder inflates them one after another): 66 KB built in milliseconds,
// where one 64-MiB member took seconds of CPU and, on a loaded machine, outlived the client's deadline.
const gzipBomb = () => (bomb ??= Buffer.concat(Array.from({ length: 64 }, () => gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 }))));
const signInPage =
  '<!doctype html><html><head><title>Sign in</title></head><body><form action="/login"><input name="username"><button>Sign in</button></form></body></html>';

/** Answers on the raw socket, past Fastify, for behaviours no well-behaved framework would produce. */
function raw(request: FastifyRequest, reply: FastifyReply, act: (res: FastifyReply['raw'], stop: () => void) => (() => void) | void) {
  reply.hijack();
  const socket = request.raw.socket;
  const stop = () => socket.destroy();
  const cleanup = act(reply.raw, stop);
  const limit = setTimeout(stop, hangUpAfterMs);
  socket.once('close', () => {
    clearTimeout(limit);
    cleanup?.();
  });
}

const json = 'application/json; charset=utf-8';

/** A token response that starts with a UTF-8 byte order mark (RFC 8259 §8.1 forbids it). */
export const withByteOrderMark = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);

/**
 * The token endpoint's hostile answer, or undefined to answer normally. `sample` makes a token response
 * body: what the truncated and oversized answers are cut from or padded around.
 */
export function hostileTokenAnswer(faults: ReadonlySet<string>, request: FastifyRequest, reply: FastifyReply, sample: () => string): FastifyReply | undefined {
  const has = (fault: HostileFault) => faults.has(fault);
  if (has('token-html-page')) return reply.code(200).type('text/html; charset=utf-8').send(signInPage);
  if (has('token-503-retry-after'))
    return reply.code(503).header('retry-after', '120').type('text/html; charset=utf-8').send('<html><body><h1>503 Service Unavailable</h1></body></html>');
  if (has('token-500')) return reply.code(500).type(json).send('{"error":"server_error"}');
  if (has('token-truncated-json')) {
    const text = sample();
    return reply
      .code(200)
      .type(json)
      .send(text.slice(0, Math.floor(text.length / 2)));
  }
  if (has('token-oversized-body'))
    return reply
      .code(200)
      .type(json)
      .send(`${sample().slice(0, -1)},"padding":"${'x'.repeat(2 * 1024 * 1024)}"}`);
  if (has('token-gzip-bomb')) return reply.code(200).type(json).header('content-encoding', 'gzip').send(gzipBomb());
  if (has('token-redirect-other-host')) return reply.code(307).header('location', 'http://attacker.invalid/oauth/token').send();
  if (has('token-no-headers')) {
    raw(request, reply, () => undefined);
    return reply;
  }
  if (has('token-slow-drip')) {
    raw(request, reply, (res) => {
      res.writeHead(200, { 'content-type': json });
      res.write('{');
      const drip = setInterval(() => res.write(' '), 200);
      return () => clearInterval(drip);
    });
    return reply;
  }
  if (has('token-reset-mid-body')) {
    raw(request, reply, (res, stop) => {
      const text = sample();
      res.writeHead(200, { 'content-type': json, 'content-length': String(text.length) });
      res.write(text.slice(0, 20));
      const reset = setTimeout(stop, 50);
      return () => clearTimeout(reset);
    });
    return reply;
  }
  return undefined;
}

/** The account-information body, as bytes, with the hostile faults that corrupt the JSON text applied. */
export function hostileAccountBody(faults: ReadonlySet<string>, body: unknown): Buffer | undefined {
  const text = JSON.stringify(body);
  if (faults.has('account-info-duplicate-keys')) return Buffer.from(text.replace('"user":{', '"user":{"email":"someone.else@example.com",'));
  if (faults.has('account-info-proto-key')) return Buffer.from(text.replace('"user":{', '"user":{"__proto__":{"isAdmin":true},'));
  if (faults.has('account-info-null-flood')) return Buffer.from(text.replace('"user":{', `"user":{"extra":[${Array(200_000).fill('null').join(',')}],`));
  if (faults.has('account-info-key-flood')) return Buffer.from(text.replace('"user":{', `"user":{${'"nickname":"x",'.repeat(60_000)}`));
  if (faults.has('account-info-deep-nesting')) return Buffer.from(text.replace('"user":{', `"user":{"extra":${'['.repeat(100_000)}${']'.repeat(100_000)},`));
  if (faults.has('account-info-latin-1')) {
    const user = (body as { user: { lastName: string } }).user;
    return Buffer.from(text.replace(JSON.stringify(user.lastName), '"Müller"'), 'latin1');
  }
  return undefined;
}

/** The funding-sources body, as bytes, flooded with distinct sources; undefined without the fault. */
export function hostileFundingBody(faults: ReadonlySet<string>, body: unknown): Buffer | undefined {
  if (!faults.has('funding-sources-flood')) return undefined;
  const sources = Array.from({ length: 62_000 }, (_, i) => `{"id":"f${i}"}`);
  return Buffer.from(JSON.stringify(body).replace('"fundingSources":[', `"fundingSources":[${sources.join(',')},`));
}

/**
 * Partners that leak: what they send is not wrong by any rule, but it carries secrets and personal data
 * where no masking by key would look. The redaction self-test (test/self/redaction.spec.ts) plants them.
 */
export const leakFaults = {
  'echoes-secrets': {
    description:
      'token endpoint: refuses a reused code with 401 (a SHOULD warning) whose error_description echoes the client secret (base64, as HTTP Basic, upper case, first character \\u-escaped, its tail after a "…", split across two fields), the code (plain, percent-encoded once and twice, form-encoded, base64), the token it issued and the codes other sessions last presented for exchange (plain and \\u-escaped); the code again in Cache-Control, the secret in headers (base64url, HTTP Basic) and in a cookie (upper case, percent-encoded)',
  },
  'echoes-issued-tokens': {
    description:
      'token endpoint: every refusal lists, in "error_description", the access tokens the partner issued so far (the worker\'s own exchange\'s among them), as a debugging aid left on',
  },
  'personal-data-elsewhere': {
    description:
      'account-info: a full bank account number as "accountNumber" and as "bankAccountNumber": {"value": …}, an SSN as company.taxInfo.ssn, an EIN inside company.name, the date of birth as user.birthDay (a number, 19851210) and company.ownerBorn ("12/10/1985"), and "token": "rule", "password": "request"',
  },
} as const satisfies Record<string, FaultSpec>;
export type LeakFault = keyof typeof leakFaults;
export const isLeakFault = (name: string): name is LeakFault => Object.hasOwn(leakFaults, name);

const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
const firstAsUnicodeEscape = (text: string) => `\\u${text.charCodeAt(0).toString(16).padStart(4, '0')}${escaped(text.slice(1))}`;
const base64 = (text: string) => Buffer.from(text).toString('base64');

/** The JSON text of the "echoes-secrets" refusal, written by hand so it holds the escapes a serializer would not. */
export function echoingRefusal({
  clientId,
  clientSecret,
  code,
  tokens,
}: {
  clientId: string;
  clientSecret: string;
  code: string;
  tokens: readonly string[];
}): string {
  const half = Math.floor(clientSecret.length / 2);
  const description = [
    `secret=${escaped(base64(clientSecret))}`,
    `basic=${escaped(base64(`${clientId}:${clientSecret}`))}`,
    `upper=${escaped(clientSecret.toUpperCase())}`,
    `unicode=${firstAsUnicodeEscape(clientSecret)}`,
    `preview=${escaped(clientSecret.slice(0, 4))}…${escaped(clientSecret.slice(4))}`,
    `code=${escaped(code)} ${escaped(encodeURIComponent(code))} ${escaped(encodeURIComponent(encodeURIComponent(code)))} ${escaped(new URLSearchParams({ code }).toString())} ${base64(code)}`,
    `sessions=${tokens.map(firstAsUnicodeEscape).join(' ')} ${tokens.map(escaped).join(' ')}`,
    // Markup a report must show as text, never run.
    'markup=<img src=x onerror=window.partnerMarkupRan=1><script>window.partnerMarkupRan=1</script>',
  ].join('; ');
  return `{"error":"invalid_grant","error_description":"${description}","secret_start":"${escaped(clientSecret.slice(0, half))}","secret_end":"${escaped(clientSecret.slice(half))}"}`;
}

/** The headers of the "echoes-secrets" refusal: the secret in a debugging header, as HTTP Basic, and in a cookie. */
export function echoingHeaders({ clientId, clientSecret, code }: { clientId: string; clientSecret: string; code: string }): Record<string, string> {
  return {
    'cache-control': `no-store, code=${code}`,
    'x-debug-secret': Buffer.from(clientSecret).toString('base64url'),
    'x-debug-authorization': `Basic ${base64(`${clientId}:${clientSecret}`)}`,
    'set-cookie': `debug_secret=${encodeURIComponent(clientSecret.toUpperCase())}; Path=/; HttpOnly`,
  };
}

/** Account information with personal data under keys no masking by name knows. */
export function leakingAccountInfo(body: unknown): unknown {
  const copy = structuredClone(body) as {
    user: Record<string, unknown>;
    company: { name?: string; taxInfo?: Record<string, unknown> } & Record<string, unknown>;
  };
  copy.user.token = 'rule';
  copy.user.password = 'request';
  copy.company.accountNumber = '000555666777';
  copy.company.bankAccountNumber = { value: '000888999111' };
  copy.company.taxInfo = { ...copy.company.taxInfo, ssn: '078-05-1120' };
  copy.company.name = `${copy.company.name ?? 'Acme'} (EIN 98-7654321)`;
  // The date of birth again, under names no mask knows: as a bare number (its last 4 digits are its month and day) and written the US way.
  const [year, month, day] = String(copy.user.dateOfBirth).split('-');
  copy.user.birthDay = Number(`${year}${month}${day}`);
  copy.company.ownerBorn = `${month}/${day}/${year}`;
  return copy;
}

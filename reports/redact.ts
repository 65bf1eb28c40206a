import type { Exchange } from '../checks/evidence';

/**
 * Redaction by value: every secret an exchange carried (credentials, codes, tokens, bank account
 * numbers, tax identifiers) is collected, then every occurrence is replaced wherever it appears:
 * headers, bodies, URLs, even echoed in an error.
 */
const sensitiveKeys = new Set([
  'access_token', 'refresh_token', 'refreshtoken', 'id_token', 'client_secret', 'code', 'password', 'token', 'api-key', 'apikey',
  // spec §2.3 company.taxInfo.identifier and §2.4 bankAccountNumber
  'identifier', 'bankaccountnumber',
]);
const mask = '[redacted]';

function sensitiveValuesOf(body: string | undefined, into: Set<string>) {
  if (!body) return;
  const visit = (value: unknown, key = ''): void => {
    if (typeof value === 'string' || typeof value === 'number') {
      if (sensitiveKeys.has(key.toLowerCase())) into.add(String(value));
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, Array.isArray(value) ? key : k);
    }
  };
  try {
    visit(JSON.parse(body));
  } catch {
    for (const [key, value] of new URLSearchParams(body)) visit(value, key);
  }
}

export function secretsOf(exchanges: readonly Exchange[], known: readonly (string | undefined)[] = []): string[] {
  const secrets = new Set(known.filter((value): value is string => Boolean(value)));
  for (const { request, response } of exchanges) {
    const credentials = /^(?:bearer|basic)\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (credentials) secrets.add(credentials);
    if (request.headers['api-key']) secrets.add(request.headers['api-key']);
    for (const [key, value] of new URL(request.url, 'http://invalid').searchParams) if (sensitiveKeys.has(key.toLowerCase())) secrets.add(value);
    sensitiveValuesOf(request.body, secrets);
    sensitiveValuesOf(response?.body, secrets);
  }
  // Longest first, so a secret that contains another is masked whole; tiny values would mask noise.
  return [...secrets].filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
}

/** A compact JWS (the mock-link JWT): its payload carries account information, tax ids included. */
const jwt = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

export function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join(mask), text).replace(jwt, mask);
}

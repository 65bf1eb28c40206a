import type { RequestRecord } from '../checks/evidence';
import { mask } from '../redaction/redact';

/**
 * A curl command that repeats a redacted request. Every masked value becomes a named placeholder
 * (`<CODE>`, `<CLIENT_SECRET>`, `<ACCESS_TOKEN>`…) for the partner engineer to fill in.
 */

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const placeholder = (name: string) => `<${name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}>`;

function namedPlaceholders(body: string): string {
  try {
    const json = JSON.stringify(JSON.parse(body), (key, value: unknown) => (value === mask && key ? placeholder(key) : value));
    return json;
  } catch {
    const form = new URLSearchParams(body);
    if ([...form.keys()].length === 0) return body;
    return [...form].map(([key, value]) => `${key}=${value === mask ? placeholder(key) : encodeURIComponent(value)}`).join('&');
  }
}

function urlWithPlaceholders(url: string): string {
  try {
    const parsed = new URL(url);
    for (const [key, value] of parsed.searchParams) if (value === mask) parsed.searchParams.set(key, placeholder(key));
    return decodeURI(parsed.toString());
  } catch {
    return url;
  }
}

const headerPlaceholder = (name: string, value: string) => {
  if (name === 'authorization') return value.replace(/^(bearer)\s+\S+/i, '$1 <ACCESS_TOKEN>').replace(/^(basic)\s+\S+/i, '$1 <BASE64_CLIENT_ID_COLON_SECRET>');
  return value === mask ? placeholder(name) : value;
};

// Set by the HTTP stack itself; curl sends its own.
const implicitHeaders = new Set(['content-length', 'host', 'connection', 'accept-encoding', 'user-agent']);

export function curlOf(request: RequestRecord): string {
  const lines = [`curl -i -X ${request.method} ${shellQuote(urlWithPlaceholders(request.url))}`];
  for (const [name, value] of Object.entries(request.headers)) {
    if (!implicitHeaders.has(name.toLowerCase())) lines.push(`  -H ${shellQuote(`${name}: ${headerPlaceholder(name.toLowerCase(), value)}`)}`);
  }
  if (request.body !== undefined && request.body !== '') lines.push(`  --data-raw ${shellQuote(namedPlaceholders(request.body).split(mask).join('<SECRET>'))}`);
  return lines.join(' \\\n');
}

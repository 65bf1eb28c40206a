import { discoveryUrls, listsClientSecretPost, quoted, saidMethods } from '../checks/token-discovery';
import { httpClient, type HttpClient } from '../client/http';

/**
 * `init --issuer`: the partner's discovery document, read where a client reads it (RFC 8414 §3, then OpenID
 * Connect Discovery), for the token URL it names; init says what it took from where. A document whose issuer is
 * not the one asked for is refused, as RFC 8414 §3.3 tells a client to.
 */

export interface Discovered {
  tokenEndpoint: string;
  /** What init says it took, and what the document says of client authentication. */
  lines: string[];
}

/** What `url` answered, through the harness's own client (no redirect followed, a body past 1 MiB refused): a JSON object, or the answer in words. */
async function readDocument(http: HttpClient, url: string): Promise<{ document: Record<string, unknown> } | { answer: string }> {
  const { response, failure } = await http.send({ method: 'GET', url, headers: { accept: 'application/json' } });
  if (failure || !response) return { answer: `nothing usable (${failure?.message ?? 'no response'})` };
  if (response.status !== 200) return { answer: String(response.status) };
  try {
    const value: unknown = JSON.parse(response.body);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { document: value as Record<string, unknown> };
  } catch {
    // said below
  }
  return { answer: '200 with a body that is not a JSON object' };
}

export async function discover(issuer: string, timeoutMs = 10_000): Promise<Discovered | { problem: string }> {
  const http = httpClient({ timeoutMs });
  try {
    return await discoverWith(http, issuer);
  } finally {
    await http.close?.();
  }
}

async function discoverWith(http: HttpClient, issuer: string): Promise<Discovered | { problem: string }> {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return { problem: 'is not a URL; give the issuer, e.g. https://auth.example.com' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'is not an http(s) URL' };
  if (url.username || url.password) return { problem: 'holds credentials, which an issuer never does; give it without them' };
  if (url.search || url.hash) return { problem: 'has a query or a fragment, which an issuer never has (RFC 8414 §2)' };
  const tried: string[] = [];
  for (const where of discoveryUrls(issuer)) {
    const read = await readDocument(http, where);
    if ('answer' in read) {
      tried.push(`${where} answered ${read.answer}`);
      continue;
    }
    const { issuer: named, token_endpoint: tokenEndpoint, token_endpoint_auth_methods_supported: methods } = read.document;
    if (named !== issuer)
      return {
        problem: `the discovery document at ${where} says "issuer": ${quoted(named)}, and a client MUST NOT use a document of another issuer (RFC 8414 §3.3); give --issuer as the document names it, or --token-url`,
      };
    if (typeof tokenEndpoint !== 'string' || !/^https?:\/\//.test(tokenEndpoint))
      return { problem: `the discovery document at ${where} names no "token_endpoint"; give --token-url` };
    const auth = listsClientSecretPost(methods)
      ? `its "token_endpoint_auth_methods_supported" lists client_secret_post, which the platform sends (spec §5.3)`
      : `note: its "token_endpoint_auth_methods_supported" is ${saidMethods(methods)}, without client_secret_post, which the platform sends (spec §5.3); the run says whether the endpoint takes it`;
    return { tokenEndpoint, lines: [`read ${where}: tokenExchangeUrl is its "token_endpoint"`, auth] };
  }
  return { problem: `no discovery document: ${tried.join('; ')}; give --token-url instead` };
}

import type { Rule } from './finding';

/**
 * A discovery document the partner publishes (RFC 8414, OpenID Connect Discovery), held against what its token
 * endpoint did this run: a client set up from the document must get what works.
 */

/** Where the discovery document of `issuer` is read, in the order tried: RFC 8414 §3.1's, then OpenID's. */
export function discoveryUrls(issuer: string): string[] {
  const { origin, pathname } = new URL(issuer);
  const path = pathname.replace(/\/$/, '');
  return [`${origin}/.well-known/oauth-authorization-server${path}`, `${origin}${path}/.well-known/openid-configuration`];
}

export interface DiscoveryEvidence {
  issuer: string;
  tokenExchangeUrl: string;
  /** The platform's request, its client credentials in the body (client_secret_post), was answered with a token this run. */
  bodyCredentialsAccepted: boolean;
  /** The document and where it was read; or what each URL answered, when none gave one. */
  read: { url: string; document: Readonly<Record<string, unknown>> } | { tried: readonly { url: string; answer: string }[] };
}

/** A value of the partner's document, quoted and cut short: a document may hold anything. */
export const quoted = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
};

/** Whether a document's "token_endpoint_auth_methods_supported" lists client_secret_post, the platform's (spec §5.3); omitted, it means client_secret_basic alone (RFC 8414 §2). */
export const listsClientSecretPost = (methods: unknown) =>
  (Array.isArray(methods) ? methods : methods === undefined ? ['client_secret_basic'] : []).includes('client_secret_post');

/** How a document's "token_endpoint_auth_methods_supported" reads, said. */
export const saidMethods = (methods: unknown) => (methods === undefined ? 'nothing, which means client_secret_basic alone (RFC 8414 §2)' : quoted(methods));

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href.replace(/\/$/, '') === new URL(b).href.replace(/\/$/, '');
  } catch {
    return false;
  }
};

export const discoveryAgrees: Rule<DiscoveryEvidence> = {
  id: 'token-exchange/discovery-agrees',
  owner: 'partner',
  field: 'issuer',
  clause: 'RFC8414 §2',
  level: 'SHOULD',
  requirement: 'the discovery document names the issuer it is read under, the token URL the platform calls, and a client authentication the endpoint takes',
  levelWhy:
    'the platform is configured by hand, not from the document, so a document that disagrees breaks no sign-on; but whoever sets a client up from it (RFC 8414 §3.3 says a client MUST NOT use one whose issuer differs) gets what does not work',
  impact: 'a client configured from the document calls another token URL or authenticates in a way the endpoint refuses',
  check: ({ issuer, tokenExchangeUrl, bodyCredentialsAccepted, read }) => {
    if ('tried' in read)
      return [
        {
          code: 'no-document',
          params: {},
          message: `the profile names the issuer "${issuer}", and no discovery document answered: ${read.tried.map(({ url, answer }) => `${url} answered ${answer}`).join('; ')}; publish one at the first (RFC 8414 §3.1), or take "issuer" out of the profile`,
        },
      ];
    const { url, document } = read;
    const issues = [];
    if (document.issuer !== issuer)
      issues.push({
        code: 'issuer',
        params: {},
        message: `the discovery document at ${url} says "issuer": ${quoted(document.issuer)}, not "${issuer}", the issuer it is read under, so a client MUST NOT use it (RFC 8414 §3.3); make "issuer" the issuer's own URL`,
      });
    const tokenEndpoint = document.token_endpoint;
    if (typeof tokenEndpoint !== 'string')
      issues.push({
        code: 'no-token-endpoint',
        params: {},
        message: `the discovery document at ${url} has no "token_endpoint" (RFC 8414 §2: REQUIRED unless only the implicit grant is supported); name the token URL the platform calls, "${tokenExchangeUrl}"`,
      });
    else if (!sameUrl(tokenEndpoint, tokenExchangeUrl))
      issues.push({
        code: 'token-endpoint',
        params: {},
        message: `the discovery document at ${url} names "token_endpoint": ${quoted(tokenEndpoint)}, while the platform calls "${tokenExchangeUrl}" ("tokenExchangeUrl"); publish the token URL the platform calls, or configure the platform with the document's`,
      });
    if (!bodyCredentialsAccepted) return issues;
    const methods = document.token_endpoint_auth_methods_supported;
    if (!listsClientSecretPost(methods))
      issues.push({
        code: 'auth-methods',
        params: {},
        message: `the discovery document at ${url} advertises "token_endpoint_auth_methods_supported": ${saidMethods(methods)}, yet the endpoint took the platform's client credentials in the body (client_secret_post) this run; list "client_secret_post", so that a client set up from the document sends what works`,
      });
    const grants = document.grant_types_supported;
    if (grants !== undefined && !(Array.isArray(grants) && grants.includes('authorization_code')))
      issues.push({
        code: 'grant-types',
        params: {},
        message: `the discovery document at ${url} advertises "grant_types_supported": ${quoted(grants)}, without "authorization_code", which the endpoint took this run; list it`,
      });
    return issues;
  },
};

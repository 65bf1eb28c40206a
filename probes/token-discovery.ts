import { evaluate } from '../checks/finding';
import { jsonResponse, type Exchange } from '../checks/evidence';
import { discoveryAgrees, discoveryUrls } from '../checks/token-discovery';
import { withNeeds } from './probe';
import { workerEncoding } from './token-calls';

/** What a discovery URL gave: the document, or its answer in words. */
function documentOf(exchange: Exchange): { document: Record<string, unknown> } | { answer: string } {
  if (exchange.failure || !exchange.response) return { answer: `nothing usable (${exchange.failure?.message ?? 'no response'})` };
  const response = jsonResponse(exchange.response);
  if (response.status !== 200) return { answer: String(response.status) };
  const { json } = response;
  if (!json.ok || typeof json.value !== 'object' || json.value === null || Array.isArray(json.value))
    return { answer: '200 with a body that is not a JSON object' };
  return { document: json.value as Record<string, unknown> };
}

/** The partner's discovery document, when the profile names its issuer: read where RFC 8414, then OpenID, put it. */
export const discoveryProbe = withNeeds({
  kind: 'http',
  id: 'token-exchange/discovery',
  area: 'token-exchange',
  title: "the partner's discovery document says what its token endpoint does",
  rules: [discoveryAgrees],
  codes: 0,
  profileNeeds: [
    { unmet: (profile) => (profile.issuer ? undefined : 'the profile names no "issuer", so there is no discovery document to hold against the endpoint') },
  ],
  // What the document says of client authentication is held against the platform's request answered with a token.
  needs: { worker: workerEncoding },
  run: async (ctx, _met, http) => {
    const { issuer, tokenExchangeUrl, clientSecret } = ctx.profile;
    const evidence = { issuer: issuer!, tokenExchangeUrl, bodyCredentialsAccepted: clientSecret !== undefined };
    const tried: { url: string; answer: string }[] = [];
    for (const url of discoveryUrls(issuer!)) {
      const read = documentOf(await http.send({ method: 'GET', url, headers: { accept: 'application/json' } }));
      if ('document' in read) return evaluate(discoveryAgrees, { ...evidence, read: { url, document: read.document } }, undefined);
      tried.push({ url, answer: read.answer });
    }
    return evaluate(discoveryAgrees, { ...evidence, read: { tried } }, undefined);
  },
});

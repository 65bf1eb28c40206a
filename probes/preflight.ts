import { readFileSync } from 'node:fs';
import { profileClient, type HttpClient, type HttpRequest } from '../client/http';
import { classify } from '../client/transport-failure';
import { connectError } from '../client/tls';
import { resourceRequest } from '../client/requests';
import { bodyPreview, type Exchange } from '../checks/evidence';
import type { Profile } from '../profile/profile-schema';
import { secretsOf, shortestSecret, type Secret } from '../redaction/secrets';
import { mintOnce } from './minted-codes';
import { isSetupError } from '../client/setup-error';

/**
 * What a run needs before its first test, checked in a few seconds: every URL of the profile resolves and
 * takes a connection (its TLS handshake checked), the mint URL gives a code, and the partner's three endpoints
 * are there (what they must refuse is not answered 404). A slow or odd answer is no preflight problem: the
 * suites judge it. Each problem is one line naming the profile's field and the fix.
 */

/**
 * The profile's own client (its CA, no plain http:// in production) and deadline: a busy machine must not
 * stop a run its tests would have finished. A newcomer's mistakes (nothing listening, a wrong path, a
 * name that does not resolve) are answered at once, whatever the deadline.
 *
 * It keeps what the preflight's requests carried, for whoever prints its lines to mask them with: every
 * exchange (the codes, tokens and cookies of its answers) and the codes the mint received, including any a
 * failing answer quoted. A partner may echo any of them in an answer a line quotes (a token endpoint answering
 * 404 with the code just minted).
 */
function carrying(profile: Profile) {
  const http = profileClient(profile);
  const exchanges: Exchange[] = [];
  const codes: string[] = [];
  const client: HttpClient = {
    ...http,
    send: async (request) => {
      const exchange = await http.send(request);
      exchanges.push(exchange);
      return exchange;
    },
  };
  const secrets = () =>
    secretsOf(
      exchanges,
      codes.filter((code) => code.length >= shortestSecret),
    );
  return { client, codes, secrets };
}
type Carried = ReturnType<typeof carrying>;

/** The URL a line may show: no credentials, no query (a gateway key may sit there). */
const shown = (url: URL) => `${url.origin}${url.pathname}`;

function urlsOf(profile: Profile): [field: string, url: string][] {
  const urls: [string, string | undefined][] = [
    ['tokenExchangeUrl', profile.tokenExchangeUrl],
    ['accountInfoUrl', profile.accountInfoUrl],
    ['fundingSourcesUrl', profile.fundingSourcesUrl],
    ['codes.mintUrl', profile.codes.mintUrl],
    ['platform.url', profile.platform?.url],
    ['dataApi.baseUrl', profile.dataApi?.baseUrl],
  ];
  return urls.filter((entry): entry is [string, string] => entry[1] !== undefined);
}

async function connects(field: string, url: string, profile: Profile): Promise<string | undefined> {
  const parsed = new URL(url);
  const ca = profile.caFile === undefined ? undefined : readFileSync(profile.caFile, 'utf8');
  const error = await connectError(parsed, ca ? { ca } : {}, profile.requestTimeoutMs);
  if (!error) return undefined;
  const connectTimeout = (error as { code?: string }).code === 'UND_ERR_CONNECT_TIMEOUT';
  if (connectTimeout)
    return `"${field}" (${shown(parsed)}): no connection to ${parsed.host} within ${profile.requestTimeoutMs / 1000} s ("requestTimeoutMs"); check that the host is reachable from here (a VPN, a firewall), or correct "${field}"`;
  const { kind, message } = classify(error, url, profile.requestTimeoutMs, false);
  const fix =
    kind === 'tls'
      ? 'fix the certificate, or give its private CA as "caFile"'
      : kind === 'dns'
        ? `correct "${field}"`
        : `start the server, or correct "${field}"`;
  return `"${field}" (${shown(parsed)}): ${message.replace(/; is the server running\?$/, '')}; ${fix}`;
}

/** A request no endpoint grants (no code, no token): anything but a 404 says an endpoint is there (a 400 or a 401 is what a conformant one answers). */
async function served(carried: Carried, field: string, request: HttpRequest, what: string): Promise<string | undefined> {
  const { response } = await carried.client.send(request);
  if (response?.status !== 404) return undefined;
  return `"${field}" (${shown(new URL(request.url))}) answered 404 to ${what} (${bodyPreview(response.body)}): no endpoint is there; check the path`;
}

/** The partner's three endpoints, each asked something it must refuse, but not with a 404. */
const endpointsServed = (profile: Profile): [field: string, request: HttpRequest, what: string][] => [
  [
    'tokenExchangeUrl',
    { method: 'POST', url: profile.tokenExchangeUrl, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: '' },
    'an empty token request',
  ],
  ['accountInfoUrl', resourceRequest(profile.accountInfoUrl), 'a request without a token'],
  ...(profile.fundingSourcesUrl
    ? [['fundingSourcesUrl', resourceRequest(profile.fundingSourcesUrl), 'a request without a token'] as [string, HttpRequest, string]]
    : []),
];

/** One code from the mint hook, as a test's would be asked for: only one, none minted ahead (it would go unspent). */
async function mintsACode(profile: Profile, carried: Carried): Promise<string | undefined> {
  const { mintUrl } = profile.codes;
  if (!mintUrl) return undefined;
  try {
    await mintOnce(mintUrl, carried.client, { received: (code) => carried.codes.push(code) });
    return undefined;
  } catch (error) {
    return isSetupError(error, 'code-source')
      ? `${error.message}; check "codes.mintUrl" and that the partner's test hook is deployed`
      : `"codes.mintUrl": ${String(error)}`;
  }
}

/**
 * What the preflight found: the problems that would stop this profile's run, each on one line (none when it may
 * start), as the partner's answers worded them; and `secrets`, every value its requests carried (the codes its
 * mint received, what the answers held), which the printer masks each line with, beside the profile's own.
 */
export interface PreflightOutcome {
  problems: string[];
  secrets: Secret[];
}

/** The preflight, its lines unmasked, with what they must be masked with (PreflightOutcome). */
export async function preflightOutcome(profile: Profile): Promise<PreflightOutcome> {
  const carried = carrying(profile);
  try {
    // The connection first: a host that takes none says all there is to say about the requests behind it.
    const unreachable = await Promise.all(urlsOf(profile).map(([field, url]) => connects(field, url, profile)));
    const problems = unreachable.filter((problem): problem is string => problem !== undefined);
    const reached = (field: string) => !unreachable[urlsOf(profile).findIndex(([name]) => name === field)];
    const requests = await Promise.all([
      ...endpointsServed(profile).map(([field, request, what]) => (reached(field) ? served(carried, field, request, what) : undefined)),
      reached('codes.mintUrl') ? mintsACode(profile, carried) : undefined,
    ]);
    return { problems: [...problems, ...requests.filter((problem): problem is string => problem !== undefined)], secrets: carried.secrets() };
  } finally {
    await carried.client.close?.();
  }
}

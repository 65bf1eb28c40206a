import type { JsonResponse } from './evidence';
import type { Rule } from './finding';
import { describeJsonResponse, grantsToken } from './token-exchange';

/**
 * How the token endpoint takes requests the platform never sends but an attacker or a careless client
 * may (RFC 6749 §2.3.1, §3.2, §4.1.2), and what it must never send back. Each probe sends the platform's
 * own request with exactly one deviation.
 */

export const getRefused: Rule<JsonResponse> = {
  id: 'token-exchange/get-refused',
  owner: 'partner',
  field: 'method',
  clause: 'RFC6749 §3.2',
  level: 'SHOULD',
  requirement: 'a GET carrying the token request in its query string yields no token',
  levelWhy:
    'RFC 6749 §3.2: the client "MUST use the HTTP POST method"; but the platform never sends a GET, and no one gets a token through one who could not by POST',
  impact:
    'a client that puts the code and client secret in a URL is rewarded: URLs end up in access logs, proxies and browser history, and with them the secret',
  check: (r) =>
    grantsToken(r)
      ? [
          {
            code: 'not-refused',
            params: { status: r.status },
            message: `a GET to "tokenExchangeUrl" with "code" and the client credentials in its query string was answered ${describeJsonResponse(r)}; issue tokens only to a POST (RFC 6749 §3.2: "The client MUST use the HTTP POST method"), and answer a GET with 405`,
          },
        ]
      : [],
};

export const credentialsInUriRefused: Rule<JsonResponse> = {
  id: 'token-exchange/credentials-in-uri-refused',
  owner: 'partner',
  field: 'client_secret',
  clause: 'RFC6749 §2.3.1',
  level: 'SHOULD',
  requirement: 'client credentials in the request URI are not accepted: the request yields no token',
  levelWhy:
    'RFC 6749 §2.3.1: the credentials "MUST NOT be included in the request URI"; but the platform never puts them there, and no one gets a token that way who does not already hold the secret',
  impact: 'the client secret is accepted from the URL, where access logs and proxies keep it for anyone who reads them',
  check: (r) =>
    grantsToken(r)
      ? [
          {
            code: 'not-refused',
            params: { status: r.status },
            message: `a token request with "client_id" and "client_secret" in the query string of "tokenExchangeUrl" (and "code" in the body) was answered ${describeJsonResponse(r)}; read client credentials only from the body or the Authorization header (RFC 6749 §2.3.1: they "MUST NOT be included in the request URI"), and answer 401 "invalid_client"`,
          },
        ]
      : [],
};

/** The two orders a repeated "code" is sent in: a fresh code first and a made-up one second, and the other way round. */
export interface DuplicateTrial {
  first: 'fresh' | 'made-up';
  response: JsonResponse;
}

export const duplicateParamRefused: Rule<readonly DuplicateTrial[]> = {
  id: 'token-exchange/duplicate-param-refused',
  owner: 'partner',
  field: 'code',
  clause: 'RFC6749 §3.2',
  level: 'SHOULD',
  requirement: 'a request with "code" twice yields no token, whichever value comes first',
  levelWhy:
    'RFC 6749 §3.2 forbids the client to repeat a parameter and §5.2 names the error, but nothing obliges the server to detect it; a warning, as OAuch grades it',
  impact: 'a front end and the token endpoint may read different values of one parameter, which is how parameter-pollution attacks slip a value past a check',
  check: (trials) =>
    trials
      .filter(({ response }) => grantsToken(response))
      .map(({ first, response }) => ({
        code: 'not-refused',
        params: { first, status: response.status },
        message: `a token request with "code" twice (${first === 'fresh' ? 'a fresh code first, a made-up one second' : 'a made-up code first, a fresh one second'}) was answered ${describeJsonResponse(response)}; refuse a request that repeats a parameter with 400 "invalid_request" (RFC 6749 §3.2: parameters "MUST NOT be included more than once"; §5.2)`,
      })),
};

export const unknownParamIgnored: Rule<JsonResponse> = {
  id: 'token-exchange/unknown-param-ignored',
  owner: 'partner',
  field: 'certify_unrecognised',
  clause: 'RFC6749 §3.2',
  level: 'SHOULD',
  requirement: 'a parameter the endpoint does not recognise is ignored: the code is still exchanged',
  levelWhy:
    'RFC 6749 §3.2\'s "MUST ignore" binds the server, but no sign-on fails today because of it: the platform sends only known parameters, so it warns of the day it sends one more',
  impact: 'the day the platform sends one more parameter (a scope, a resource, a request id), every sign-on fails',
  check: (r) =>
    grantsToken(r)
      ? []
      : [
          {
            code: 'refused',
            params: { status: r.status },
            message: `the platform's token request with one more parameter, "certify_unrecognised", was answered ${describeJsonResponse(r)}; ignore parameters you do not recognise (RFC 6749 §3.2: the server "MUST ignore unrecognized request parameters")`,
          },
        ],
};

/** What came of one round: one fresh code sent several times at once, and how many of the tokens that came back still work once every answer is in. */
export interface RaceRound {
  issued: number;
  working: number;
  /** The 5xx statuses among the round's answers, one per answer. */
  serverErrors: readonly number[];
}

/** Rounds of one race each, every round a fresh code: run until one yields two working tokens, or `raceRounds` ran. */
export interface Race {
  sent: number;
  rounds: readonly RaceRound[];
}

/**
 * A server that checks a code, issues its token and only then marks the code used loses some races, not
 * all: one round catches it by luck. Over 40 rounds, a server that loses one race in five goes unseen with
 * probability 0.8^40 ≈ 0.013 %, one in ten with 0.9^40 ≈ 1.5 %. Where each code costs a login in the
 * partner's own app, or a code the partner lists by hand, 10 rounds: 0.8^10 ≈ 11 %, which the
 * requirement states.
 */
export const raceRounds = { minted: 40, costly: 10 } as const;
export const raceSize = 5;

const roundsRan = (rounds: number) => `${rounds} round${rounds === 1 ? '' : 's'}`;

export const concurrentRedemption: Rule<Race> = {
  id: 'token-exchange/concurrent-redemption',
  owner: 'partner',
  field: 'code',
  clause: 'RFC6749 §4.1.2',
  level: 'MUST',
  requirement: `one code sent ${raceSize} times at once yields at most one working token, in each of ${raceRounds.minted} rounds of a fresh code (${raceRounds.costly} when codes come from a login page or a list: a server that loses one race in five would go unseen 11 % of the time)`,
  must: { othersIn: 'whoever races the platform with a stolen code gets a token of their own (RFC 6749 §4.1.2: a code "MUST NOT be used more than once")' },
  impact: 'an attacker who races the platform with a stolen code gets a token of their own, and the sequential reuse check never sees it',
  check: ({ sent, rounds }) => {
    const lost = rounds.findIndex((round) => round.working > 1);
    if (lost >= 0) {
      const { issued, working, serverErrors } = rounds[lost]!;
      const errors =
        serverErrors.length > 0
          ? ` (${serverErrors.length} of the others were answered ${[...new Set(serverErrors)].join(', ')}: the code was checked before it was marked used)`
          : '';
      return [
        {
          code: 'double-redeem',
          params: { round: lost + 1, rounds: rounds.length, sent, issued, working },
          message: `in round ${lost + 1} (of ${roundsRan(rounds.length)} run, each a fresh code), of ${sent} token requests sent at once with the same "code", ${issued} were answered with an access token, and ${working} of those tokens still work${errors}; mark a code used atomically before issuing its token (a compare-and-set, a unique constraint or a transaction), and revoke every token of a code that was presented twice (RFC 6749 §4.1.2)`,
        },
      ];
    }
    const suspicious = rounds.filter((round) => round.issued > 0 && round.serverErrors.length > 0);
    if (suspicious.length === 0) return [];
    const statuses = [...new Set(suspicious.flatMap((round) => round.serverErrors))].join(', ');
    return [
      {
        code: 'losers-5xx',
        outcome: 'warning',
        params: { rounds: rounds.length, suspicious: suspicious.length, statuses },
        message: `no code yielded two working tokens in ${roundsRan(rounds.length)}, but in ${suspicious.length} of them the requests that lost to the one that got a token were answered ${statuses}: a server that fails while the winner's token is being saved usually checks the code before it marks it used, and at another timing lets two requests win; mark the code used atomically, and refuse a spent code with 400 "invalid_grant" (RFC 6749 §5.2)`,
      },
    ];
  },
};

/** A value the platform sent, by what the partner would call it: `the client secret`, `the code`. */
export interface Sent {
  what: string;
  value: string;
}

/** Echoes shorter than this are too likely to be chance. */
const shortestEchoed = 8;

/** The forms a value is echoed in, each found in any letter case. */
function echoForms({ value }: Sent, clientId: string | undefined): [form: string, how: string][] {
  const base64 = (text: string) => Buffer.from(text).toString('base64').replace(/=+$/, '');
  const forms: [string, string][] = [];
  // First: base64 of the secret alone can sit inside a Basic credential, which names the echo better.
  if (clientId !== undefined) forms.push([base64(`${clientId}:${value}`), 'as an HTTP Basic credential']);
  forms.push(
    [value, 'as it is'],
    [encodeURIComponent(value), 'percent-encoded'],
    [base64(value), 'base64-encoded'],
    [base64(value).replaceAll('+', '-').replaceAll('/', '_'), 'base64url-encoded'],
  );
  return forms.filter(([form]) => form.length >= shortestEchoed);
}

export const noEchoedCredentials: Rule<{ response: Pick<JsonResponse, 'headers' | 'body'>; sent: readonly Sent[]; clientId?: string | undefined }> = {
  id: 'token-exchange/no-echoed-credentials',
  owner: 'partner',
  field: 'client_secret',
  clause: 'harness §echo',
  level: 'MUST',
  requirement: 'the token endpoint never sends back the client secret or the code, in the body or a header',
  must: { othersIn: 'a secret in a response is a leaked secret: every log, proxy and cache on the way keeps it' },
  impact: "whatever logs or caches the response (a proxy, an APM agent, the platform's own logs) now holds the credential",
  check: ({ response, sent, clientId }) => {
    const places = [
      ['the body', response.body.toLowerCase()],
      ...Object.entries(response.headers).map(([name, value]) => [`the "${name}" header`, value.toLowerCase()]),
    ] as const;
    return sent.flatMap((one) => {
      const echo = echoForms(one, clientId)
        .map(([form, how]) => ({ how, where: places.find(([, text]) => text.includes(form.toLowerCase()))?.[0] }))
        .find(({ where }) => where !== undefined);
      if (!echo) return [];
      return [
        {
          code: 'echoed',
          params: { what: one.what, how: echo.how },
          message: `the token endpoint's response carries ${one.what} (${echo.how}) in ${echo.where}; never send a credential back: an "error_description" or a header may say what was wrong, not quote it`,
        },
      ];
    });
  },
};

/** How long past the lifetime a held code is redeemed: enough that a clock a little slow does not count. */
export const codeLifetimeMarginSeconds = 5;

export const codeExpires: Rule<{ heldSeconds: number; response: JsonResponse }> = {
  id: 'token-exchange/code-expires',
  owner: 'partner',
  field: 'code',
  clause: 'RFC6749 §4.1.2',
  level: 'SHOULD',
  requirement: 'a code held past its lifetime (10 minutes at most) is refused',
  levelWhy: 'RFC 6749 §4.1.2 RECOMMENDS (SHOULD) a 10-minute maximum',
  impact: 'a code that leaked through a log, a referrer or browser history stays good for as long as it sits there',
  check: ({ heldSeconds, response }) =>
    grantsToken(response)
      ? [
          {
            code: 'not-expired',
            params: { heldSeconds, status: response.status },
            message: `a "code" held ${formatDuration(heldSeconds)} before its exchange was answered ${describeJsonResponse(response)}; let codes expire after at most 10 minutes (RFC 6749 §4.1.2: "A maximum authorization code lifetime of 10 minutes is RECOMMENDED")`,
          },
        ]
      : [],
};

export function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds} s` : `${minutes} min ${seconds % 60} s`;
}

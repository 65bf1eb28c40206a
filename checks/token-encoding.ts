import { jsonResponse, type Exchange, type JsonResponse } from './evidence';
import { type Rule } from './finding';
import {
  bounded,
  describeJsonResponse,
  encodings,
  errorCode,
  errorDescription,
  grantsToken,
  isSuccess,
  issuedToken,
  otherEncoding,
  signOnFails,
  type Encoding,
} from './token-exchange';

// ---- the exchange with a fresh code: the configured encoding, and the other one ---------------------

/**
 * A token request with a fresh code in the configured encoding and, when that was refused, the same
 * request (the same code: a refused body spent none) in the other encoding, to tell the cause apart.
 */
export interface EncodingTrial {
  encoding: Encoding;
  response: JsonResponse;
  other?: JsonResponse;
  /** The same credentials sent with HTTP Basic (RFC 6749 §2.3.1) and a fresh code, when the refusal was of the client (basicTellsApart). */
  basic?: JsonResponse;
  /** What the platform sends for this partner (spec §5.3), and the variable the profile read the secret from, if any. */
  client: { clientId?: string | undefined; clientSecret?: string | undefined; secretVariable?: string | undefined };
}

const refusesClient = (r: JsonResponse) => !grantsToken(r) && (r.status === 401 || errorCode(r) === 'invalid_client');

/**
 * Whether a refusal of the platform's request is one only HTTP Basic can explain: the client was refused
 * (401, or "invalid_client"; a 401 challenging for Basic is what many libraries answer a wrong secret with,
 * whatever the scheme it came in) while the platform sent both credentials in the body. Sent with Basic,
 * the same credentials are taken by a Basic-only endpoint and refused again when the secret is wrong.
 */
export const basicTellsApart = (r: JsonResponse, { clientId, clientSecret }: EncodingTrial['client']) =>
  clientId !== undefined && clientSecret !== undefined && refusesClient(r) && !unknownClient(r);

const says = (r: JsonResponse, pattern: RegExp) => pattern.test(`${bounded(errorCode(r)) ?? ''} ${errorDescription(r) ?? ''}`);
/** The partner says it does not know the client: no scheme would change that. */
const unknownClient = (r: JsonResponse) =>
  says(
    r,
    /(unknown|not found|not registered|no such|does not exist|not exist)[^.]{0,20}client|client[^.]{0,30}(unknown|not found|not registered|does not exist)/i,
  );
const complainsOfEncoding = (r: JsonResponse) => r.status === 415 || says(r, /content.?type|urlencoded|application\/json|media type|json bod|form bod/i);

/**
 * The common root causes of a refused exchange, recognised from the partner's own error and
 * error_description, each with its fix in the partner's terms. Undefined when none is recognised.
 */
function rootCause(r: JsonResponse, client: EncodingTrial['client'], basic?: JsonResponse): string | Diagnosis | undefined {
  const { clientId, clientSecret } = client;
  if (r.status === 404) return 'nothing is served at "tokenExchangeUrl": check the path in the profile';
  if (says(r, /redirect.?uri/i)) {
    return 'the partner requires "redirect_uri", which the platform never sends (spec §4.2 lists only code, grant_type, client_id, client_secret and scope); exchange the platform\'s codes without "redirect_uri": issue them without a redirect URI binding, or register exactly one redirect URI for its client and let the token request omit it (RFC 6749 §4.1.3 requires it only when the authorization request carried one); where the library binds every code to a redirect URI whatever is registered, add the client\'s registered redirect URI to a token request that has none, in front of the token endpoint (a few lines before the library\'s handler), which always works';
  }
  if (says(r, /code.?verifier|pkce|code.?challenge/i)) {
    return 'the partner requires PKCE ("code_verifier"), which the platform never sends (spec §4.2); issue the platform\'s codes without a "code_challenge", or exempt its client from PKCE: it is a confidential client that authenticates with its secret';
  }
  const clientProblem = refusesClient(r) || says(r, /client.?(id|secret|auth|credential)/i);
  if (!clientProblem) return undefined;
  if (clientId === undefined || clientSecret === undefined) {
    return 'the partner requires client authentication, and the profile has no "clientId" and "clientSecret", so the platform sends none (spec §5.3); predefine the client credentials in the platform\'s configuration for this partner (profile "clientId" and "clientSecret")';
  }
  if (unknownClient(r)) {
    return `the partner does not know the client_id ${JSON.stringify(clientId)}; register the platform's client under that id, or correct "clientId" in the profile`;
  }
  // The same credentials sent with Basic decide: refused again, it is the secret; taken, it was the scheme.
  if (basic && refusesClient(basic)) return secretRefused(client, basic);
  const basicOnly = (asked: string, evidence = '') =>
    `the partner ${asked}, while the platform sends "client_id" and "client_secret" in the body (client_secret_post; spec §4.2, §5.3)${evidence}; allow client_secret_post for the platform's client (RFC 6749 §2.3.1 lets a server accept credentials in the body)`;
  if (basic) {
    const answer = issuedToken(basic) ? 'were answered with a token' : `got past client authentication (answered ${describeJsonResponse(basic)})`;
    return basicOnly('requires HTTP Basic client authentication', `: the same credentials sent with HTTP Basic (RFC 6749 §2.3.1) and a fresh "code" ${answer}`);
  }
  if (says(r, /basic|client_secret_post|authentication method|auth(entication)?.?method|authorization header/i))
    return basicOnly('requires HTTP Basic client authentication');
  // A 401 that challenges for Basic, to credentials sent in the body: the endpoint asks for the one scheme it takes.
  if (r.status === 401 && /^\s*basic\b/i.test(r.headers['www-authenticate'] ?? '')) {
    return `${basicOnly('asks for HTTP Basic client authentication ("WWW-Authenticate: Basic" on the 401)')}; if it does take credentials in the body, check that "clientSecret" is the current secret of ${JSON.stringify(clientId)}`;
  }
  return `the partner refused the platform's client credentials; check that "clientId" (${JSON.stringify(clientId)}) is registered, that "clientSecret" is its current secret, and that the client may send its credentials in the body (client_secret_post, RFC 6749 §2.3.1)`;
}

/** A refusal's message, with the field and code of a cause the encoding's rule does not name itself. */
interface Diagnosis {
  message: string;
  field?: string;
  code?: string;
}
const messageOf = (cause: string | Diagnosis | undefined) => (typeof cause === 'object' ? cause.message : cause);

/** One message for a refused exchange: the partner's words, the root cause and its fix (both fixes for an encoding). */
export const diagnoseRefusal = (trial: EncodingTrial): string => diagnose(trial).message;

function diagnose(trial: EncodingTrial): Diagnosis {
  const { label, contentType } = encodings[trial.encoding];
  const alternative = otherEncoding(trial.encoding);
  const other = encodings[alternative];
  const head = `a ${label} token request with a fresh "code" was answered ${describeJsonResponse(trial.response)}`;
  if (trial.other && issuedToken(trial.other)) {
    return {
      message: `${head}, while the same request ${other.label} was answered with a token: the partner does not accept ${contentType} bodies; either accept ${contentType} token requests (spec §4.2 lets the platform send either), or have the platform configured to send ${other.contentType} for this partner ("tokenExchangeEncoding": "${alternative}")`,
    };
  }
  const cause = rootCause(trial.response, trial.client, trial.basic);
  if (typeof cause === 'object') return { ...cause, message: `${head}: ${cause.message}` };
  if (cause) return { message: `${head}: ${cause}` };
  if (trial.other && complainsOfEncoding(trial.response)) {
    // The other encoding got past the body parser: its refusal names the cause behind the encoding.
    const further = `the same request ${other.label} got further and was answered ${describeJsonResponse(trial.other)}`;
    const otherCause = messageOf(rootCause(trial.other, trial.client));
    return {
      message: `${head}; ${further}: accept ${contentType} bodies (or have the platform send ${other.contentType}, "tokenExchangeEncoding": "${alternative}")${otherCause ? `, and then: ${otherCause}` : ', and answer that request with a token'}`,
    };
  }
  if (errorCode(trial.response) === 'invalid_grant') return { message: `${head}: ${freshCodeRefused(trial.client)}` };
  return { message: `${head}; answer a token request with a fresh "code" with 200 and an "access_token"` };
}

/** The client refused in the body and with HTTP Basic alike: the secret the platform is configured with is not the partner's. */
function secretRefused({ clientId, secretVariable }: EncodingTrial['client'], basic: JsonResponse): Diagnosis {
  const secret = secretVariable === undefined ? '"clientSecret"' : `"clientSecret" (${secretVariable})`;
  return {
    code: 'secret-refused',
    field: 'clientSecret',
    message: `the partner refused the client secret; sent with HTTP Basic instead (RFC 6749 §2.3.1), with a fresh "code", it was refused again, answered ${describeJsonResponse(basic)}: ${secret} is not the secret the partner holds for the client ${JSON.stringify(clientId)}; check the value the platform is configured with against the partner's registration of that client, and put the current one ${secretVariable === undefined ? 'in the profile' : `in .env (${secretVariable}=…) or the environment`}`,
  };
}

/** A fresh code refused as invalid, with nothing in the partner's words to say why: the likely causes, most likely first, and how to tell them apart. */
const freshCodeRefused = ({ clientId }: EncodingTrial['client']) =>
  [
    'the partner refused a code it had just issued as invalid. Most likely, in this order:',
    '(1) the code is bound to the "redirect_uri" of its authorization request, which the platform\'s token request does not repeat (spec §4.2): exchange a fresh code by hand with and without "redirect_uri"; if only the first works, issue codes without that binding, or add the registered redirect URI to a token request that has none, in front of the token endpoint;',
    `(2) the code was issued to another client than the platform's${clientId === undefined ? '' : ` (${JSON.stringify(clientId)})`}: mint the codes for the client the profile names;`,
    "(3) the code was issued for a user or scope the endpoint will not exchange, or expired before it was used: compare the code's record in the partner's store with the request",
  ].join(' ');

export const configuredEncodingAccepted: Rule<EncodingTrial> = {
  id: 'token-exchange/encoding',
  owner: 'partner',
  field: 'tokenExchangeEncoding',
  clause: 'spec §4.2',
  level: 'MUST',
  requirement: 'a token request with a fresh code, in the encoding the platform is configured to send ("tokenExchangeEncoding"), is answered with a token',
  impact: signOnFails,
  must: { signOn: 'the platform sends this encoding only: every sign-on fails', spec: 'spec §4.2: the body is JSON or form, as configured for the partner' },
  check: (trial) => {
    if (isSuccess(trial.response.status)) return [];
    const { code = 'refused', ...diagnosis } = diagnose(trial);
    return [{ code, ...diagnosis }];
  },
};

export const otherEncodingNoted: Rule<{ encoding: Encoding; exchange: Exchange }> = {
  id: 'token-exchange/other-encoding',
  owner: 'partner',
  field: 'tokenExchangeEncoding',
  clause: 'spec §4.2',
  level: 'INFO',
  requirement: 'the encoding the platform is not configured to send is tried, so the platform team knows whether it could switch',
  impact: 'none: the platform sends only the configured encoding',
  check: ({ encoding, exchange }) => {
    const { label } = encodings[encoding];
    // Its transport is the configured exchange's too, and judged there: here an unusable answer is only noted.
    if (!exchange.response) return [{ code: 'no-answer', message: `a ${label} token request got no usable answer (${exchange.failure?.message ?? 'none'})` }];
    const response = jsonResponse(exchange.response);
    return issuedToken(response)
      ? [
          {
            code: 'token',
            message: `a ${label} token request with a fresh "code" was answered with a token: the platform could also be switched to ${label} ("tokenExchangeEncoding": "${encoding}")`,
          },
        ]
      : [
          {
            code: 'refused',
            message: `a ${label} token request with a fresh "code" was answered ${describeJsonResponse(response)}: the platform could not be switched to ${label} without a change on the partner's side`,
          },
        ];
  },
};

export const negativeCasesEncoding: Rule<{ configured: Encoding; used: Encoding }> = {
  id: 'token-exchange/negative-cases-encoding',
  owner: 'partner',
  field: 'tokenExchangeEncoding',
  clause: 'spec §4.2',
  level: 'INFO',
  requirement: 'the negative cases are sent in an encoding that has been shown to issue a token, so none fails because of the encoding',
  impact: 'none: a note on how the negative cases were sent',
  check: ({ configured, used }) => [
    {
      code: 'noted',
      message:
        configured === used
          ? `the negative cases were sent ${encodings[used].label}, the configured encoding, which issued a token`
          : `the negative cases were sent ${encodings[used].label}, the encoding shown to issue a token: the configured ${encodings[configured].label} encoding issued none (see token-exchange/encoding)`,
    },
  ],
};

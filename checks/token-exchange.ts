import { bodyPreview, jsonObject, mediaType, type Exchange, type JsonResponse } from './evidence';
import { statusDescription } from './response';
import { transportRules } from './transport';

/** Spec §4.2: the token request body is JSON or form-encoded; the platform may send either. */
export type Encoding = 'json' | 'form';

export const encodings: Record<Encoding, { label: string; contentType: string }> = {
  json: { label: 'JSON', contentType: 'application/json' },
  form: { label: 'form-encoded', contentType: 'application/x-www-form-urlencoded' },
};
export const otherEncoding = (encoding: Encoding): Encoding => (encoding === 'json' ? 'form' : 'json');

export const isSuccess = (status: number) => status >= 200 && status <= 299;
export const stringField = (r: JsonResponse, name: string) => {
  const value = jsonObject(r)?.[name];
  return typeof value === 'string' ? value : undefined;
};
export const errorCode = (r: JsonResponse) => stringField(r, 'error');
/** The partner's own words, bounded: they are quoted and matched, never trusted to be short. */
export const bounded = (text: string | undefined) => (text === undefined || text.length <= 200 ? text : `${text.slice(0, 200)}…`);
export const errorDescription = (r: JsonResponse) => bounded(stringField(r, 'error_description'));
/** Whether the endpoint granted the request: a 2xx, or any answer that carries a token. */
export const grantsToken = (r: JsonResponse) => isSuccess(r.status) || jsonObject(r)?.access_token !== undefined;

/** `400 with "error": "invalid_grant", "error_description": "…"`, `200 with an "access_token"`, `415 with a text/html body "<html>…"`. */
export function describeJsonResponse(r: JsonResponse): string {
  const object = jsonObject(r);
  if (object?.access_token !== undefined) return `${statusDescription(r)} with an "access_token"`;
  const code = errorCode(r);
  const description = errorDescription(r);
  if (code !== undefined)
    return `${statusDescription(r)} with "error": ${JSON.stringify(bounded(code))}${description === undefined ? '' : `, "error_description": ${JSON.stringify(description)}`}`;
  if (r.body.trim() === '') return `${statusDescription(r)} with an empty body`;
  return `${statusDescription(r)} with a ${mediaType(r.headers) || 'untyped'} body ${bodyPreview(r.body)}`;
}

export const signOnFails = 'sign-on fails for every user';

export const tokenTransportRules = transportRules('token-exchange', 'tokenExchangeUrl', 'partner');

/**
 * Whether "accountInfoUrl" took a token: a 2xx is yes, a 401 or other error is no. A transport failure
 * or a redirect says nothing about the token; the account-info rules report those.
 */
export function tokenVerdict({ response, failure }: Exchange): 'accepted' | 'refused' | { unknown: string } {
  if (failure) return { unknown: `"accountInfoUrl" gave no usable answer (${failure.message}); see account-info/transport` };
  const status = response!.status;
  if (status >= 300 && status <= 399) return { unknown: `"accountInfoUrl" answered with a ${status} redirect; see account-info/redirect` };
  if (status === 404)
    return {
      unknown: `"accountInfoUrl" answered 404 (${bodyPreview(response!.body)}): nothing is served at that URL, so no token can be judged there; see account-info/status`,
    };
  return isSuccess(status) ? 'accepted' : 'refused';
}

/** The usable access token of a successful (2xx) response, if there is one. */
export function issuedToken(response: JsonResponse): string | undefined {
  if (!isSuccess(response.status)) return undefined;
  const token = jsonObject(response)?.access_token;
  return typeof token === 'string' && token.trim() !== '' ? token : undefined;
}

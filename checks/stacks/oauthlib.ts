import { cause, configured } from './causes';
import type { StackEntry } from './stack-entry';

/** Each refusal the token route turns into a 200 when it sends create_token_response's body without its status. */
const refusals = ['unknown-code-rejected', 'code-reuse-rejected', 'wrong-secret-rejected', 'no-token-without-credentials'].map(
  (rule) => `token-exchange/${rule}`,
);
const statusDropped = {
  when: 'was answered 200',
  fix: 'send the status create_token_response returns with its headers and body: headers, body, status = server.create_token_response(uri, http_method, body, headers); return Response(body, status=status, headers=headers)',
  docs: 'https://oauthlib.readthedocs.io/en/latest/oauth2/server.html#the-token-endpoint',
};

/**
 * oauthlib, alone or under django-oauth-toolkit, which sends its answers as they are: one entry for both, since what
 * told them apart in recordings (how a password grant is answered) is the application's choice of grants, not the
 * library's (a django-oauth-toolkit partner's password grant was answered unsupported_grant_type by oauthlib's words).
 */
export const oauthlib: StackEntry = {
  library: 'oauthlib (alone, or under django-oauth-toolkit)',
  observedOn: ['oauthlib 3.2.2', 'django-oauth-toolkit 1.7.0'],
  docs: 'https://oauthlib.readthedocs.io/en/latest/oauth2/server.html',
  signatures: [
    [
      {
        probe: 'token-exchange/unknown-code',
        said: 'an unknown code is answered {"error": "invalid_grant"}, no more',
        body: '{"error": "invalid_grant"}',
      },
      {
        probe: 'token-exchange/missing-grant-type',
        said: 'a request without grant_type is answered {"error": "unsupported_grant_type"}',
        body: '{"error": "unsupported_grant_type"}',
      },
    ],
    [
      {
        probe: configured,
        said: 'the platform\'s request is refused {"error": "invalid_request", "error_description": "Code verifier required."}',
        body: '{"error": "invalid_request", "error_description": "Code verifier required."}',
      },
    ],
  ],
  fixes: {
    'token-exchange/encoding': {
      when: cause.pkce,
      fix: "under django-oauth-toolkit, OAUTH2_PROVIDER['PKCE_REQUIRED'] = False, or a callable of the client id that is False for the platform's confidential client (it is True by default from 2.0 on); with oauthlib alone, have RequestValidator.is_pkce_required(client_id, request) return False for it",
      docs: 'https://django-oauth-toolkit.readthedocs.io/en/latest/settings.html#pkce-required',
    },
    ...Object.fromEntries(refusals.map((rule) => [rule, statusDropped])),
    'token-exchange/concurrent-redemption': {
      fix: "oauthlib calls your RequestValidator's validate_code, and invalidate_authorization_code only after the token is issued: claim the code in validate_code itself, atomically (a dict.pop, or UPDATE … SET used = true WHERE code = ? AND NOT used and check the row count), so a second request at the same time finds it gone; under django-oauth-toolkit, subclass OAuth2Validator so that validate_code claims the code before calling super() (a unique row per used code; in one process, a lock and a set), and name it in OAUTH2_PROVIDER['OAUTH2_VALIDATOR_CLASS']",
      docs: 'https://oauthlib.readthedocs.io/en/latest/oauth2/validator.html',
    },
    'token-exchange/code-reuse-revokes-token': {
      fix: 'keep each used code with the access tokens issued for it (save_bearer_token sees request.code), and in validate_code, when a code comes back that was already used, revoke those tokens before returning False; under django-oauth-toolkit, do the same in your OAuth2Validator subclass (a row of your own per used code, its tokens revoked with AccessToken.revoke())',
      docs: 'https://oauthlib.readthedocs.io/en/latest/oauth2/validator.html',
    },
    'token-exchange/redirect': {
      fix: "under django-oauth-toolkit, route the path without its slash to the token view, path('oauth/token', oauth2_views.TokenView.as_view()), or configure the platform with the URL that ends in /oauth/token/ (Django's APPEND_SLASH answers 301)",
      docs: 'https://django-oauth-toolkit.readthedocs.io/en/latest/views/views.html',
    },
  },
};

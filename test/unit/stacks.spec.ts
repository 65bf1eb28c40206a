import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { stackCatalogue } from '../../checks/stacks/catalogue';
import { recogniseStack, stackFixFor, type StackAnswer } from '../../checks/stacks/stack-entry';

/**
 * The OAuth server named from its answers (issue 53): the answers of real instances of nine libraries, recorded by
 * someone who had not read the harness (a server each, written as its library's documentation shows; the requests the
 * harness's token probes send), each name their own library and no other; an answer set that lacks a probe, or a
 * server the catalogue does not know, is "not recognised".
 */

const recordings = JSON.parse(readFileSync(path.join(__dirname, 'stack-recordings.json'), 'utf8')) as Record<string, Record<string, StackAnswer[]>>;
const answersOf = (recorded: Record<string, StackAnswer[]>) => new Map(Object.entries(recorded));
const named: Record<string, string> = {
  'oidc-provider 9.13.3': 'oidc-provider',
  '@node-oauth/oauth2-server 5.3.0': '@node-oauth/oauth2-server (or its predecessor oauth2-server 3.x)',
  'oauth2-server 3.1.1': '@node-oauth/oauth2-server (or its predecessor oauth2-server 3.x)',
  'oauth2orize 1.12.0': 'oauth2orize',
  '@jmondi/oauth2-server 4.3.7': '@jmondi/oauth2-server',
  'Authlib 1.2.0': 'Authlib',
  'oauthlib 3.2.2': 'oauthlib (alone, or under django-oauth-toolkit)',
  'django-oauth-toolkit 1.7.0': 'oauthlib (alone, or under django-oauth-toolkit)',
  'Doorkeeper 5.5.0': 'Doorkeeper',
};

test('each recorded library is named, by every mark of its entry, and its answers fit no other entry', () => {
  expect(Object.keys(recordings).sort()).toEqual(Object.keys(named).sort());
  for (const [recorded, answers] of Object.entries(recordings)) {
    const recognition = recogniseStack(answersOf(answers), stackCatalogue);
    expect(recognition, recorded).toMatchObject({ library: named[recorded] });
    for (const entry of stackCatalogue.filter((other) => other.library !== named[recorded]))
      expect(recogniseStack(answersOf(answers), [entry]), `${recorded} against ${entry.library}`).toHaveProperty('notRecognised');
  }
});

test('not recognised: a probe not answered, a server the catalogue does not know, or answers two entries fit alike', () => {
  const oidc = answersOf(recordings['oidc-provider 9.13.3']!);
  const withoutProbe = new Map([...oidc].filter(([probe]) => probe !== 'token-exchange/missing-grant-type'));
  expect(recogniseStack(withoutProbe, stackCatalogue)).toHaveProperty('notRecognised');
  const own = { status: 400, headers: { 'content-type': 'application/json' }, body: '{"error":"invalid_grant","error_description":"code not found"}' };
  const ours = new Map([
    ['token-exchange/unknown-code', [own]],
    ['token-exchange/missing-grant-type', [{ ...own, body: '{"error":"invalid_request"}' }]],
  ]);
  expect(recogniseStack(ours, stackCatalogue)).toEqual({ notRecognised: expect.stringContaining('the marks of no library in the catalogue') });
  const twice = [stackCatalogue[0]!, { ...stackCatalogue[0]!, library: 'a copy' }];
  expect(recogniseStack(oidc, twice)).toEqual({ notRecognised: 'its answers fit oidc-provider and a copy alike, so neither is named' });
});

test("a rule's fix is the recognised library's own, and there is none when nothing is recognised", () => {
  const recognition = recogniseStack(answersOf(recordings['oauth2orize 1.12.0']!), stackCatalogue);
  // One rule, several causes: the fix is the one for the cause the failure's message names, and none for another cause.
  const basicOnly = 'answered 401: the partner requires HTTP Basic client authentication, while the platform sends …';
  expect(stackFixFor(recognition, 'token-exchange/encoding', stackCatalogue, [basicOnly])).toMatchObject({
    library: 'oauth2orize',
    fix: expect.stringContaining("passport.authenticate(['basic', 'oauth2-client-password']"),
    docs: 'https://github.com/jaredhanson/oauth2orize#implement-token-endpoint',
  });
  const refused = 'answered 403 …: the partner refused a code it had just issued as invalid. Most likely, …';
  expect(stackFixFor(recognition, 'token-exchange/encoding', stackCatalogue, [refused])?.fix).toContain(
    'compare redirectURI only when the token request sends one',
  );
  expect(stackFixFor(recognition, 'token-exchange/encoding', stackCatalogue, ['the partner requires PKCE'])).toBeUndefined();
  expect(stackFixFor(recognition, 'token-exchange/pragma', stackCatalogue)).toBeUndefined();
  expect(stackFixFor({ notRecognised: 'x' }, 'token-exchange/encoding', stackCatalogue)).toBeUndefined();
});

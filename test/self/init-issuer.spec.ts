import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startStack, writePayloads, type StartedStack } from '../support/oauth-stacks';
import { parentEnv } from '../support/run-playwright';
import { tempDir } from '../support/temp';

/**
 * `init --issuer` (issue 53) against discovery documents that real libraries serve: oidc-provider's OpenID one
 * and oauthlib's RFC 8414 one, the latter written by hand to list Basic alone; and an issuer the document does not
 * name, refused as RFC 8414 §3.3 says a client must.
 */

const tsx = path.resolve('node_modules/.bin/tsx');
const cli = path.resolve('scripts/cli.ts');
const init = (folder: string, ...args: string[]) => spawnSync(tsx, [cli, 'init', ...args], { cwd: folder, encoding: 'utf8', env: parentEnv() });

const started: StartedStack[] = [];
test.afterAll(() => Promise.all(started.map((stack) => stack.close())));

test('init --issuer fills the token URL from a real discovery document, says what it took from where, and refuses a document of another issuer', async () => {
  const dir = tempDir('init-issuer-');
  const payloads = writePayloads(dir);
  const [oidc, oauthlib] = await Promise.all([
    startStack('oidc-provider', 'documented', payloads, 'PARTNER_ACME_CLIENT_SECRET'),
    startStack('oauthlib', 'misconfigured', payloads, 'PARTNER_BOLT_CLIENT_SECRET'),
  ]);
  started.push(oidc, oauthlib);
  const folder = path.join(dir, 'project');
  mkdirSync(folder);
  const rest = (origin: string) => ['--account-url', `${origin}/api/account-info`, '--mint-url', `${origin}/test-hooks/code`, '--client-id', 'acme-client'];

  const acme = init(folder, 'acme', '--issuer', oidc.origin, ...rest(oidc.origin));
  expect([acme.status, acme.stderr]).toEqual([0, '']);
  expect(acme.stdout.split('\n').slice(0, 3)).toEqual([
    'wrote partners/acme.json',
    `read ${oidc.origin}/.well-known/openid-configuration: tokenExchangeUrl is its "token_endpoint"`,
    'its "token_endpoint_auth_methods_supported" lists client_secret_post, which the platform sends (spec §5.3)',
  ]);
  expect(JSON.parse(readFileSync(path.join(folder, 'partners/acme.json'), 'utf8'))).toMatchObject({
    tokenExchangeUrl: `${oidc.origin}/oauth/token`,
    issuer: oidc.origin,
  });

  const bolt = init(folder, 'bolt', '--issuer', oauthlib.origin, ...rest(oauthlib.origin));
  expect(bolt.status).toBe(0);
  expect(bolt.stdout.split('\n').slice(1, 3)).toEqual([
    `read ${oauthlib.origin}/.well-known/oauth-authorization-server: tokenExchangeUrl is its "token_endpoint"`,
    'note: its "token_endpoint_auth_methods_supported" is ["client_secret_basic"], without client_secret_post, which the platform sends (spec §5.3); the run says whether the endpoint takes it',
  ]);

  // The issuer with a slash is another issuer: the document names the one without.
  const cleo = init(folder, 'cleo', '--issuer', `${oidc.origin}/`, ...rest(oidc.origin));
  expect([cleo.status, cleo.stdout]).toEqual([2, '']);
  expect(cleo.stderr).toBe(
    `init: --issuer ${oidc.origin}/: the discovery document at ${oidc.origin}/.well-known/openid-configuration says "issuer": "${oidc.origin}", and a client MUST NOT use a document of another issuer (RFC 8414 §3.3); give --issuer as the document names it, or --token-url\n`,
  );
  expect(existsSync(path.join(folder, 'partners/cleo.json'))).toBe(false);
  const none = init(folder, 'dora', '--issuer', `${oidc.origin}/nowhere`, ...rest(oidc.origin));
  expect([none.status, none.stderr.split(': no discovery document: ')[0]]).toEqual([2, `init: --issuer ${oidc.origin}/nowhere`]);
  expect(none.stderr).toContain(`${oidc.origin}/.well-known/oauth-authorization-server/nowhere answered 404`);
});

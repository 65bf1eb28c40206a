import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { bodyOf } from '../../sandbox/reference-partner/resources';

/**
 * Partners built on real OAuth server libraries (test/fixtures/oauth-stacks/<library>/, each written from that
 * library's own documentation by someone who had not read the harness): started as the library's own process, in
 * one of three modes, on a port of the system's choosing, with the reference partner's "complete" user as payloads.
 */
export type StackMode = 'documented' | 'misconfigured' | 'fixed';

export interface StackFixture {
  /** The folder under test/fixtures/oauth-stacks. */
  folder: string;
  command: readonly string[];
  tokenPath: string;
  /** It publishes a discovery document for its origin as issuer (RFC 8414 or OpenID): its profile names the issuer. */
  discovery?: true;
}

const python = ['/usr/bin/python3', 'server.py'];
export const stackFixtures: Record<string, StackFixture> = {
  'oidc-provider': { folder: 'oidc-provider', command: ['node', 'server.mjs'], tokenPath: '/oauth/token', discovery: true },
  '@node-oauth/oauth2-server': { folder: 'node-oauth2-server', command: ['node', 'server.js'], tokenPath: '/oauth/token' },
  'oauth2-server 3': { folder: 'oauth2-server-v3', command: ['node', 'server.js'], tokenPath: '/oauth/token' },
  oauth2orize: { folder: 'oauth2orize', command: ['node', 'server.js'], tokenPath: '/oauth/token' },
  '@jmondi/oauth2-server': { folder: 'jmondi', command: ['node', 'server.mjs'], tokenPath: '/oauth/token' },
  Authlib: { folder: 'authlib', command: python, tokenPath: '/oauth/token' },
  oauthlib: { folder: 'oauthlib', command: python, tokenPath: '/oauth/token', discovery: true },
  'django-oauth-toolkit': { folder: 'django-oauth-toolkit', command: python, tokenPath: '/oauth/token' },
  Doorkeeper: { folder: 'doorkeeper', command: ['/usr/bin/ruby', 'server.rb'], tokenPath: '/oauth/token' },
};

export const stackClient = { id: 'acme-client', secret: 'acme-secret-0123456789' };

export interface StartedStack {
  origin: string;
  profile: Record<string, unknown>;
  close: () => Promise<void>;
}

/** Writes the payloads the fixtures serve, once per test. */
export function writePayloads(dir: string): Record<string, string> {
  const files = { ACCOUNT_INFO_FILE: path.join(dir, 'account-info.json'), FUNDING_SOURCES_FILE: path.join(dir, 'funding-sources.json') };
  writeFileSync(files.ACCOUNT_INFO_FILE, JSON.stringify(bodyOf('account-info', 'complete', new Date(), new Set())));
  writeFileSync(files.FUNDING_SOURCES_FILE, JSON.stringify(bodyOf('funding-sources', 'complete', new Date(), new Set())));
  return files;
}

/** Starts `library` in `mode` and resolves once it says where it listens (or rejects with what it printed on exit). */
export async function startStack(library: string, mode: StackMode, payloads: Record<string, string>, secretEnv: string): Promise<StartedStack> {
  const fixture = stackFixtures[library]!;
  const [command, ...args] = fixture.command;
  const child = spawn(command!, args, {
    cwd: path.join(__dirname, '..', 'fixtures', 'oauth-stacks', fixture.folder),
    env: { ...process.env, ...payloads, STACK_MODE: mode, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-4000)));
  const origin = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
      if (url) resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`${library} (${mode}) exited ${code} before listening: ${said}`)));
  });
  const profile = {
    tokenExchangeUrl: `${origin}${fixture.tokenPath}`,
    accountInfoUrl: `${origin}/api/account-info`,
    fundingSourcesUrl: `${origin}/api/funding-sources`,
    clientId: stackClient.id,
    clientSecret: `env:${secretEnv}`,
    tokenExchangeEncoding: 'form',
    codes: { mintUrl: `${origin}/test-hooks/code` },
    ...(fixture.discovery ? { issuer: origin } : {}),
  };
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill();
    });
  return { origin, profile, close };
}

import { expect, test } from '@playwright/test';
import type { Browser } from '@playwright/test';
import type { Exchange } from '../../checks/evidence';
import type { AnyRule } from '../../checks/finding';
import type { HttpClient, HttpRequest } from '../../client/http';
import { SetupError } from '../../client/setup-error';
import type { AnyProbe, BrowserProbeContext } from '../../probes/platform';
import { probeRunner, type ProbeRunnerOptions } from '../../probes/runner';
import type { Profile } from '../../profile/profile-schema';
import { referenceProfile } from '../support/profiles';

/** The one runner (probes/runner.ts): each probe's context by its kind, made only when a probe that applies needs it. */

const rule: AnyRule = {
  id: 'area/a',
  owner: 'partner',
  field: 'a',
  clause: 'spec §4.2',
  level: 'MUST',
  requirement: 'a holds',
  impact: 'none',
  check: () => [],
};
const platformBlock = { url: 'http://127.0.0.1:4401', apiKey: 'k', partnerName: 'reference', hostPageUrl: 'http://127.0.0.1:4402/' };
const profile: Profile = { ...referenceProfile('http://127.0.0.1:4400'), platform: platformBlock };

function answering(): HttpClient & { sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  const send = async (request: HttpRequest): Promise<Exchange> => {
    sent.push(request);
    return {
      request: { ...request, headers: request.headers ?? {} },
      response: { status: 200, headers: {}, body: '{}', bytes: 2 },
      startedAt: '',
      durationMs: 1,
    };
  };
  return { send, sent };
}

const judging = (kind: AnyProbe['kind'], id: string, over: Partial<AnyProbe> = {}): AnyProbe =>
  ({
    kind,
    id,
    area: 'sign-on',
    title: id,
    rules: [rule],
    codes: 0,
    run: async () => [{ rule: rule.id, field: 'a', clause: 'spec §4.2', level: 'MUST', outcome: 'passed', message: `judged by ${id}`, impact: 'none' }],
    ...over,
  }) as AnyProbe;

function runnerOf(over: Partial<ProbeRunnerOptions> = {}) {
  const http = answering();
  const launched: string[] = [];
  const closed: string[] = [];
  const browser = {
    browserType: () => ({ name: () => 'chromium' }),
    version: () => '140.0',
    close: async () => void closed.push('closed'),
  } as unknown as Browser;
  const runner = probeRunner({
    profile,
    http,
    codes: { next: async () => 'code' },
    now: () => new Date('2026-06-01T12:00:00Z'),
    learn: () => undefined,
    launch: async () => (launched.push('launched'), browser),
    ...over,
  });
  // Connecting the bundled emulator sends it the partner's configuration: one PUT.
  const connects = () => http.sent.filter((request) => request.method === 'PUT').length;
  return { runner, http, launched, closed, connects };
}

test('an HTTP probe runs without the platform or the browser; a platform probe connects the platform once, whatever the probes', async () => {
  const { runner, launched, connects } = runnerOf();
  expect(await runner.run(judging('http', 'area/http'))).toMatchObject({ result: { findings: [{ message: 'judged by area/http' }] } });
  expect([connects(), launched.length]).toEqual([0, 0]);
  await Promise.all([runner.run(judging('platform', 'area/one')), runner.run(judging('platform', 'area/two'))]);
  expect([connects(), launched.length]).toEqual([1, 0]);
});

test('browser probes share one browser, launched when the first runs, named in their outcome, and closed by close()', async () => {
  const { runner, launched, closed } = runnerOf();
  let traceDir: string | undefined;
  const tracing = judging('browser', 'area/browser', {
    run: async (ctx: BrowserProbeContext) => ((traceDir = ctx.traceDir), []),
  });
  const outcomes = await Promise.all([runner.run(tracing), runner.run(judging('browser', 'area/other'))]);
  expect(outcomes.map((outcome) => 'browser' in outcome && outcome.browser)).toEqual(['chromium 140.0', 'chromium 140.0']);
  expect(launched).toEqual(['launched']);
  expect(traceDir).toBeUndefined();
  await runner.close();
  expect(closed).toEqual(['closed']);
  const traced = runnerOf({ traceDir: '/tmp/traces' });
  await traced.runner.run(tracing);
  expect(traceDir).toBe('/tmp/traces');
});

test('a probe the profile does not apply to says so, its rules skipped, with nothing connected or launched', async () => {
  const { runner, launched, connects } = runnerOf();
  const needsApp = judging('browser', 'area/app', { profileNeeds: [{ unmet: () => 'the profile has no "partnerApp" block' }] });
  expect(await runner.run(needsApp)).toEqual({
    notApplicable: 'the profile has no "partnerApp" block',
    result: {
      findings: [
        { rule: rule.id, field: 'a', clause: 'spec §4.2', level: 'MUST', outcome: 'skipped', message: 'the profile has no "partnerApp" block', impact: 'none' },
      ],
      exchanges: [],
    },
  });
  expect([connects(), launched.length]).toEqual([0, 0]);
});

test('a probe that could not run is an outcome saying why, with the code source screen; never a rejection', async () => {
  const { runner } = runnerOf();
  const failing = judging('http', 'area/failing', {
    run: async () => {
      const error = new SetupError('code-source', 'the login step failed');
      error.screenshot = Buffer.from('png');
      throw error;
    },
  });
  expect(await runner.run(failing)).toEqual({ error: 'the login step failed', screenshot: Buffer.from('png') });
  const withoutBrowser = runnerOf({ launch: undefined });
  expect(await withoutBrowser.runner.run(judging('browser', 'area/browser'))).toEqual({ error: 'no browser to run a browser probe in' });
  await withoutBrowser.runner.close();
});

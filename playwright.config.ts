import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import type { HarnessWorkerOptions } from './fixtures/harness';
import type { PartnerMetadata } from './reports/run-info';
import { chromiumLaunchOptions } from './fixtures/browser';
import { loadProfiles } from './partners/profile';
import { allProbes, codesForRun } from './probes/certification';
import { coordinator } from './run/coordinator';
import { runIdProblem, targetsOf } from './run/run-identity';
import { platformKind } from './profile/platform-kind';
import { isTestCommand, runsProject } from './run/command-line';
import { sandboxOrigins, usesSandbox } from './profile/sandbox-origins';

const isMainProcess = process.env.TEST_WORKER_INDEX === undefined;
// The harness's own files, by absolute path: this configuration also runs from an installed package, compiled
// (dist/*.js), under a partner's own playwright.config.js (`npx partner-certify init` writes it).
const own = (file: string) => path.join(__dirname, `${file}${path.extname(__filename)}`);
const certificationReporter = own('reports/certification-reporter');
const developing = existsSync(path.join(__dirname, 'test'));
// Every partners/*.json (and $PARTNERS_DIR/*.json) is a project. The run's main process reads only the profiles it
// was asked for (--project), so one partner's mistake stops no one else's run and the harness's own tests read none
// but the reference; an invalid profile that was asked for stops the run before any test, one line a problem. Its
// coordinator (run/coordinator.ts) hands each worker its partner's profile as it read it: a worker reads the
// profiles only to know the projects.
const asked = (name: string) => !isMainProcess || !isTestCommand(process.argv) || runsProject(process.argv, name);
const { profiles, errors } = loadProfiles('partners', { only: asked });
if (isMainProcess) {
  const run = coordinator();
  const runId = runIdProblem();
  if (errors.length > 0 || runId) run.stop([...errors.map((error) => ({ line: `invalid partner profile: ${error}` })), ...(runId ? [{ line: runId }] : [])]);
  run.register(profiles);
  for (const { name, profile } of profiles) {
    const handed = profile.codes.static?.length;
    const needed = codesForRun(profile);
    if (handed !== undefined && handed < needed)
      run.egress.for(name).warn(`${name}: "codes.static" holds ${handed} codes; a full certification run needs ${needed}`);
  }
}

// Probes wait on the network, not the CPU: more workers than cores shortens a run of several partners.
const workers = 4;

/** The harness's own tests, in a clone (an installed package has none). */
const ownProjects = [
  { name: 'unit', testDir: 'test/unit' },
  // Self-tests start nested runs and browsers of their own, or certify in-process against a partner in
  // their own event loop: two at a time keep 2 cores busy (one left them idle a third of the time, three
  // were no faster) without starving any past its timeout. Their own browser work is not traced: the DOM
  // snapshots cost a sixth of the platform-fault matrix's CPU, and a self-test judges findings, which its
  // failure prints. The nested runs are traced as any certification is.
  { name: 'self-test', testDir: 'test/self', timeout: 120_000, workers: 2, use: { trace: 'off' as const } },
  // Certifies with every core kept busy: after the self-tests, so its load slows none of them.
  { name: 'loaded-machine', testDir: 'test/loaded', dependencies: ['self-test'], use: { trace: 'off' as const } },
];

// JUnit goes to a file, also when a user adds one more with --add-reporter=junit: never 28 KB of XML on standard output.
const junitFile = path.join(process.env.CERTIFICATION_REPORT_DIR ?? 'reports/out', 'junit.xml');
process.env.PLAYWRIGHT_JUNIT_OUTPUT_FILE ??= junitFile;

export default defineConfig<object, HarnessWorkerOptions>({
  // The run's coordinator (run/coordinator.ts) plans before any worker starts (the preflight: fixtures/preflight.ts)
  // and, after the last test, writes the certification from what the workers said, whatever reporters the command names.
  globalSetup: own('fixtures/global-setup'),
  globalTeardown: own('reports/global-teardown'),
  fullyParallel: true,
  workers,
  forbidOnly: Boolean(process.env.CI),
  // The certification reporter hands the coordinator the tests the run chose, so each partner's probes start at
  // once; any others may replace it (--reporter): the run certifies all the same, each probe when its test comes.
  reporter: [[certificationReporter], ['list'], ['html', { open: 'never' }], ['junit', { outputFile: junitFile }]],
  // A failing test keeps its trace: actions, DOM snapshots, network, console. Not the screencast: each screen
  // is attached as a screenshot already, and filming every context cost a second of a 2-core run's 8.
  use: { launchOptions: chromiumLaunchOptions(), trace: { mode: 'retain-on-failure', screenshots: false } },
  // The bundled sandbox, for the harness's own tests and any profile that points at it; not for a partner's own server.
  webServer:
    developing || profiles.some(({ profile }) => usesSandbox(profile))
      ? {
          command:
            path.extname(__filename) === '.ts' ? `node --import tsx ${JSON.stringify(own('sandbox/main'))}` : `node ${JSON.stringify(own('sandbox/main'))}`,
          url: `${sandboxOrigins.partner}/health`,
          // Also when nested runs (test/self) start inside a run that already has the sandbox up.
          reuseExistingServer: true,
          timeout: 30_000,
        }
      : undefined,
  projects: [
    ...(developing ? ownProjects : []),
    ...profiles.map(({ name, file, profile, waivers, platformWaivers }) => ({
      name,
      testDir: path.join(__dirname, 'suites'),

      // A probe makes up to four sequential calls, each bounded by requestTimeoutMs.
      timeout: profile.requestTimeoutMs * 4 + 15_000,
      // One worker a partner, which starts all the partner's probes at once (fixtures/probe-runs.ts): a
      // worker costs a process and its modules, and the partner's latency is paid once, not once a test.
      workers: 1,
      // The probes' browser is the harness's own (fixtures/browser.ts), which Playwright's tracing never sees: each
      // browser probe traces its own context, and its test keeps the trace, masked, where something failed (and
      // always with --trace=on). Playwright's own trace of a partner's test holds its steps and attachments.
      use: { profileFile: file, trace: 'off' as const },
      // Also here: a blob report (sharding) keeps a project's metadata but not its "use". The plan (every
      // probe a certification runs), the targets and the waivers the run decides with are taken now, so a merge
      // judges what ran against them, and names the endpoints this run called, not those of the profile at merge time.
      metadata: {
        profileFile: file,
        plan: allProbes.map(({ id, title }) => ({ probe: id, title })),
        targets: targetsOf(profile),
        emulator: profile.platform !== undefined && platformKind(profile.platform) === 'emulator',
        waivers,
        platformWaivers,
      } satisfies PartnerMetadata,
    })),
  ],
});

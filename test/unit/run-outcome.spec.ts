import { expect, test } from '@playwright/test';
import { commandExitCode, decideOutcome, exitCodeOf } from '../../run/outcome';

/** The run's outcome, decided once (run/outcome.ts), and its exit code. */

test('each outcome has its exit code: certified 0, not certified or failed 1, stopped 2, incomplete 3, interrupted 130', () => {
  const cases = [
    [{ verdicts: [{ partner: 'a', verdict: 'CERTIFIED' }], problems: [] }, 'certified', 0],
    [{ verdicts: [{ partner: 'a', verdict: 'PARTIAL' }], problems: [] }, 'certified', 0],
    [
      {
        verdicts: [
          { partner: 'a', verdict: 'NOT CERTIFIED' },
          { partner: 'b', verdict: 'INCOMPLETE' },
        ],
        problems: [],
      },
      'not-certified',
      1,
    ],
    [{ verdicts: [{ partner: 'a', verdict: 'INCOMPLETE' }], problems: [] }, 'incomplete', 3],
    [{ verdicts: [{ partner: 'a', verdict: 'CERTIFIED' }], problems: ['x holds a secret of this run'] }, 'failed', 1],
    [{ verdicts: [], problems: [], stopped: ['preflight: a: …'] }, 'stopped', 2],
    [{ verdicts: [{ partner: 'a', verdict: 'NOT CERTIFIED' }], problems: [], interrupted: true }, 'interrupted', 130],
  ] as const;
  for (const [facts, kind, code] of cases) {
    const outcome = decideOutcome(facts);
    expect(outcome.kind, JSON.stringify(facts)).toBe(kind);
    expect(exitCodeOf(outcome)).toBe(code);
  }
});

test("the bundled emulator fails the run only when it does not conform; where its checks could not all be judged, the run is incomplete (exit 3), as a partner's", () => {
  expect(decideOutcome({ verdicts: [{ partner: 'a', verdict: 'CERTIFIED', emulator: 'DOES NOT CONFORM' }], problems: [] })).toEqual({
    kind: 'not-certified',
    uncertified: ['the bundled emulator did not conform (with a)'],
  });
  const incomplete = decideOutcome({ verdicts: [{ partner: 'a', verdict: 'INCOMPLETE', emulator: 'INCOMPLETE' }], problems: [] });
  expect(incomplete).toEqual({ kind: 'incomplete', uncertified: ['a INCOMPLETE', 'the bundled emulator INCOMPLETE (with a)'] });
  expect(exitCodeOf(incomplete)).toBe(3);
  // A partial run (-g) leaves the emulator's checks unjudged as it leaves the partner's, which it was asked to.
  expect(decideOutcome({ verdicts: [{ partner: 'a', verdict: 'PARTIAL', emulator: 'INCOMPLETE' }], problems: [] }).kind).toBe('certified');
  expect(decideOutcome({ verdicts: [{ partner: 'a', verdict: 'PARTIAL', emulator: 'DOES NOT CONFORM' }], problems: [] }).kind).toBe('not-certified');
  for (const emulator of ['CONFORMS', 'NOT CHECKED'] as const)
    expect(decideOutcome({ verdicts: [{ partner: 'a', verdict: 'CERTIFIED', emulator }], problems: [] }).kind).toBe('certified');
});

test("the command exits with the outcome, or Playwright's own code where the run ended before it could say, or failed for a reason of Playwright's", () => {
  expect(commandExitCode({ kind: 'incomplete', uncertified: ['a INCOMPLETE'] }, 1)).toBe(3);
  expect(commandExitCode(undefined, 1)).toBe(1);
  expect(commandExitCode({ kind: 'certified' }, 1)).toBe(1);
  expect(commandExitCode({ kind: 'certified' }, 0)).toBe(0);
});

import type { Certification } from './certification-schema';

/** The code requests the code source asked again after a transient failure (probes/minted-codes.ts), by why, most first (then by name, so a report reads the same whatever order its tests ended in). */
export function retriesOf(tests: readonly { codeRetries?: readonly string[] }[]): Certification['codeRetries'] {
  const counts = new Map<string, number>();
  for (const reason of tests.flatMap((test) => test.codeRetries ?? [])) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([reason, count]) => ({ reason, count }));
}

/** `3 code requests retried (the code source answered 500 2 times, timed out once)`: the code source is no rule, only a note. */
export function retriesNote(retries: Certification['codeRetries']): string {
  const total = retries.reduce((sum, { count }) => sum + count, 0);
  const times = (count: number) => (count === 1 ? 'once' : `${count} times`);
  return `${total} code request${total === 1 ? '' : 's'} retried (the code source ${retries.map(({ reason, count }) => `${reason} ${times(count)}`).join(', ')})`;
}

/**
 * What a `playwright test` command line asks for, read where Playwright gives no other way to know it (the
 * configuration is loaded before the command line is applied). Only the forms Playwright accepts.
 */

/** The values of `--name value` and `--name=value`, in order. */
function valuesOf(argv: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === name && i + 1 < argv.length) values.push(argv[++i]!);
    else if (arg.startsWith(`${name}=`)) values.push(arg.slice(name.length + 1));
  }
  return values;
}

/** Whether the command runs the project `name`: every project when no `--project` is given; names match whole, in any case, `*` as a wildcard. */
export function runsProject(argv: readonly string[], name: string): boolean {
  const patterns = valuesOf(argv, '--project');
  if (patterns.length === 0) return true;
  return patterns.some((pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(name));
}

/** Whether this process runs `playwright test` (not `merge-reports`, `show-report`, a worker). */
export const isTestCommand = (argv: readonly string[]): boolean => argv.slice(2).find((arg) => !arg.startsWith('-')) === 'test';

import { stackCatalogue } from '../checks/stacks/catalogue';
import { recogniseStack, stackFixFor, type StackAnswer, type StackRecognition } from '../checks/stacks/stack-entry';
import type { CollectedTest } from '../run/collected';

/** The partner's OAuth server, named from what its token endpoint answered the token probes this run (docs/STACKS.md). */
export function stackOfRun(tests: readonly Pick<CollectedTest, 'probe' | 'exchanges'>[]): StackRecognition {
  const answers = new Map<string, StackAnswer[]>();
  for (const { probe, exchanges } of tests) {
    if (!probe?.startsWith('token-exchange/')) continue;
    answers.set(probe, [
      ...(answers.get(probe) ?? []),
      ...exchanges.flatMap(({ response }) => (response ? [{ status: response.status, headers: response.headers, body: response.body }] : [])),
    ]);
  }
  return recogniseStack(answers, stackCatalogue);
}

/** A rule that failed or warned, with the fix on the recognised library when the catalogue has one for the cause its findings say. */
export const withStackFix =
  (stack: StackRecognition, findings: readonly { rule: string; outcome: string; message: string }[]) =>
  <R extends { id: string; outcome: string }>(rule: R): R & { stackFix?: { library: string; fix: string; docs: string } } => {
    const messages = () => findings.filter((finding) => finding.rule === rule.id && finding.outcome === rule.outcome).map((finding) => finding.message);
    const fix = rule.outcome === 'failed' || rule.outcome === 'warning' ? stackFixFor(stack, rule.id, stackCatalogue, messages()) : undefined;
    return fix ? { ...rule, stackFix: fix } : rule;
  };

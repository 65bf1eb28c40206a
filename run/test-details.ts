import type { Owner } from '../checks/finding';
import type { TestDetails } from './collected';

/**
 * What a probe's test declares of itself, as annotations of the test (known before it runs, so the certification
 * reporter sees them among the tests the run chose, and a merge of blob reports too): its probe, area and owner.
 */
const names = { probe: 'probe', area: 'area', owner: 'owner' } as const;

export const detailsAnnotations = ({ probe, area, owner }: { probe: string; area: string; owner: Owner }) => [
  { type: names.probe, description: probe },
  { type: names.area, description: area },
  { type: names.owner, description: owner },
];

export function detailsOf(annotations: readonly { type: string; description?: string }[]): TestDetails {
  const annotation = (type: string) => annotations.find((a) => a.type === type)?.description;
  const [probe, area, owner] = [annotation(names.probe), annotation(names.area), annotation(names.owner)];
  return {
    ...(probe !== undefined ? { probe } : {}),
    ...(area !== undefined ? { area } : {}),
    ...(owner === 'partner' || owner === 'platform' ? { owner } : {}),
  };
}

import { readFileSync } from 'node:fs';
import type { Marker, SpecRow } from '../checks/payload';

/**
 * The field rows of spec §2.3 and §2.4, read from the spec itself (docs/spec/partner-sso-spec.md, a copy
 * of ../shared/spec kept in the repo so tests are hermetic). The coverage test and docs/RULES.md use
 * them, so a row the catalogue forgets cannot go unnoticed.
 */
export interface SpecTableRow extends SpecRow {
  marker: Marker;
  validation: string;
}

export const specFile = 'docs/spec/partner-sso-spec.md';

const tablesOf = (section: string): string[][][] =>
  section
    .split(/\n(?!\|)/)
    .map((block) => block.split('\n').filter((line) => line.startsWith('|')))
    .filter((lines) => lines.length > 2)
    .map((lines) =>
      lines.slice(2).map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim().replace(/`/g, '')),
      ),
    );

const markerOf = (cell: string): Marker => (cell.toLowerCase() === 'no' ? 'no' : (cell as Marker));

export function specRows(markdown = readFileSync(specFile, 'utf8')): SpecTableRow[] {
  const section = (heading: string) => markdown.split(/\n### /).find((part) => part.startsWith(heading)) ?? '';
  const [accountInfo = [], address = []] = tablesOf(section('2.3 '));
  const [fundingSource = []] = tablesOf(section('2.4 '));
  const rows = (table: SpecRow['table'], cells: string[][], required: number, validation: number) =>
    cells.map((row) => ({ table, property: row[0]!, marker: markerOf(row[required]!), validation: row[validation] ?? '' }));
  return [
    ...rows('Account information', accountInfo, 2, 3),
    ...rows('Address object', address, 2, 3),
    // §2.4 states this one in prose: "an object with `fundingSources` (array, required)".
    { table: 'Funding source', property: 'fundingSources', marker: 'Yes', validation: 'array' },
    ...rows('Funding source', fundingSource, 2, 3),
  ];
}

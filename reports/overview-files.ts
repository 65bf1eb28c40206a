import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Certification } from './certification';
import { readCertification, recentRuns } from './history';
import { historyShown, overviewHtml, overviewOf } from './fleet-overview';
import { files, type Written } from './partner-files';
import type { Egress } from '../run/egress';

/** A partner whose report this run wrote, with its last runs from the history as the run began. */
export interface WrittenReport {
  partner: { name: string; history: readonly Certification[] };
  out: Written;
}

/** index.html and index.json: the run's partners on one page, each with its last runs from the history. */
export async function writeOverview(
  written: readonly WrittenReport[],
  finishedAt: Date,
  { outputDir, historyDir }: { outputDir: string; historyDir: string },
  egress: Egress,
): Promise<void> {
  if (written.length === 0) return;
  const reportOf = (dir: string) => path.relative(outputDir, path.join(dir, files.html)).split(path.sep).join('/');
  // Every partner with a report in the folder stays on the page, the ones this run did not certify as they last were.
  const earlier = readdirSync(outputDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !written.some(({ partner }) => partner.name === entry.name))
    .flatMap((entry) => {
      const dir = path.join(outputDir, entry.name);
      const { certification } = existsSync(path.join(dir, files.json)) ? readCertification(path.join(dir, files.json)) : {};
      return certification?.run.partner === entry.name
        ? [{ certification, report: reportOf(dir), history: recentRuns(historyDir, entry.name, historyShown, { warn: () => {} }) }]
        : [];
    });
  const overview = overviewOf(
    [...written.map(({ partner, out }) => ({ certification: out.certification, report: reportOf(out.dir), history: partner.history })), ...earlier],
    finishedAt,
  );
  // Built from the certifications as written (masked, each with its partner's secrets) and the harness's own words:
  // a partner's learned value must never rewrite another's row, so only what is every partner's is masked here.
  await egress.writeFiles(outputDir, overview, (masked) => ({ 'index.json': `${JSON.stringify(masked, null, 2)}\n`, 'index.html': overviewHtml(masked) }));
  if (written.length > 1) egress.print(`\noverview of ${written.length} partners: ${path.relative(process.cwd(), path.join(outputDir, 'index.html'))}`);
}
